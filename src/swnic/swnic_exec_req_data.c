/* SPDX-License-Identifier: BSD-3-Clause */
/* The requester's local data movement: SGE key checks, staging, gather and scatter (swnic_exec_req_int.h). */
#include "swnic/swnic_exec_req_int.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "swnic/swnic_mem_access.h"

#include <stdlib.h>
#include <string.h>

doca_error_t swnic_xreq_staging(struct swnic_exec *x, uint64_t len, uint8_t **out)
{
	if (len == 0) {
		*out = NULL;
		return DOCA_SUCCESS;
	}
	if (x->buf_cap < len) {
		uint8_t *p = malloc((size_t)len);

		if (p == NULL) {
			OGDA_LOG_ERR("no memory for a %llu-byte staging buffer", (unsigned long long)len);
			return DOCA_ERROR_NO_MEMORY;
		}
		free(x->buf);
		x->buf = p;
		x->buf_cap = (size_t)len;
	}
	*out = x->buf;
	return DOCA_SUCCESS;
}

/* Maps a key-check failure to the vendor reason; the syndrome is always LOCAL_PROT. */
uint8_t swnic_xreq_lkey_vendor(doca_error_t rc)
{
	if (rc == DOCA_ERROR_NOT_PERMITTED)
		return SWNIC_VSYND_LKEY_ACCESS;
	if (rc == DOCA_ERROR_INVALID_VALUE)
		return SWNIC_VSYND_LKEY_RANGE;
	return SWNIC_VSYND_BAD_LKEY;
}

/*
 * Resolves the pointer segments into x->sge (inline chunks are skipped) with the given
 * local rights. Returns 0 or the vendor syndrome of a LOCAL_PROT / LOCAL_QP_OP failure
 * (*syndrome says which).
 */
uint8_t swnic_xreq_resolve_sges(struct swnic_qp *qp, struct swnic_exec *x, uint32_t need_access, uint8_t *syndrome)
{
	uint32_t i;

	x->nsge = 0;
	for (i = 0; i < x->wqe.ndata; i++) {
		const struct prm_wqe_data *d = &x->wqe.data[i];
		struct swnic_mr mr;
		doca_error_t rc;

		if (d->kind != PRM_WQE_DATA_PTR)
			continue;
		if (x->nsge == SWNIC_MAX_SGE) {
			*syndrome = OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			return SWNIC_VSYND_TOO_MANY_SGE;
		}
		x->sge[x->nsge].addr = d->addr;
		x->sge[x->nsge].len = d->byte_count;
		x->sge[x->nsge].lkey = d->lkey;
		x->sge[x->nsge].kind = OGDA_MEM_HOST;
		if (d->byte_count != 0) {
			rc = swnic_mr_resolve(qp->nic, d->lkey, false, qp->pd, d->addr, d->byte_count, need_access, &mr);
			if (rc != DOCA_SUCCESS) {
				*syndrome = OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
				return swnic_xreq_lkey_vendor(rc);
			}
			x->sge[x->nsge].kind = mr.kind;
		}
		x->nsge++;
	}
	return 0;
}

uint64_t swnic_xreq_data_total(const struct prm_wqe *w)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < w->ndata; i++)
		total += w->data[i].byte_count;
	return total;
}

/*
 * Moves n bytes between local buffer g and host memory other (to_sge: into g) with g's MR
 * held for the copy. 0 or the vendor syndrome of the LOCAL_PROT failure.
 */
