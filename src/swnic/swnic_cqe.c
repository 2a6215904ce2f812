/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQE production for the software NIC (reference/mlx5.md B.6, B.7).
 *
 * Every CQE is written under cq->lock, because the requester (engine threads) and the
 * responder (fabric threads, other engine threads) share CQs. The 64 bytes are written
 * with op_own last behind a release store, as a NIC's DMA would, and cq->produced is
 * advanced with a release store afterwards so that a WAIT WQE that observes the new count
 * also observes the CQE.
 *
 * Choices where the PRM is silent or unverified:
 *  - owner bit = (produced >> log_size) & 1, also for a collapsed CQ (where consumers are
 *    told not to rely on it);
 *  - a collapsed CQ (cqc.cc) writes every CQE to entry 0 and is never checked for overrun;
 *  - 128-byte CQEs: the CQE64 goes into the second half; the first half is left untouched;
 *  - CE mode 1 ("CQE on first error" in DOCA) is treated as CE 0: a CQE only on error
 *    (the engine decides; see swnic_exec_req.c);
 *  - flush: each outstanding WQE gets its own WR_FLUSH_ERR CQE, signalled or not, because
 *    rdma-core's poller expects every error CQE to carry the wqe_counter of its own WQE.
 *  - overrun (cqc.oi = 0): producing while (produced - SET_CI) mod 2^24 >= size writes no
 *    CQE, puts the CQ in error for good, raises the async CQ_ERROR event on the CQ (and
 *    logs) and returns DOCA_ERROR_FULL so that the caller moves its QP to ERR. Every later
 *    post on that CQ fails the same way, without another event.
 *
 * Events: every CQE written is noted for solicited arming (SE bit or error), and a CQ with
 * a COMP subscription is checked against its arm doorbells (swnic_cq_arm.c) right after
 * the CQE is published; the event is raised once cq->lock is released.
 */
#include "swnic/swnic_engine.h"
#include "swnic/swnic_event.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"

#include <string.h>

static const char *cqe_opcode_name(uint8_t op)
{
	switch (op) {
	case OPENGDA_MLX5_CQE_REQ: return "REQ";
	case OPENGDA_MLX5_CQE_RESP_WR_IMM: return "RESP_WR_IMM";
	case OPENGDA_MLX5_CQE_RESP_SEND: return "RESP_SEND";
	case OPENGDA_MLX5_CQE_RESP_SEND_IMM: return "RESP_SEND_IMM";
	case OPENGDA_MLX5_CQE_RESP_SEND_INV: return "RESP_SEND_INV";
	case OPENGDA_MLX5_CQE_REQ_ERR: return "REQ_ERR";
	case OPENGDA_MLX5_CQE_RESP_ERR: return "RESP_ERR";
	default: return "OTHER";
	}
}

static bool cq_valid(const struct swnic_cq *cq)
{
	return cq != NULL && cq->ring != NULL && cq->log_size <= OPENGDA_MLX5_CQ_MAX_LOG_SIZE &&
	       (cq->cqe_size == 64u || cq->cqe_size == 128u);
}
/*
 * A collapsed CQ rewrites entry 0 while pollers may be reading it, so its CQE is built aside and
 * published with its last 4 bytes (counter, signature, op_own) in one release store: a poller that
 * acquires those 4 bytes sees a counter and an op_own of the same CQE (pollers of a collapsed CQ
 * acquire those 4 bytes, not the op_own byte alone).
 */
