/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP creation attributes: plain data checked field by field here. Sizes are stored as set;
 * doca_verbs_qp_create() rounds them and checks them against the device limits and the
 * objects against its context.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define QP_USER_INDEX_MAX 0xffffffu /* 24 bits */
#define QP_DBR_SIZE 8u              /* two 32-bit words: RQ counter, SQ counter */

/* False (logged) for a NULL attribute object; what names the field for the log. */
static bool attr_ok(const struct doca_verbs_qp_init_attr *a, const char *what)
{
	if (a == NULL)
		OGDA_LOG_ERR("qp_init_attr %s: NULL attributes", what);
	return a != NULL;
}

static doca_error_t check_flag(uint32_t v, const char *what)
{
	if (v > 1) {
		OGDA_LOG_ERR("qp_init_attr %s: %u is not 0 or 1", what, v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

void verbs_qp_init_attr_defaults(struct doca_verbs_qp_init_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->qp_type = DOCA_VERBS_QP_TYPE_RC;
	a->send_max_sges = 1;
	a->receive_max_sges = 1;
	a->send_dbr_mode = DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;
	a->ordering_semantic = DOCA_VERBS_QP_ORDERING_SEMANTIC_IBTA;
}

doca_error_t doca_verbs_qp_init_attr_create(struct doca_verbs_qp_init_attr **verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_create, (verbs_qp_init_attr));
	struct doca_verbs_qp_init_attr *a;

	if (verbs_qp_init_attr == NULL) {
		OGDA_LOG_ERR("qp_init_attr: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = malloc(sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("qp_init_attr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	verbs_qp_init_attr_defaults(a);
	*verbs_qp_init_attr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_destroy(struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_destroy, (verbs_qp_init_attr));
	if (!attr_ok(verbs_qp_init_attr, "destroy"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_open_unpin(&verbs_qp_init_attr->open_pin);
	free(verbs_qp_init_attr);
	return DOCA_SUCCESS;
}

/* ---- objects ---- */

doca_error_t doca_verbs_qp_init_attr_set_pd(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
					    struct doca_verbs_pd *pd)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_pd, (verbs_qp_init_attr, pd));
	if (!attr_ok(verbs_qp_init_attr, "pd"))
		return DOCA_ERROR_INVALID_VALUE;
	if (pd == NULL) {
		OGDA_LOG_ERR("qp_init_attr pd: NULL pd");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_open_unpin(&verbs_qp_init_attr->open_pin);
	verbs_qp_init_attr->pd = pd;
	return DOCA_SUCCESS;
}

struct doca_verbs_pd *doca_verbs_qp_init_attr_get_pd(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_pd, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "pd") ? verbs_qp_init_attr->pd : NULL;
}

doca_error_t doca_verbs_qp_init_attr_set_send_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						 struct doca_verbs_cq *send_cq)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_send_cq, (verbs_qp_init_attr, send_cq));
	if (!attr_ok(verbs_qp_init_attr, "send_cq"))
		return DOCA_ERROR_INVALID_VALUE;
	if (send_cq == NULL) {
		OGDA_LOG_ERR("qp_init_attr send_cq: NULL cq");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->send_cq = send_cq;
	return DOCA_SUCCESS;
}

struct doca_verbs_cq *doca_verbs_qp_init_attr_get_send_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_send_cq, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "send_cq") ? verbs_qp_init_attr->send_cq : NULL;
}

doca_error_t doca_verbs_qp_init_attr_set_receive_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    struct doca_verbs_cq *receive_cq)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_receive_cq, (verbs_qp_init_attr, receive_cq));
	if (!attr_ok(verbs_qp_init_attr, "receive_cq"))
		return DOCA_ERROR_INVALID_VALUE;
	if (receive_cq == NULL) {
		OGDA_LOG_ERR("qp_init_attr receive_cq: NULL cq");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->receive_cq = receive_cq;
	return DOCA_SUCCESS;
}

struct doca_verbs_cq *doca_verbs_qp_init_attr_get_receive_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_receive_cq, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "receive_cq") ? verbs_qp_init_attr->receive_cq : NULL;
}

doca_error_t doca_verbs_qp_init_attr_set_srq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
					     struct doca_verbs_srq *srq)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_srq, (verbs_qp_init_attr, srq));
	if (!attr_ok(verbs_qp_init_attr, "srq"))
		return DOCA_ERROR_INVALID_VALUE;
	if (srq == NULL) {
		OGDA_LOG_ERR("qp_init_attr srq: NULL srq");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->srq = srq;
	return DOCA_SUCCESS;
}