static uint8_t sge_copy(struct swnic_qp *qp, const struct swnic_sge *g, void *other, uint64_t n, bool to_sge)
{
	struct swnic_mr_hold h;
	doca_error_t rc;

	rc = swnic_mr_hold(qp->nic, g->lkey, false, qp->pd, g->addr, n, to_sge ? OGDA_ACCESS_LOCAL_WRITE : 0u, &h);
	if (rc != DOCA_SUCCESS)
		return swnic_xreq_lkey_vendor(rc);
	if (to_sge)
		rc = swnic_mem_copy_held((void *)(uintptr_t)g->addr, h.mr.kind, other, OGDA_MEM_HOST, (size_t)n, &h, NULL);
	else
		rc = swnic_mem_copy_held(other, OGDA_MEM_HOST, (const void *)(uintptr_t)g->addr, h.mr.kind, (size_t)n, &h,
					 NULL);
	swnic_mr_unhold(&h);
	if (rc == DOCA_ERROR_NOT_FOUND) /* deregistered during the copy */
		return SWNIC_VSYND_BAD_LKEY;
	return rc == DOCA_SUCCESS ? 0 : SWNIC_VSYND_LOCAL_COPY;
}

/* Copies the whole payload into staging memory (host). 0 or a LOCAL_PROT vendor syndrome. */
uint8_t swnic_xreq_gather_copy(struct swnic_qp *qp, struct swnic_exec *x)
{
	const struct prm_wqe *w = &x->wqe;
	uint32_t i, s = 0;
	uint64_t off = 0;
	uint8_t *dst = NULL;
	uint8_t vendor;

	x->payload_is_sge = false;
	x->req.payload_kind = OGDA_MEM_HOST;
	if (swnic_xreq_staging(x, x->total, &dst) != DOCA_SUCCESS)
		return SWNIC_VSYND_LOCAL_COPY;
	for (i = 0; i < w->ndata; i++) {
		const struct prm_wqe_data *d = &w->data[i];

		if (d->byte_count == 0) {
			if (d->kind == PRM_WQE_DATA_PTR)
				s++;
			continue;
		}
		if (d->kind == PRM_WQE_DATA_INLINE) {
			memcpy(dst + off, w->bytes + d->inline_offset, d->byte_count);
		} else {
			vendor = sge_copy(qp, &x->sge[s++], dst + off, d->byte_count, false);
			if (vendor != 0)
				return vendor;
		}
		off += d->byte_count;
	}
	x->req.payload = dst;
	return 0;
}

/*
 * Builds the outgoing payload of WRITE / SEND: points at it when it is one piece of host
 * memory (whose MR each attempt then holds) or, with gpu_in_place (WRITEs), one piece of GPU
 * memory (which a pipe may send by reference, swnic_ipc.h; else it is copied when it is
 * sent), otherwise copies. 0 or a LOCAL_PROT vendor syndrome.
 */
uint8_t swnic_xreq_gather(struct swnic_qp *qp, struct swnic_exec *x, bool gpu_in_place)
{
	const struct prm_wqe *w = &x->wqe;

	x->payload_is_sge = false;
	x->req.payload_kind = OGDA_MEM_HOST;
	if (w->ndata == 1 && w->data[0].kind == PRM_WQE_DATA_INLINE) {
		x->req.payload = w->bytes + w->data[0].inline_offset;
		return 0;
	}
	if (w->ndata == 1 && x->nsge == 1 && (x->sge[0].kind == OGDA_MEM_HOST || gpu_in_place)) {
		x->req.payload = (const void *)(uintptr_t)x->sge[0].addr;
		x->req.payload_kind = (uint8_t)x->sge[0].kind;
		x->payload_is_sge = true;
		return 0;
	}
	return swnic_xreq_gather_copy(qp, x);
}

/* Writes len bytes of src across the SGEs, in order, each with its MR held. 0 or a vendor syndrome. */
uint8_t swnic_xreq_scatter(struct swnic_qp *qp, const struct swnic_exec *x, const uint8_t *src, uint64_t len)
{
	uint64_t off = 0;
	uint32_t i;

	for (i = 0; i < x->nsge && off < len; i++) {
		const struct swnic_sge *g = &x->sge[i];
		uint64_t n = g->len < len - off ? g->len : len - off;
		uint8_t vendor;

		if (n == 0)
			continue;
		vendor = sge_copy(qp, g, (void *)(uintptr_t)(src + off), n, true);
		if (vendor != 0)
			return vendor;
		off += n;
	}
	return 0;
}
