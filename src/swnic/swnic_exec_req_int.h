/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The requester's local data movement (swnic_exec_req.c, swnic_exec_req_data.c): key checks
 * of the SGEs, staging memory, the gather of outgoing payloads and the scatter of what comes
 * back, every access with its MR held (swnic_mem_access.h). Each returns 0 or a vendor
 * syndrome (LOCAL_PROT unless it says otherwise).
 */
#ifndef OGDA_SWNIC_EXEC_REQ_INT_H_
#define OGDA_SWNIC_EXEC_REQ_INT_H_

#include "swnic/swnic_engine.h"

#include <stdbool.h>
#include <stdint.h>

/* Staging of len bytes in x->buf (grown as needed; NULL for 0 bytes). */
doca_error_t swnic_xreq_staging(struct swnic_exec *x, uint64_t len, uint8_t **out);
/* The vendor reason of a key-check failure. */
uint8_t swnic_xreq_lkey_vendor(doca_error_t rc);
/* Resolves the pointer segments into x->sge with need_access (*syndrome: LOCAL_PROT or LOCAL_QP_OP). */
uint8_t swnic_xreq_resolve_sges(struct swnic_qp *qp, struct swnic_exec *x, uint32_t need_access, uint8_t *syndrome);
/* Bytes of all data segments of w. */
uint64_t swnic_xreq_data_total(const struct prm_wqe *w);
/* The whole payload copied into staging memory (host). */
uint8_t swnic_xreq_gather_copy(struct swnic_qp *qp, struct swnic_exec *x);
/* The outgoing payload in place where it can be (gpu_in_place: a single GPU SGE too), else copied. */
uint8_t swnic_xreq_gather(struct swnic_qp *qp, struct swnic_exec *x, bool gpu_in_place);
/* len bytes of src written across the SGEs, in order. */
uint8_t swnic_xreq_scatter(struct swnic_qp *qp, const struct swnic_exec *x, const uint8_t *src, uint64_t len);

#endif /* OGDA_SWNIC_EXEC_REQ_INT_H_ */
