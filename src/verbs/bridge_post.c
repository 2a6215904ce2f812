/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU data path, posting side: ibv_send_wr / ibv_recv_wr lists become mlx5 WQEs in the
 * QP's rings (include/opengda_mlx5.h encoders), then one doorbell per list, as libmlx5
 * rings it: WQE stores, release barrier, doorbell record, the first 8 bytes of the last
 * WQE's ctrl segment to the BlueFlame register (alternating halves). DBR-less QPs skip the
 * doorbell record and ring the page's DBR-less register instead.
 *
 * Book-keeping for the poller (bridge_poll.c), per WQEBB index of a WQE's first WQEBB:
 * sq_wrid (wr_id), sq_wqe_opcode (ibv_wc_opcode), sq_wqe_len (byte_len of READ / atomics).
 * One thread at a time per queue: the caller serialises, as with ibv_post_send.
 */
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"

#include "core/log.h"
#include "doca_verbs_bridge.h"
#include "opengda_mlx5.h"
#include "sdk/sdk_forward.h"

#include <errno.h>
#include <string.h>

#define KNOWN_SEND_FLAGS (IBV_SEND_SIGNALED | IBV_SEND_INLINE | IBV_SEND_FENCE | IBV_SEND_SOLICITED)

/* What one send work request becomes, decided before anything is written. */
struct send_plan {
	uint8_t opcode;    /* enum opengda_mlx5_opcode */
	uint8_t wc_opcode; /* enum ibv_wc_opcode reported at completion */
	bool raddr;        /* a remote address segment follows ctrl */
	bool atomic;
	bool inl;          /* payload copied into the WQE */
	uint32_t nsge;     /* pointer segments (non-empty SGEs) */
	uint32_t len;      /* total payload bytes */
	uint32_t ds;       /* WQE size in 16-byte units */
	uint8_t fm_ce_se;
	uint32_t imm;      /* host order */
};

static bool qp_dbr_less(const struct doca_verbs_qp *qp)
{
	/* Emulated DBR-less QPs have a real doorbell record that the data path keeps current. */
	return qp->init.send_dbr_mode == DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT && !qp->init.emulate_no_dbr_ext;
}

static uint32_t log2_u32(uint32_t pow2)
{
	uint32_t l = 0;

	while ((1u << l) < pow2)
		l++;
	return l;
}

/* Opcode mapping and per-opcode rules. False (logged) for an opcode the bridge does not post. */
static bool plan_opcode(const struct ibv_send_wr *wr, struct send_plan *p)
{
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
		p->opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
		p->wc_opcode = IBV_WC_RDMA_WRITE;
		p->raddr = true;
		return true;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		p->opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE_IMM;
		p->wc_opcode = IBV_WC_RDMA_WRITE;
		p->raddr = true;
		p->imm = opengda_mlx5_be32toh(wr->imm_data);
		return true;
	case IBV_WR_SEND:
		p->opcode = OPENGDA_MLX5_OPCODE_SEND;
		p->wc_opcode = IBV_WC_SEND;
		return true;
	case IBV_WR_SEND_WITH_IMM:
		p->opcode = OPENGDA_MLX5_OPCODE_SEND_IMM;
		p->wc_opcode = IBV_WC_SEND;
		p->imm = opengda_mlx5_be32toh(wr->imm_data);
		return true;
	case IBV_WR_RDMA_READ:
		p->opcode = OPENGDA_MLX5_OPCODE_RDMA_READ;
		p->wc_opcode = IBV_WC_RDMA_READ;
		p->raddr = true;
		return true;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		p->opcode = OPENGDA_MLX5_OPCODE_ATOMIC_CS;
		p->wc_opcode = IBV_WC_COMP_SWAP;
		p->raddr = true;
		p->atomic = true;
		return true;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		p->opcode = OPENGDA_MLX5_OPCODE_ATOMIC_FA;
		p->wc_opcode = IBV_WC_FETCH_ADD;
		p->raddr = true;
		p->atomic = true;
		return true;
	default:
		OGDA_LOG_ERR("bridge_post_send: opcode %d is not supported", (int)wr->opcode);
		return false;
	}
}