struct doca_verbs_srq *doca_verbs_qp_init_attr_get_srq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_srq, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "srq") ? verbs_qp_init_attr->srq : NULL;
}

doca_error_t doca_verbs_qp_init_attr_set_qp_context(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    void *qp_context)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_qp_context, (verbs_qp_init_attr, qp_context));
	if (!attr_ok(verbs_qp_init_attr, "qp_context"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->qp_context = qp_context;
	return DOCA_SUCCESS;
}

void *doca_verbs_qp_init_attr_get_qp_context(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_qp_context, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "qp_context") ? verbs_qp_init_attr->qp_context : NULL;
}

/* ---- sizes ---- */

doca_error_t doca_verbs_qp_init_attr_set_sq_sig_all(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int sq_sig_all)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_sq_sig_all, (verbs_qp_init_attr, sq_sig_all));
	if (!attr_ok(verbs_qp_init_attr, "sq_sig_all"))
		return DOCA_ERROR_INVALID_VALUE;
	if (sq_sig_all != 0 && sq_sig_all != 1) {
		OGDA_LOG_ERR("qp_init_attr sq_sig_all: %d is not 0 or 1", sq_sig_all);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->sq_sig_all = sq_sig_all;
	return DOCA_SUCCESS;
}

int doca_verbs_qp_init_attr_get_sq_sig_all(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_sq_sig_all, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "sq_sig_all") ? verbs_qp_init_attr->sq_sig_all : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_sq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t sq_wr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_sq_wr, (verbs_qp_init_attr, sq_wr));
	if (!attr_ok(verbs_qp_init_attr, "sq_wr"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->sq_wr = sq_wr;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_sq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_sq_wr, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "sq_wr") ? verbs_qp_init_attr->sq_wr : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_rq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t rq_wr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_rq_wr, (verbs_qp_init_attr, rq_wr));
	if (!attr_ok(verbs_qp_init_attr, "rq_wr"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->rq_wr = rq_wr;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_rq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_rq_wr, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "rq_wr") ? verbs_qp_init_attr->rq_wr : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_send_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       uint32_t send_max_sges)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_send_max_sges, (verbs_qp_init_attr, send_max_sges));
	if (!attr_ok(verbs_qp_init_attr, "send_max_sges"))
		return DOCA_ERROR_INVALID_VALUE;
	if (send_max_sges == 0) {
		OGDA_LOG_ERR("qp_init_attr send_max_sges: 0 (at least 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->send_max_sges = send_max_sges;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_send_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_send_max_sges, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "send_max_sges") ? verbs_qp_init_attr->send_max_sges : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_receive_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							  uint32_t receive_max_sges)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_receive_max_sges, (verbs_qp_init_attr, receive_max_sges));
	if (!attr_ok(verbs_qp_init_attr, "receive_max_sges"))
		return DOCA_ERROR_INVALID_VALUE;
	if (receive_max_sges == 0) {
		OGDA_LOG_ERR("qp_init_attr receive_max_sges: 0 (at least 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->receive_max_sges = receive_max_sges;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_receive_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_receive_max_sges, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "receive_max_sges") ? verbs_qp_init_attr->receive_max_sges : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_max_inline_data(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							 uint32_t max_inline_data)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_max_inline_data, (verbs_qp_init_attr, max_inline_data));
	if (!attr_ok(verbs_qp_init_attr, "max_inline_data"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->max_inline_data = max_inline_data;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_max_inline_data(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_max_inline_data, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "max_inline_data") ? verbs_qp_init_attr->max_inline_data : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_user_index(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint32_t user_index)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_user_index, (verbs_qp_init_attr, user_index));
	if (!attr_ok(verbs_qp_init_attr, "user_index"))
		return DOCA_ERROR_INVALID_VALUE;
	if (user_index > QP_USER_INDEX_MAX) {
		OGDA_LOG_ERR("qp_init_attr user_index: 0x%x does not fit 24 bits", user_index);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->user_index = user_index;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_user_index(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_user_index, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "user_index") ? verbs_qp_init_attr->user_index : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_qp_type(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t qp_type)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_qp_type, (verbs_qp_init_attr, qp_type));
	if (!attr_ok(verbs_qp_init_attr, "qp_type"))
		return DOCA_ERROR_INVALID_VALUE;
	if (qp_type != DOCA_VERBS_QP_TYPE_RC && qp_type != DOCA_VERBS_QP_TYPE_UC) {
		OGDA_LOG_ERR("qp_init_attr qp_type: 0x%x is neither RC nor UC", qp_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->qp_type = qp_type;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_init_attr_get_qp_type(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_qp_type, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "qp_type") ? verbs_qp_init_attr->qp_type : 0;
}

/* ---- external memory and doorbells ---- */

doca_error_t doca_verbs_qp_init_attr_set_external_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       struct doca_verbs_umem *external_umem,
						       uint64_t external_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_external_umem, (verbs_qp_init_attr, external_umem, external_umem_offset));
	if (!attr_ok(verbs_qp_init_attr, "external_umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_umem == NULL) {
		OGDA_LOG_ERR("qp_init_attr external_umem: NULL umem");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_umem_offset >= external_umem->size) {
		OGDA_LOG_ERR("qp_init_attr external_umem: offset 0x%llx is beyond the umem (%zu bytes)",
			     (unsigned long long)external_umem_offset, external_umem->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->umem = external_umem;
	verbs_qp_init_attr->umem_offset = external_umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_get_external_umem(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       struct doca_verbs_umem **external_umem,
						       uint64_t *external_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_external_umem, (verbs_qp_init_attr, external_umem, external_umem_offset));
	if (!attr_ok(verbs_qp_init_attr, "external_umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_umem == NULL || external_umem_offset == NULL) {
		OGDA_LOG_ERR("qp_init_attr external_umem: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*external_umem = verbs_qp_init_attr->umem;
	*external_umem_offset = verbs_qp_init_attr->umem == NULL ? 0 : verbs_qp_init_attr->umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_set_external_dbr_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   struct doca_verbs_umem *external_dbr_umem,
							   uint64_t external_dbr_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_external_dbr_umem, (verbs_qp_init_attr, external_dbr_umem, external_dbr_umem_offset));
	if (!attr_ok(verbs_qp_init_attr, "external_dbr_umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_dbr_umem == NULL) {
		OGDA_LOG_ERR("qp_init_attr external_dbr_umem: NULL umem");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_dbr_umem_offset % QP_DBR_SIZE != 0) {
		OGDA_LOG_ERR("qp_init_attr external_dbr_umem: offset 0x%llx is not %u-byte aligned",
			     (unsigned long long)external_dbr_umem_offset, QP_DBR_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_dbr_umem->size < QP_DBR_SIZE || external_dbr_umem_offset > external_dbr_umem->size - QP_DBR_SIZE) {
		OGDA_LOG_ERR("qp_init_attr external_dbr_umem: %u bytes at offset 0x%llx do not fit the umem (%zu bytes)",
			     QP_DBR_SIZE, (unsigned long long)external_dbr_umem_offset, external_dbr_umem->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->dbr_umem = external_dbr_umem;
	verbs_qp_init_attr->dbr_umem_offset = external_dbr_umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_set_external_umem_dbr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   struct doca_verbs_umem *external_umem_dbr,
							   uint64_t external_umem_dbr_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_external_umem_dbr, (verbs_qp_init_attr, external_umem_dbr, external_umem_dbr_offset));
	return doca_verbs_qp_init_attr_set_external_dbr_umem(verbs_qp_init_attr, external_umem_dbr,
							      external_umem_dbr_offset);
}

doca_error_t doca_verbs_qp_init_attr_set_external_uar(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						      struct doca_verbs_uar *external_uar)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_external_uar, (verbs_qp_init_attr, external_uar));
	if (!attr_ok(verbs_qp_init_attr, "external_uar"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_uar == NULL) {
		OGDA_LOG_ERR("qp_init_attr external_uar: NULL uar");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->uar = external_uar;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_get_external_uar(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						      struct doca_verbs_uar **external_uar)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_external_uar, (verbs_qp_init_attr, external_uar));
	if (!attr_ok(verbs_qp_init_attr, "external_uar"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_uar == NULL) {
		OGDA_LOG_ERR("qp_init_attr external_uar: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*external_uar = verbs_qp_init_attr->uar;
	return DOCA_SUCCESS;
}

/* ---- modes ---- */

doca_error_t doca_verbs_qp_init_attr_set_core_direct_master(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							    uint8_t core_direct_master)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_core_direct_master, (verbs_qp_init_attr, core_direct_master));
	if (!attr_ok(verbs_qp_init_attr, "core_direct_master"))
		return DOCA_ERROR_INVALID_VALUE;
	if (check_flag(core_direct_master, "core_direct_master") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->core_direct_master = core_direct_master;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_qp_init_attr_get_core_direct_master(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_core_direct_master, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "core_direct_master") ? verbs_qp_init_attr->core_direct_master : 0;
}

doca_error_t doca_verbs_qp_init_attr_set_send_dbr_mode(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						       enum doca_verbs_qp_send_dbr_mode send_dbr_mode)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_send_dbr_mode, (verbs_qp_init_attr, send_dbr_mode));
	if (!attr_ok(verbs_qp_init_attr, "send_dbr_mode"))
		return DOCA_ERROR_INVALID_VALUE;
	if (send_dbr_mode != DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID &&
	    send_dbr_mode != DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT) {
		OGDA_LOG_ERR("qp_init_attr send_dbr_mode: %d is not a doca_verbs_qp_send_dbr_mode value",
			     (int)send_dbr_mode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->send_dbr_mode = send_dbr_mode;
	return DOCA_SUCCESS;
}

enum doca_verbs_qp_send_dbr_mode doca_verbs_qp_init_attr_get_send_dbr_mode(
	const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_send_dbr_mode, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "send_dbr_mode") ? verbs_qp_init_attr->send_dbr_mode
							     : DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID;
}

doca_error_t doca_verbs_qp_init_attr_set_emulate_no_dbr_ext(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							    bool emulate_no_dbr_ext)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_emulate_no_dbr_ext, (verbs_qp_init_attr, emulate_no_dbr_ext));
	if (!attr_ok(verbs_qp_init_attr, "emulate_no_dbr_ext"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->emulate_no_dbr_ext = emulate_no_dbr_ext;
	return DOCA_SUCCESS;
}

bool doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_emulate_no_dbr_ext, (verbs_qp_init_attr));
	return attr_ok(verbs_qp_init_attr, "emulate_no_dbr_ext") ? verbs_qp_init_attr->emulate_no_dbr_ext : false;
}

doca_error_t doca_verbs_qp_init_attr_set_ordering_semantic(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   enum doca_verbs_qp_ordering_semantic ordering_semantic)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_ordering_semantic, (verbs_qp_init_attr, ordering_semantic));
	if (!attr_ok(verbs_qp_init_attr, "ordering_semantic"))
		return DOCA_ERROR_INVALID_VALUE;
	if (ordering_semantic != DOCA_VERBS_QP_ORDERING_SEMANTIC_IBTA &&
	    ordering_semantic != DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_RW &&
	    ordering_semantic != DOCA_VERBS_QP_ORDERING_SEMANTIC_OOO_ALL) {
		OGDA_LOG_ERR("qp_init_attr ordering_semantic: %d is not a doca_verbs_qp_ordering_semantic value",
			     (int)ordering_semantic);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_init_attr->ordering_semantic = ordering_semantic;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_get_ordering_semantic(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							   enum doca_verbs_qp_ordering_semantic *ordering_semantic)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_get_ordering_semantic, (verbs_qp_init_attr, ordering_semantic));
	if (!attr_ok(verbs_qp_init_attr, "ordering_semantic"))
		return DOCA_ERROR_INVALID_VALUE;
	if (ordering_semantic == NULL) {
		OGDA_LOG_ERR("qp_init_attr ordering_semantic: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ordering_semantic = verbs_qp_init_attr->ordering_semantic;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_set_external_datapath_en(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
							      uint8_t external_datapath_en)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_init_attr_set_external_datapath_en, (verbs_qp_init_attr, external_datapath_en));
	if (!attr_ok(verbs_qp_init_attr, "external_datapath"))
		return DOCA_ERROR_INVALID_VALUE;
	if (check_flag(external_datapath_en, "external_datapath") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->external_datapath = external_datapath_en;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_set_cqe_inline(struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint8_t cqe_inline)
{
	if (!attr_ok(verbs_qp_init_attr, "cqe_inline"))
		return DOCA_ERROR_INVALID_VALUE;
	if (check_flag(cqe_inline, "cqe_inline") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_init_attr->cqe_inline = cqe_inline;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_init_attr_get_cqe_inline(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr,
						    uint8_t *cqe_inline)
{
	if (!attr_ok(verbs_qp_init_attr, "cqe_inline"))
		return DOCA_ERROR_INVALID_VALUE;
	if (cqe_inline == NULL) {
		OGDA_LOG_ERR("qp_init_attr cqe_inline: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*cqe_inline = verbs_qp_init_attr->cqe_inline;
	return DOCA_SUCCESS;
}