static int cqe_store(bool collapsed, struct opengda_mlx5_cqe64 *entry, const struct opengda_mlx5_cqe_fields *f,
		     uint8_t owner, const struct swnic_cqe_rx *rx)
{
	struct opengda_mlx5_cqe64 img;
	uint8_t *b = (uint8_t *)&img;
	uint32_t tail;

	if (!collapsed && rx == NULL)
		return opengda_mlx5_cqe_write(entry, f, owner);
	/* Built aside (see above): also how an Ethernet receive's fields join the CQE before op_own. */
	if (opengda_mlx5_cqe_write(&img, f, owner) != 0)
		return -1;
	if (rx != NULL) {
		b[OPENGDA_MLX5_CQE_RX_RSS_HASH] = (uint8_t)(rx->rss_hash >> 24);
		b[OPENGDA_MLX5_CQE_RX_RSS_HASH + 1] = (uint8_t)(rx->rss_hash >> 16);
		b[OPENGDA_MLX5_CQE_RX_RSS_HASH + 2] = (uint8_t)(rx->rss_hash >> 8);
		b[OPENGDA_MLX5_CQE_RX_RSS_HASH + 3] = (uint8_t)rx->rss_hash;
		b[OPENGDA_MLX5_CQE_RX_HDS_IP_EXT] = rx->hds_ip_ext;
		b[OPENGDA_MLX5_CQE_RX_L4_L3_HDR_TYPE] = rx->l4_l3_hdr_type;
		b[OPENGDA_MLX5_CQE_RX_WQE_ID] = (uint8_t)(rx->wqe_id >> 8);
		b[OPENGDA_MLX5_CQE_RX_WQE_ID + 1] = (uint8_t)rx->wqe_id;
	}
	if (!collapsed) {
		/* A ring entry: published by its op_own byte alone, as opengda_mlx5_cqe_write does. */
		memcpy(entry, &img, 63);
		__atomic_store_n(&entry->op_own, img.op_own, __ATOMIC_RELEASE);
		return 0;
	}
	memcpy(entry, &img, 60);
	memcpy(&tail, (const uint8_t *)&img + 60, 4);
	__atomic_store_n((uint32_t *)(void *)((uint8_t *)entry + 60), tail, __ATOMIC_RELEASE);
	return 0;
}