/* Checks one request against the QP and sizes its WQE. False (logged) when it cannot be posted. */
static bool plan_send(const struct doca_verbs_qp *qp, const struct ibv_send_wr *wr, struct send_plan *p)
{
	uint64_t total = 0;
	int i;

	memset(p, 0, sizeof(*p));
	if (!plan_opcode(wr, p))
		return false;
	if ((wr->send_flags & ~(unsigned int)KNOWN_SEND_FLAGS) != 0) {
		OGDA_LOG_ERR("bridge_post_send: unknown send_flags 0x%x", wr->send_flags & ~(unsigned int)KNOWN_SEND_FLAGS);
		return false;
	}
	if (wr->num_sge < 0 || (wr->num_sge > 0 && wr->sg_list == NULL)) {
		OGDA_LOG_ERR("bridge_post_send: num_sge %d with sg_list %p", wr->num_sge, (void *)wr->sg_list);
		return false;
	}
	for (i = 0; i < wr->num_sge; i++) {
		if ((wr->sg_list[i].length & OPENGDA_MLX5_INLINE_SEG) != 0) {
			OGDA_LOG_ERR("bridge_post_send: SGE %d length 0x%x does not fit 31 bits", i, wr->sg_list[i].length);
			return false;
		}
		total += wr->sg_list[i].length;
		if (wr->sg_list[i].length != 0)
			p->nsge++;
	}
	if (total > 0x7fffffffu) {
		OGDA_LOG_ERR("bridge_post_send: %llu bytes in one request", (unsigned long long)total);
		return false;
	}
	p->len = (uint32_t)total;
	if (p->atomic) {
		if (wr->num_sge != 1 || wr->sg_list[0].length != OPENGDA_MLX5_ATOMIC_SIZE) {
			OGDA_LOG_ERR("bridge_post_send: an atomic needs one SGE of %u bytes", OPENGDA_MLX5_ATOMIC_SIZE);
			return false;
		}
		p->ds = 4; /* ctrl + raddr + atomic + result */
	} else if ((wr->send_flags & IBV_SEND_INLINE) != 0 && wr->opcode != IBV_WR_RDMA_READ) {
		if (p->len > qp->init.max_inline_data || p->len > OPENGDA_MLX5_INLINE_MAX_LEN) {
			OGDA_LOG_ERR("bridge_post_send: %u inline bytes, the QP takes at most %u", p->len,
				     qp->init.max_inline_data);
			return false;
		}
		p->inl = true;
		p->ds = 1u + (p->raddr ? 1u : 0u) + opengda_mlx5_inline_ds(p->len);
	} else {
		if ((uint32_t)wr->num_sge > qp->init.send_max_sges) {
			OGDA_LOG_ERR("bridge_post_send: %d SGEs, the QP takes at most %u", wr->num_sge,
				     qp->init.send_max_sges);
			return false;
		}
		p->ds = 1u + (p->raddr ? 1u : 0u) + p->nsge;
	}
	if (p->ds > OPENGDA_MLX5_WQE_MAX_DS || opengda_mlx5_wqebbs_from_ds(p->ds) > qp->sq_wqebbs) {
		OGDA_LOG_ERR("bridge_post_send: a WQE of %u octowords does not fit the send queue", p->ds);
		return false;
	}
	p->fm_ce_se = (uint8_t)((((wr->send_flags & IBV_SEND_SIGNALED) != 0 || qp->init.sq_sig_all)
					 ? OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE : 0u) |
				((wr->send_flags & IBV_SEND_FENCE) != 0 ? OPENGDA_MLX5_WQE_CTRL_FM_SMALL_AND_FENCE : 0u) |
				((wr->send_flags & IBV_SEND_SOLICITED) != 0 ? OPENGDA_MLX5_WQE_CTRL_SOLICITED : 0u));
	return true;
}

/* Pointer segments from segment slot seg of the WQE on, skipping empty SGEs (as libmlx5). */
static void write_sges(const struct opengda_mlx5_sq *sq, uint16_t idx, uint32_t seg, const struct ibv_sge *sg,
		       int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (sg[i].length == 0)
			continue;
		(void)opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)opengda_mlx5_sq_seg(sq, idx, seg++),
						  sg[i].length, sg[i].lkey, sg[i].addr);
	}
}

