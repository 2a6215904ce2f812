/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet receive queues of the software NIC: one received frame into the next receive WQE of
 * an RQ (CREATE_RQ), and its CQE.
 *
 * The WQEs are those of every receive queue here (swnic_recv_wqe.h): data segments, one cyclic
 * entry per frame, consumed in ring order while the doorbell record's producer counter is ahead.
 * What a ConnectX does with a frame it cannot place, the model does too: no WQE posted → the
 * frame is dropped and counted (the out_of_buffer counter of mlx5); a frame larger than the
 * WQE's buffers → dropped and counted, the WQE stays posted; an lkey the WQE may not use → a
 * RESP_ERR CQE (LOCAL_PROT) and the RQ enters ERR, after which frames are dropped.
 *
 * The CQE: opcode RESP_SEND, byte_cnt = frame length, wqe_counter = the consumer count of the
 * WQE, sop_drop_qpn [23:0] = the steering entry's flow_tag, srqn_uidx = the RQ's user_index,
 * hds_ip_ext = L2/L3/L4 OK, l4_l3_hdr_type = the header types, the RSS hash of the TIR, and the
 * time stamp (CLOCK_REALTIME as sec << 32 | nsec, the NIC clock's format here).
 *
 * A striding RQ (wq_type CYCLIC_STRIDING; WQE = 16-byte next segment + data segment naming
 * 2^log_strides strides) takes several frames per WQE: see receive_striding().
 */
#include "swnic/swnic_steer.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_recv_wqe.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint8_t l4_l3_hdr_type(const struct swnic_pkt_info *pi)
{
	uint8_t l3 = 0, l4 = 0;

	if (pi->l3 == SWNIC_PKT_L3_IPV4)
		l3 = OPENGDA_MLX5_CQE_RX_L3_IPV4;
	else if (pi->l3 == SWNIC_PKT_L3_IPV6)
		l3 = OPENGDA_MLX5_CQE_RX_L3_IPV6;
	if (pi->l4 == SWNIC_PKT_L4_UDP)
		l4 = OPENGDA_MLX5_CQE_RX_L4_UDP;
	else if (pi->l4 == SWNIC_PKT_L4_TCP)
		l4 = (pi->tcp_flags & 0x10u) ? OPENGDA_MLX5_CQE_RX_L4_TCP_ACK_DATA : OPENGDA_MLX5_CQE_RX_L4_TCP;
	return (uint8_t)(l4 << 4 | l3 << 2);
}

static uint8_t hds_ip_ext(const struct swnic_pkt_info *pi)
{
	return (uint8_t)((pi->l2_ok ? OPENGDA_MLX5_CQE_RX_L2_OK : 0u) | (pi->l3_ok ? OPENGDA_MLX5_CQE_RX_L3_OK : 0u) |
			 (pi->l4_ok ? OPENGDA_MLX5_CQE_RX_L4_OK : 0u));
}

/* The NIC clock in the real-time format: seconds << 32 | nanoseconds (what the SDK converts). */
static uint64_t realtime_stamp(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec << 32 | (uint64_t)ts.tv_nsec;
}

static void rq_to_error(struct swnic_eth_rq *rq, uint8_t syndrome)
{
	atomic_store(&rq->state, PRM_RQ_STATE_ERR);
	OGDA_LOG_ERR("%s: RQ 0x%x enters ERR (syndrome 0x%x): later frames are dropped", rq->nic->name, rq->rqn,
		     (unsigned)syndrome);
}

/* The receive CQE: counter = wqe_counter, bc = byte_cnt word, wqe_id (striding RQs; else 0). */
static bool complete(struct swnic_eth_rq *rq, uint16_t counter, uint32_t bc, uint16_t wqe_id,
		     const struct swnic_rx_meta *m)
{
	struct opengda_mlx5_cqe_fields f;
	struct swnic_cqe_rx rx;
	doca_error_t err;

	memset(&f, 0, sizeof(f));
	memset(&rx, 0, sizeof(rx));
	f.opcode = OPENGDA_MLX5_CQE_RESP_SEND;
	f.qpn = m != NULL ? m->flow_tag & OPENGDA_MLX5_QPN_MASK : 0;
	f.user_index = rq->user_index;
	f.wqe_counter = counter;
	f.byte_cnt = bc;
	f.timestamp = realtime_stamp();
	if (m != NULL) {
		rx.hds_ip_ext = hds_ip_ext(m->pi);
		rx.l4_l3_hdr_type = l4_l3_hdr_type(m->pi);
		rx.rss_hash = m->rss_hash;
	}
	rx.wqe_id = wqe_id;
	err = swnic_cq_post_eth_rx(rq->cq, &f, &rx);
	if (err != DOCA_SUCCESS) {
		/* The CQ overran (or is in error): the completion is lost, the RQ stops as a NIC's does. */
		rq_to_error(rq, 0);
		return false;
	}
	return true;
}

/*
 * The taken WQE's scatter list and holds: about 21 KiB, kept per thread (the port's receive thread
 * places every frame) instead of on its stack or allocated per frame. Freed when the thread ends.
 */
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_key_make(void)
{
	(void)pthread_key_create(&scratch_key, free);
}

static struct swnic_recv_wqe *scratch_wqe(void)
{
	struct swnic_recv_wqe *w;

	(void)pthread_once(&scratch_once, scratch_key_make);
	w = pthread_getspecific(scratch_key);
	if (w == NULL) {
		w = malloc(sizeof(*w));
		if (w != NULL && pthread_setspecific(scratch_key, w) != 0) {
			free(w);
			w = NULL;
		}
	}
	return w;
}

/* A peek that found no WQE (counted) or a broken ring (the RQ enters ERR): false; true for a WQE. */
static bool peek_ok(struct swnic_eth_rq *rq, enum swnic_rq_take_result taken)
{
	if (taken == SWNIC_RQ_TAKE_EMPTY)
		atomic_fetch_add(&rq->out_of_buffer, 1);
	else if (taken == SWNIC_RQ_TAKE_BROKEN)
		rq_to_error(rq, 0);
	return taken == SWNIC_RQ_TAKE_OK;
}

/*
 * Places len bytes along w's (held, then released) scatter list; an lkey it may not use (vendor
 * syndrome vsynd, or found here) writes a RESP_ERR CQE with wqe_counter counter and the RQ enters
 * ERR. true when placed.
 */
static bool place(struct swnic_eth_rq *rq, struct swnic_recv_wqe *w, uint8_t vsynd, const uint8_t *frame, uint32_t len,
		  uint16_t counter)
{
	if (vsynd == 0)
		vsynd = swnic_recv_hold(rq->nic, rq->pd, w, len, rq->rqn);
	if (vsynd == 0 && !swnic_recv_scatter(w, frame, len))
		vsynd = SWNIC_VSYND_LOCAL_COPY;
	swnic_recv_release(w);
	if (vsynd == 0)
		return true;
	(void)swnic_cq_post_error(rq->cq, OPENGDA_MLX5_CQE_RESP_ERR, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, vsynd, 0,
				  rq->rqn, rq->user_index, counter);
	rq_to_error(rq, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	return false;
}

/*
 * Narrows w's scatter list to [off, off + len) of its buffer: where a frame goes in a striding
 * WQE. false if the WQE's buffers end before it.
 */
static bool scatter_window(struct swnic_recv_wqe *w, uint64_t off, uint32_t len)
{
	uint32_t i, o = 0;

	for (i = 0; i < w->nsge && off >= w->sge[i].len; i++)
		off -= w->sge[i].len;
	if (i == w->nsge || w->capacity < off + len)
		return false;
	for (; i < w->nsge; i++, o++) {
		w->sge[o] = w->sge[i];
		if (off != 0) {
			w->sge[o].addr += off;
			w->sge[o].len -= (uint32_t)off;
			off = 0;
		}
	}
	w->nsge = o;
	return true;
}

/* Gives the current striding WQE back to the ring's consumer side: the next frame opens the next. */
static void stride_wqe_done(struct swnic_eth_rq *rq, const struct swnic_recv_wqe *w)
{
	swnic_rq_consume(&rq->rq, false, w);
	rq->stride_ci = 0;
}

/*
 * A frame into a striding RQ (caller holds rq->rq.lock), as a ConnectX places it: the next
 * ceil(len / stride) strides of the current WQE; when they are not left, a filler CQE (its
 * strides, no packet) closes the WQE and the frame opens the next one. A frame larger than a
 * whole WQE is dropped and counted (too_long); no WQE posted: dropped and counted
 * (out_of_buffer). The CQE: wqe_id = the WQE's counter, wqe_counter = the first stride,
 * byte_cnt = strides consumed << 16 | length.
 */
static bool receive_striding(struct swnic_eth_rq *rq, struct swnic_recv_wqe *w, const uint8_t *frame, uint32_t len,
			     const struct swnic_rx_meta *m)
{
	uint32_t strides = 1u << rq->log_strides, shift = rq->two_byte_shift ? 2u : 0u;
	uint32_t need = (uint32_t)(((uint64_t)len + shift + (1u << rq->log_stride_sz) - 1u) >> rq->log_stride_sz);
	enum swnic_rq_take_result taken;
	uint64_t off;
	uint16_t wqe_id;

	if (need == 0)
		need = 1;
	if (need > strides || len > OPENGDA_MLX5_CQE_MPRQ_BYTES_MASK) {
		atomic_fetch_add(&rq->too_long, 1);
		OGDA_LOG_DBG("%s: RQ 0x%x: a %u-byte frame needs %u strides, a WQE has %u: dropped", rq->nic->name,
			     rq->rqn, len, need, strides);
		return false;
	}
	taken = swnic_rq_peek(&rq->rq, false, w);
	if (taken == SWNIC_RQ_TAKE_OK && rq->stride_ci + need > strides) {
		uint32_t rest = strides - rq->stride_ci;

		/* the rest of this WQE cannot hold the frame: a filler CQE skips it */
		if (!complete(rq, (uint16_t)rq->stride_ci,
			      OPENGDA_MLX5_CQE_MPRQ_FILLER | rest << OPENGDA_MLX5_CQE_MPRQ_STRIDES_SHIFT, w->counter, NULL))
			return false;
		atomic_fetch_add(&rq->fillers, 1);
		stride_wqe_done(rq, w);
		taken = swnic_rq_peek(&rq->rq, false, w);
	}
	if (!peek_ok(rq, taken))
		return false;
	wqe_id = w->counter;
	off = ((uint64_t)rq->stride_ci << rq->log_stride_sz) + shift;
	if (!place(rq, w, scatter_window(w, off, len) ? 0 : SWNIC_VSYND_LKEY_RANGE, frame, len, (uint16_t)rq->stride_ci))
		return false;
	if (!complete(rq, (uint16_t)rq->stride_ci, need << OPENGDA_MLX5_CQE_MPRQ_STRIDES_SHIFT | len, wqe_id, m))
		return false;
	rq->stride_ci += need;
	if (rq->stride_ci == strides)
		stride_wqe_done(rq, w);
	atomic_fetch_add(&rq->packets, 1);
	atomic_fetch_add(&rq->bytes, len);
	return true;
}

bool swnic_eth_rq_receive(struct swnic_eth_rq *rq, const uint8_t *frame, uint32_t len, const struct swnic_rx_meta *m)
{
	struct swnic_recv_wqe *w;
	enum swnic_rq_take_result taken;
	bool ok = false;

	if (atomic_load(&rq->state) != PRM_RQ_STATE_RDY) {
		atomic_fetch_add(&rq->out_of_buffer, 1);
		return false;
	}
	w = scratch_wqe();
	if (w == NULL) {
		atomic_fetch_add(&rq->out_of_buffer, 1);
		return false;
	}
	pthread_mutex_lock(&rq->rq.lock);
	if (rq->striding) {
		ok = receive_striding(rq, w, frame, len, m);
		goto out;
	}
	taken = swnic_rq_peek(&rq->rq, false, w); /* taken only once the frame fits it */
	if (!peek_ok(rq, taken))
		goto out;
	if (w->capacity < len) {
		/* not taken: the WQE stays posted for the next frame */
		atomic_fetch_add(&rq->too_long, 1);
		OGDA_LOG_DBG("%s: RQ 0x%x: a %u-byte frame does not fit a %llu-byte WQE: dropped", rq->nic->name,
			     rq->rqn, len, (unsigned long long)w->capacity);
		goto out;
	}
	swnic_rq_consume(&rq->rq, false, w);
	if (!place(rq, w, 0, frame, len, w->counter))
		goto out;
	ok = complete(rq, w->counter, len, 0, m);
	if (ok) {
		atomic_fetch_add(&rq->packets, 1);
		atomic_fetch_add(&rq->bytes, len);
	}
out:
	pthread_mutex_unlock(&rq->rq.lock);
	return ok;
}