/* Writes one CQE; the single place where CQ entries are produced. */
static doca_error_t cq_post_rx(struct swnic_cq *cq, struct opengda_mlx5_cqe_fields *f, const struct swnic_cqe_rx *rx)
{
	uint32_t produced, size, idx;
	bool fire = false, is_error;
	uint8_t *entry;

	if (!cq_valid(cq) || f == NULL) {
		OGDA_LOG_ERR("CQE post on an invalid CQ (cq %p)", (void *)cq);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* A caller may bring its own time stamp (Ethernet receives: the real-time clock format). */
	if (f->opcode != OPENGDA_MLX5_CQE_REQ_ERR && f->opcode != OPENGDA_MLX5_CQE_RESP_ERR && f->timestamp == 0)
		f->timestamp = swnic_now_ns();
	pthread_mutex_lock(&cq->lock);
	if (atomic_load_explicit(&cq->in_error, memory_order_relaxed)) {
		pthread_mutex_unlock(&cq->lock);
		OGDA_LOG_DBG("cq 0x%x in error: %s CQE for qpn 0x%x dropped", cq->cqn, cqe_opcode_name(f->opcode),
			     f->qpn);
		return DOCA_ERROR_FULL;
	}
	produced = atomic_load_explicit(&cq->produced, memory_order_relaxed);
	size = 1u << cq->log_size;
	if (!cq->overrun_ignore && !cq->collapsed && cq->dbr != NULL) {
		uint32_t set_ci = opengda_mlx5_be32toh(
			atomic_load_explicit(&cq->dbr[OPENGDA_MLX5_CQ_SET_CI], memory_order_acquire));
		uint32_t used = (produced - set_ci) & OPENGDA_MLX5_CQ_CI_MASK;

		if (used >= size) {
			atomic_store_explicit(&cq->in_error, true, memory_order_relaxed);
			pthread_mutex_unlock(&cq->lock);
			OGDA_LOG_ERR("cq 0x%x overrun: %u CQEs produced, consumer index %u, %u entries; CQ error "
				     "(async event CQ_ERROR), qpn 0x%x goes to ERR",
				     cq->cqn, produced, set_ci, size, f->qpn);
			swnic_event_raise(cq->nic, SWNIC_EVOBJ_CQ, cq->cqn, OGDA_DEVX_EVENT_CQ_ERROR, 0);
			return DOCA_ERROR_FULL;
		}
	}
	idx = cq->collapsed ? 0u : (produced & (size - 1u));
	entry = cq->ring + (size_t)idx * cq->cqe_size + (cq->cqe_size == 128u ? 64u : 0u);
	if (cqe_store(cq->collapsed, (struct opengda_mlx5_cqe64 *)entry, f,
		      opengda_mlx5_cqe_hw_owner(produced, cq->log_size), rx) != 0) {
		pthread_mutex_unlock(&cq->lock);
		OGDA_LOG_ERR("cq 0x%x: CQE fields out of range (opcode %u qpn 0x%x user_index 0x%x)", cq->cqn,
			     (unsigned)f->opcode, f->qpn, f->user_index);
		return DOCA_ERROR_INVALID_VALUE;
	}
	is_error = f->opcode == OPENGDA_MLX5_CQE_REQ_ERR || f->opcode == OPENGDA_MLX5_CQE_RESP_ERR;
	swnic_cq_arm_note_cqe(cq, produced, f->se != 0 || is_error);
	atomic_store_explicit(&cq->produced, produced + 1u, memory_order_release);
	if (atomic_load_explicit(&cq->comp_subs, memory_order_relaxed) != 0)
		fire = swnic_cq_arm_check_locked(cq, NULL);
	pthread_mutex_unlock(&cq->lock);
	if (fire)
		swnic_event_raise(cq->nic, SWNIC_EVOBJ_CQ, cq->cqn, OGDA_DEVX_EVENT_COMP, 0);
	OGDA_LOG_DBG("cq 0x%x cqe %u (entry %u): %s qpn 0x%x wqe_counter 0x%x wqe_opcode 0x%x byte_cnt %u "
		     "syndrome 0x%x/0x%x",
		     cq->cqn, produced, idx, cqe_opcode_name(f->opcode), f->qpn, (unsigned)f->wqe_counter,
		     (unsigned)f->wqe_opcode, f->byte_cnt, (unsigned)f->syndrome, (unsigned)f->vendor_syndrome);
	return DOCA_SUCCESS;
}

static doca_error_t cq_post(struct swnic_cq *cq, struct opengda_mlx5_cqe_fields *f)
{
	return cq_post_rx(cq, f, NULL);
}

doca_error_t swnic_cq_post_eth_rx(struct swnic_cq *cq, const struct opengda_mlx5_cqe_fields *f,
				  const struct swnic_cqe_rx *rx)
{
	struct opengda_mlx5_cqe_fields copy;

	if (f == NULL || rx == NULL || f->opcode == OPENGDA_MLX5_CQE_REQ_ERR || f->opcode == OPENGDA_MLX5_CQE_RESP_ERR ||
	    f->inline_len != 0) {
		OGDA_LOG_ERR("Ethernet receive CQE: a non-error, non-inline CQE and its receive fields are needed");
		return DOCA_ERROR_INVALID_VALUE;
	}
	copy = *f;
	return cq_post_rx(cq, &copy, rx);
}

doca_error_t swnic_cq_post_req(struct swnic_cq *cq, uint8_t wqe_opcode, uint32_t qpn, uint32_t user_index,
			       uint16_t wqe_counter, uint32_t byte_cnt)
{
	struct opengda_mlx5_cqe_fields f;

	memset(&f, 0, sizeof(f));
	f.opcode = OPENGDA_MLX5_CQE_REQ;
	f.wqe_opcode = wqe_opcode;
	f.qpn = qpn;
	f.user_index = user_index;
	f.wqe_counter = wqe_counter;
	f.byte_cnt = byte_cnt;
	return cq_post(cq, &f);
}

doca_error_t swnic_cq_post_error(struct swnic_cq *cq, uint8_t cqe_opcode, uint8_t syndrome, uint8_t vendor_syndrome,
				 uint8_t wqe_opcode, uint32_t qpn, uint32_t user_index, uint16_t wqe_counter)
{
	struct opengda_mlx5_cqe_fields f;

	if (cqe_opcode != OPENGDA_MLX5_CQE_REQ_ERR && cqe_opcode != OPENGDA_MLX5_CQE_RESP_ERR) {
		OGDA_LOG_ERR("error CQE opcode %u is neither REQ_ERR nor RESP_ERR", (unsigned)cqe_opcode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (syndrome == 0) {
		OGDA_LOG_ERR("error CQE without a syndrome (qpn 0x%x)", qpn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&f, 0, sizeof(f));
	f.opcode = cqe_opcode;
	f.syndrome = syndrome;
	f.vendor_syndrome = vendor_syndrome;
	f.wqe_opcode = wqe_opcode;
	f.qpn = qpn;
	f.user_index = user_index;
	f.wqe_counter = wqe_counter;
	return cq_post(cq, &f);
}

/* A responder CQE; @inline_len (0: none) payload bytes at @inline_data go into the CQE itself. */
static doca_error_t post_responder(struct swnic_cq *cq, uint8_t cqe_opcode, uint32_t qpn, uint32_t user_index_or_srqn,
				   uint16_t wqe_counter, uint32_t byte_cnt, uint32_t imm_be, bool solicited,
				   const uint8_t *inline_data, uint8_t inline_len)
{
	struct opengda_mlx5_cqe_fields f;

	if (cqe_opcode < OPENGDA_MLX5_CQE_RESP_WR_IMM || cqe_opcode > OPENGDA_MLX5_CQE_RESP_SEND_INV) {
		OGDA_LOG_ERR("responder CQE opcode %u outside RESP_WR_IMM..RESP_SEND_INV", (unsigned)cqe_opcode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&f, 0, sizeof(f));
	f.opcode = cqe_opcode;
	f.qpn = qpn;
	f.user_index = user_index_or_srqn;
	f.wqe_counter = wqe_counter;
	f.byte_cnt = byte_cnt;
	/* The CQE carries the immediate's bytes as they travelled; the writer stores host order big-endian. */
	f.imm = opengda_mlx5_be32toh(imm_be);
	f.se = solicited ? 1u : 0u;
	f.inline_data = inline_data;
	f.inline_len = inline_len;
	return cq_post(cq, &f);
}

doca_error_t swnic_cq_post_responder(struct swnic_cq *cq, uint8_t cqe_opcode, uint32_t qpn,
				     uint32_t user_index_or_srqn, uint16_t wqe_counter, uint32_t byte_cnt,
				     uint32_t imm_be, bool solicited)
{
	return post_responder(cq, cqe_opcode, qpn, user_index_or_srqn, wqe_counter, byte_cnt, imm_be, solicited, NULL,
			      0);
}

doca_error_t swnic_cq_post_responder_inline(struct swnic_cq *cq, uint8_t cqe_opcode, uint32_t qpn,
					    uint32_t user_index_or_srqn, uint16_t wqe_counter, const uint8_t *data,
					    uint32_t len, uint32_t imm_be, bool solicited)
{
	if (len == 0 || len > 32u || data == NULL) {
		OGDA_LOG_ERR("inline responder CQE: %u bytes at %p (1..32 bytes)", len, (const void *)data);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return post_responder(cq, cqe_opcode, qpn, user_index_or_srqn, wqe_counter, len, imm_be, solicited, data,
			      (uint8_t)len);
}

void swnic_sq_peek(const struct swnic_qp *qp, uint16_t index, uint8_t *opcode, uint16_t *wqebbs)
{
	struct opengda_mlx5_wqe_ctrl_seg ctrl;
	uint32_t slot = index & ((1u << qp->log_sq_wqebbs) - 1u);
	uint32_t n;

	memcpy(&ctrl, qp->sq + ((size_t)slot << OPENGDA_MLX5_SEND_WQE_SHIFT), sizeof(ctrl));
	*opcode = opengda_mlx5_ctrl_opcode(&ctrl);
	n = opengda_mlx5_wqebbs_from_ds(opengda_mlx5_ctrl_ds(&ctrl));
	*wqebbs = (uint16_t)(n == 0u ? 1u : n);
}

uint16_t swnic_sq_flush(struct swnic_qp *qp, uint16_t ci, uint16_t target, uint32_t *count)
{
	uint32_t n = 0;

	while (ci != target) {
		uint16_t left = (uint16_t)(target - ci), wqebbs;
		uint8_t opcode;

		swnic_sq_peek(qp, ci, &opcode, &wqebbs);
		if (wqebbs > left)
			wqebbs = left; /* a DS beyond what was rung: flush up to the target only */
		/*
		 * Counted before its CQE is seen, so whoever polls the CQE reads counters that include it.
		 * A CQ in error takes no more CQEs; the WQE is retired silently then.
		 */
		atomic_fetch_add_explicit(&qp->counters.wqes, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&qp->counters.errors, 1, memory_order_relaxed);
		(void)swnic_cq_post_error(qp->send_cq, OPENGDA_MLX5_CQE_REQ_ERR,
					  OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR, SWNIC_VSYND_FLUSH, opcode, qp->qpn,
					  qp->user_index, ci);
		ci = (uint16_t)(ci + wqebbs);
		n++;
	}
	if (count != NULL)
		*count = n;
	return ci;
}