/* Inline payload at segment slot seg: the SGEs gathered, then written wrapping at the ring end. */
static void write_inline(const struct opengda_mlx5_sq *sq, uint16_t idx, uint32_t seg, const struct ibv_send_wr *wr,
			 uint32_t len)
{
	uint8_t buf[OPENGDA_MLX5_INLINE_MAX_LEN];
	uint32_t off = 0, seg_off;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		/* An empty SGE may carry address 0: nothing to copy, and memcpy must not see it. */
		if (wr->sg_list[i].length == 0)
			continue;
		memcpy(buf + off, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
		off += wr->sg_list[i].length;
	}
	seg_off = (uint32_t)((uint8_t *)opengda_mlx5_sq_seg(sq, idx, seg) - (uint8_t *)sq->ring);
	(void)opengda_mlx5_inline_seg_write_ring(sq->ring, opengda_mlx5_sq_bytes(sq), seg_off, buf, len);
}

/* Writes the planned WQE at producer index idx; returns its ctrl segment. */
static struct opengda_mlx5_wqe_ctrl_seg *write_wqe(const struct opengda_mlx5_sq *sq, uint16_t idx,
						   const struct ibv_send_wr *wr, const struct send_plan *p)
{
	struct opengda_mlx5_wqe_ctrl_seg *ctrl = opengda_mlx5_sq_seg(sq, idx, 0);
	const struct ibv_sge *sg = wr->sg_list;

	if (p->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_CS) {
		(void)opengda_mlx5_wqe_atomic_cs(sq, idx, p->fm_ce_se, wr->wr.atomic.remote_addr, wr->wr.atomic.rkey,
						 wr->wr.atomic.compare_add, wr->wr.atomic.swap, sg[0].addr, sg[0].lkey);
		return ctrl;
	}
	if (p->opcode == OPENGDA_MLX5_OPCODE_ATOMIC_FA) {
		(void)opengda_mlx5_wqe_atomic_fa(sq, idx, p->fm_ce_se, wr->wr.atomic.remote_addr, wr->wr.atomic.rkey,
						 wr->wr.atomic.compare_add, sg[0].addr, sg[0].lkey);
		return ctrl;
	}
	(void)opengda_mlx5_ctrl_seg_write(ctrl, 0, idx, p->opcode, sq->qpn, (uint8_t)p->ds, p->fm_ce_se, p->imm);
	if (p->raddr)
		opengda_mlx5_raddr_seg_write((struct opengda_mlx5_wqe_raddr_seg *)opengda_mlx5_sq_seg(sq, idx, 1),
					     wr->wr.rdma.remote_addr, wr->wr.rdma.rkey);
	if (p->inl)
		write_inline(sq, idx, p->raddr ? 2u : 1u, wr, p->len);
	else
		write_sges(sq, idx, p->raddr ? 2u : 1u, sg, wr->num_sge);
	return ctrl;
}

/*
 * Rings the send doorbell for everything posted up to sq_pi; ctrl is the last WQE's.
 * Order: WQE stores, doorbell record (valid-DBR mode), then the 8-byte register store,
 * fenced on both sides so that write-combining UAR mappings are flushed too.
 */
static void ring_send_doorbell(struct doca_verbs_qp *qp, const struct opengda_mlx5_wqe_ctrl_seg *ctrl)
{
	uint64_t db = opengda_mlx5_qp_uar_db_from_ctrl(ctrl);
	uint8_t *reg;

	if (qp_dbr_less(qp)) {
		reg = (uint8_t *)qp->uar->info.base_addr + OPENGDA_MLX5_UAR_DBR_LESS_OFFSET;
	} else {
		__atomic_store_n(&qp->dbr[OPENGDA_MLX5_SND_DBR], opengda_mlx5_qp_dbr_value(qp->sq_pi),
				 __ATOMIC_RELEASE);
		reg = (uint8_t *)qp->uar->info.reg_addr + qp->bf_offset;
		if (qp->uar->info.bf_reg_size >= 2)
			qp->bf_offset ^= qp->uar->info.bf_reg_size / 2;
	}
	VERBS_MMIO_FENCE();
	__atomic_store_n((uint64_t *)(void *)reg, db, __ATOMIC_RELEASE);
	VERBS_MMIO_FENCE();
}

/* Rings and doorbell records in user UMEMs may be GPU memory, out of the CPU's reach. */
static bool queue_memory_on_host(const struct doca_verbs_qp *qp, const void *ring, size_t ring_bytes,
				 const char *who)
{
	if ((qp->init.umem != NULL && !verbs_cpu_accessible(ring, ring_bytes)) ||
	    (qp->init.dbr_umem != NULL && qp->dbr != NULL && !verbs_cpu_accessible(qp->dbr, 8))) {
		OGDA_LOG_ERR("%s: QP 0x%x has its queue or doorbell record in GPU memory: use the GPU data path",
			     who, qp->qpn);
		return false;
	}
	return true;
}

