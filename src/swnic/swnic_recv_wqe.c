/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive WQEs: taking one from a receive queue and placing bytes in it (swnic_recv_wqe.h). */
#include "swnic/swnic_recv_wqe.h"

#include "core/bytes.h"
#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_rmp.h"
#include "swnic/swnic_engine.h"

#include <string.h>

/* Takes the next receive WQE of rq (caller holds its lock) and copies its scatter list. */
enum swnic_rq_take_result swnic_rq_peek(const struct swnic_rq *rq, bool linked_list, struct swnic_recv_wqe *w)
{
	uint32_t entries, stride, idx, off;
	uint16_t producer;
	const uint8_t *e;

	w->nsge = 0;
	w->capacity = 0;
	w->counter = 0;
	if (rq->ring == NULL || rq->dbr == NULL || rq->log_stride > SWNIC_RECV_MAX_LOG_STRIDE || rq->log_size > 16)
		return SWNIC_RQ_TAKE_BROKEN;
	producer = (uint16_t)opengda_mlx5_be32toh(atomic_load_explicit(&rq->dbr[OPENGDA_MLX5_RCV_DBR],
								       memory_order_acquire));
	if (producer == (uint16_t)rq->ci)
		return SWNIC_RQ_TAKE_EMPTY;

	entries = 1u << rq->log_size;
	stride = SWNIC_RECV_SEG_SIZE << rq->log_stride;
	idx = (linked_list ? rq->head : rq->ci) & (entries - 1u);
	e = rq->ring + (size_t)idx * stride;

	/* A linked-list WQE and a striding RQ's WQE start with a 16-byte next segment. */
	off = linked_list || rq->wq_type == PRM_WQ_TYPE_CYCLIC_STRIDING ? SWNIC_RECV_SEG_SIZE : 0;
	for (; off + SWNIC_RECV_SEG_SIZE <= stride; off += SWNIC_RECV_SEG_SIZE) {
		struct swnic_recv_sge *s = &w->sge[w->nsge];

		s->lkey = ogda_load_be32(e + off + 4);
		if (s->lkey == OPENGDA_MLX5_INVALID_LKEY)
			break;
		s->len = ogda_load_be32(e + off);
		s->addr = ogda_load_be64(e + off + 8);
		w->capacity += s->len;
		w->nsge++;
	}
	if (linked_list) {
		w->counter = (uint16_t)idx;
		w->next_head = ogda_load_be16(e + 2);
	} else {
		w->counter = (uint16_t)rq->ci;
	}
	return SWNIC_RQ_TAKE_OK;
}

void swnic_rq_consume(struct swnic_rq *rq, bool linked_list, const struct swnic_recv_wqe *w)
{
	if (linked_list)
		rq->head = w->next_head;
	rq->ci++;
}

enum swnic_rq_take_result swnic_rq_take(struct swnic_rq *rq, bool linked_list, struct swnic_recv_wqe *w)
{
	enum swnic_rq_take_result r = swnic_rq_peek(rq, linked_list, w);

	if (r == SWNIC_RQ_TAKE_OK)
		swnic_rq_consume(rq, linked_list, w);
	return r;
}

/* Vendor syndrome of a receive SGE whose key check failed (swnic_mr_resolve's error). */
static uint8_t lkey_vendor_syndrome(doca_error_t err)
{
	switch (err) {
	case DOCA_ERROR_NOT_PERMITTED:
		return SWNIC_VSYND_LKEY_ACCESS;
	case DOCA_ERROR_INVALID_VALUE:
		return SWNIC_VSYND_LKEY_RANGE;
	default:
		return SWNIC_VSYND_BAD_LKEY;
	}
}

/* Releases the receive buffers' MRs held by swnic_recv_hold. */
void swnic_recv_release(struct swnic_recv_wqe *w)
{
	while (w->nheld > 0)
		swnic_mr_unhold(&w->hold[--w->nheld]);
}

/*
 * Checks every lkey that receives bytes and holds its MR until swnic_recv_release (nothing
 * is written here); 0 or a vendor syndrome, with nothing held.
 */
uint8_t swnic_recv_hold(struct swnic *nic, const struct swnic_pd *pd, struct swnic_recv_wqe *w, uint32_t len,
			     uint32_t qpn)
{
	uint32_t left = len, i;

	w->nheld = 0;
	for (i = 0; i < w->nsge && left > 0; i++) {
		uint32_t chunk = w->sge[i].len < left ? w->sge[i].len : left;
		doca_error_t err;

		memset(&w->hold[i], 0, sizeof(w->hold[i]));
		w->nheld = i + 1;
		if (chunk == 0)
			continue;
		err = swnic_mr_hold(nic, w->sge[i].lkey, false, pd, w->sge[i].addr, chunk, OGDA_ACCESS_LOCAL_WRITE,
				    &w->hold[i]);
		if (err != DOCA_SUCCESS) {
			swnic_recv_release(w);
			OGDA_LOG_DBG("qp 0x%x: receive SGE %u lkey 0x%x [0x%llx, +%u) refused: %s", qpn, i,
				     w->sge[i].lkey, (unsigned long long)w->sge[i].addr, chunk,
				     doca_error_get_name(err));
			return lkey_vendor_syndrome(err);
		}
		left -= chunk;
	}
	return 0;
}

bool swnic_recv_scatter(const struct swnic_recv_wqe *w, const uint8_t *data, uint32_t len)
{
	uint32_t left = len, i;

	for (i = 0; i < w->nsge && left > 0; i++) {
		uint32_t chunk = w->sge[i].len < left ? w->sge[i].len : left;

		if (chunk == 0)
			continue;
		if (swnic_mem_copy_held((void *)(uintptr_t)w->sge[i].addr, w->hold[i].mr.kind, data, OGDA_MEM_HOST, chunk,
					&w->hold[i], NULL) != DOCA_SUCCESS)
			return false;
		data += chunk;
		left -= chunk;
	}
	return true;
}