static bool send_queue_usable(const struct doca_verbs_qp *qp)
{
	if (qp->sq == NULL || qp->sq_wqebbs == 0 || qp->uar == NULL || qp->sq_wrid == NULL ||
	    qp->sq_wqe_opcode == NULL || qp->sq_wqe_len == NULL || (!qp_dbr_less(qp) && qp->dbr == NULL)) {
		OGDA_LOG_ERR("bridge_post_send: QP 0x%x has no send queue", qp->qpn);
		return false;
	}
	if (!queue_memory_on_host(qp, qp->sq, (size_t)qp->sq_wqebbs * OPENGDA_MLX5_SEND_WQE_BB, "bridge_post_send"))
		return false;
	if (qp->state != DOCA_VERBS_QP_STATE_INIT && qp->state != DOCA_VERBS_QP_STATE_RTR &&
	    qp->state != DOCA_VERBS_QP_STATE_RTS) {
		OGDA_LOG_ERR("bridge_post_send: QP 0x%x is in state %d (INIT, RTR or RTS needed)", qp->qpn,
			     (int)qp->state);
		return false;
	}
	return true;
}

int doca_verbs_bridge_post_send(struct doca_verbs_qp *verbs_qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_post_send, (verbs_qp, wr, bad_wr));
	struct opengda_mlx5_wqe_ctrl_seg *last = NULL;
	struct opengda_mlx5_sq sq;
	struct send_plan p;
	uint32_t mask;
	int err = 0;

	if (verbs_qp == NULL || wr == NULL || bad_wr == NULL) {
		OGDA_LOG_ERR("bridge_post_send: NULL %s", verbs_qp == NULL ? "QP" : wr == NULL ? "request" : "bad_wr");
		if (bad_wr != NULL)
			*bad_wr = wr;
		return EINVAL;
	}
	if (!send_queue_usable(verbs_qp)) {
		*bad_wr = wr;
		return EINVAL;
	}
	sq.ring = verbs_qp->sq;
	sq.log_wqebbs = log2_u32(verbs_qp->sq_wqebbs);
	sq.qpn = verbs_qp->qpn;
	mask = verbs_qp->sq_wqebbs - 1;
	for (; wr != NULL; wr = wr->next) {
		uint16_t idx = verbs_qp->sq_pi;
		uint16_t ci = __atomic_load_n(&verbs_qp->sq_ci, __ATOMIC_ACQUIRE); /* the poller moves it */
		uint32_t wqebbs, used = (uint16_t)(idx - ci);

		if (!plan_send(verbs_qp, wr, &p)) {
			err = EINVAL;
			break;
		}
		wqebbs = opengda_mlx5_wqebbs_from_ds(p.ds);
		if (used + wqebbs > verbs_qp->sq_wqebbs) {
			OGDA_LOG_ERR("bridge_post_send: QP 0x%x send queue full (%u of %u WQEBBs in use)", verbs_qp->qpn,
				     used, verbs_qp->sq_wqebbs);
			err = ENOMEM;
			break;
		}
		last = write_wqe(&sq, idx, wr, &p);
		verbs_qp->sq_wrid[idx & mask] = wr->wr_id;
		verbs_qp->sq_wqe_opcode[idx & mask] = p.wc_opcode;
		verbs_qp->sq_wqe_len[idx & mask] = p.atomic ? OPENGDA_MLX5_ATOMIC_SIZE
					       : p.opcode == OPENGDA_MLX5_OPCODE_RDMA_READ ? p.len : 0;
		verbs_qp->sq_pi = (uint16_t)(idx + wqebbs);
	}
	if (err != 0)
		*bad_wr = wr;
	/* What was posted before a refused request is rung, as libmlx5 does. */
	if (last != NULL)
		ring_send_doorbell(verbs_qp, last);
	return err;
}

/* ---- receive ---- */

static bool recv_queue_usable(const struct doca_verbs_qp *qp)
{
	if (qp->init.srq != NULL) {
		OGDA_LOG_ERR("bridge_post_recv: QP 0x%x receives from an SRQ: post to the SRQ's ring", qp->qpn);
		return false;
	}
	if (qp->rq == NULL || qp->rq_wqes == 0 || qp->rq_stride < sizeof(struct opengda_mlx5_wqe_data_seg) ||
	    qp->rq_wrid == NULL || qp->dbr == NULL) {
		OGDA_LOG_ERR("bridge_post_recv: QP 0x%x has no receive queue", qp->qpn);
		return false;
	}
	if (!queue_memory_on_host(qp, qp->rq, (size_t)qp->rq_wqes * qp->rq_stride, "bridge_post_recv"))
		return false;
	if (qp->state == DOCA_VERBS_QP_STATE_RST) {
		OGDA_LOG_ERR("bridge_post_recv: QP 0x%x is in RST", qp->qpn);
		return false;
	}
	return true;
}

static bool recv_wr_ok(const struct doca_verbs_qp *qp, const struct ibv_recv_wr *wr)
{
	uint32_t slots = qp->rq_stride / sizeof(struct opengda_mlx5_wqe_data_seg);
	int i;

	if (wr->num_sge < 0 || (wr->num_sge > 0 && wr->sg_list == NULL) ||
	    (uint32_t)wr->num_sge > qp->init.receive_max_sges || (uint32_t)wr->num_sge > slots) {
		OGDA_LOG_ERR("bridge_post_recv: %d SGEs, the QP takes at most %u", wr->num_sge,
			     qp->init.receive_max_sges < slots ? qp->init.receive_max_sges : slots);
		return false;
	}
	for (i = 0; i < wr->num_sge; i++) {
		if ((wr->sg_list[i].length & OPENGDA_MLX5_INLINE_SEG) != 0) {
			OGDA_LOG_ERR("bridge_post_recv: SGE %d length 0x%x does not fit 31 bits", i, wr->sg_list[i].length);
			return false;
		}
	}
	return true;
}

/* One receive WQE: the non-empty SGEs, then the invalid-lkey terminator when slots remain. */
static void write_recv_wqe(uint8_t *wqe, uint32_t stride, const struct ibv_recv_wr *wr)
{
	struct opengda_mlx5_wqe_data_seg *seg = (struct opengda_mlx5_wqe_data_seg *)(void *)wqe;
	uint32_t slots = stride / sizeof(*seg), n = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length == 0)
			continue;
		(void)opengda_mlx5_data_seg_write(&seg[n++], wr->sg_list[i].length, wr->sg_list[i].lkey,
						  wr->sg_list[i].addr);
	}
	if (n < slots)
		(void)opengda_mlx5_data_seg_write(&seg[n], 0, OPENGDA_MLX5_INVALID_LKEY, 0);
}

int doca_verbs_bridge_post_recv(struct doca_verbs_qp *verbs_qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	OGDA_SDK_FORWARD(doca_verbs_bridge_post_recv, (verbs_qp, wr, bad_wr));
	uint32_t mask, posted = 0;
	int err = 0;

	if (verbs_qp == NULL || wr == NULL || bad_wr == NULL) {
		OGDA_LOG_ERR("bridge_post_recv: NULL %s", verbs_qp == NULL ? "QP" : wr == NULL ? "request" : "bad_wr");
		if (bad_wr != NULL)
			*bad_wr = wr;
		return EINVAL;
	}
	if (!recv_queue_usable(verbs_qp)) {
		*bad_wr = wr;
		return EINVAL;
	}
	mask = verbs_qp->rq_wqes - 1;
	for (; wr != NULL; wr = wr->next) {
		if (!recv_wr_ok(verbs_qp, wr)) {
			err = EINVAL;
			break;
		}
		if (verbs_qp->rq_pi - __atomic_load_n(&verbs_qp->rq_ci, __ATOMIC_ACQUIRE) >= verbs_qp->rq_wqes) {
			OGDA_LOG_ERR("bridge_post_recv: QP 0x%x receive queue full (%u WQEs)", verbs_qp->qpn,
				     verbs_qp->rq_wqes);
			err = ENOMEM;
			break;
		}
		write_recv_wqe(verbs_qp->rq + (size_t)(verbs_qp->rq_pi & mask) * verbs_qp->rq_stride, verbs_qp->rq_stride,
			       wr);
		verbs_qp->rq_wrid[verbs_qp->rq_pi & mask] = wr->wr_id;
		verbs_qp->rq_pi++;
		posted++;
	}
	if (err != 0)
		*bad_wr = wr;
	if (posted != 0)
		__atomic_store_n(&verbs_qp->dbr[OPENGDA_MLX5_RCV_DBR], opengda_mlx5_qp_dbr_value(verbs_qp->rq_pi),
				 __ATOMIC_RELEASE);
	return err;
}
