/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device limits (doca_verbs_query_device): a snapshot of the context's capabilities in
 * the units DOCA reports (counts, not the PRM's log2 fields).
 */
#include "verbs/verbs_priv.h"
#include "verbs/verbs_util.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

struct doca_verbs_device_attr {
	uint32_t max_qp;
	uint32_t max_qp_wr;
	uint32_t max_sge;
	uint32_t max_cq;
	uint32_t max_cqe;
	uint32_t max_mr;
	uint32_t max_pd;
	uint32_t max_ah;
	uint32_t max_srq;
	uint32_t max_srq_wr;
	uint8_t cqe_inline; /* responder scatter-to-CQE (qpc.cs_res DATA32_CQE) */
	uint32_t max_srq_sge;
	uint16_t max_pkeys;
	uint8_t send_dbr_mode_no_dbr_ext;
	uint8_t max_qp_rd_atom;
	uint8_t max_qp_init_rd_atom;
	bool rc;
	bool uc;
};

doca_error_t doca_verbs_query_device(struct doca_verbs_context *verbs_context,
				     struct doca_verbs_device_attr **verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_query_device, (verbs_context, verbs_device_attr));
	const struct verbs_caps *c;
	struct doca_verbs_device_attr *a;

	if (verbs_context == NULL || verbs_device_attr == NULL) {
		OGDA_LOG_ERR("query_device: NULL %s", verbs_context == NULL ? "context" : "output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("query_device: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	c = &verbs_context->caps;
	a->max_qp = verbs_pow2_u32(c->gen.log_max_qp);
	a->max_qp_wr = c->max_qp_wr;
	a->max_sge = c->max_sge;
	a->max_cq = verbs_pow2_u32(c->gen.log_max_cq);
	a->max_cqe = c->max_cqe;
	a->max_mr = verbs_pow2_u32(c->gen.log_max_mkey);
	a->max_pd = verbs_pow2_u32(c->gen.log_max_pd);
	a->max_ah = a->max_qp; /* every QP holds its own path: no separate AH objects */
	a->max_srq = verbs_pow2_u32(c->gen.log_max_srq);
	a->max_srq_wr = c->max_srq_wr;
	/* Every mlx5 NIC (ConnectX-4 on) and the software NIC scatter up to 32 bytes into a 64-byte CQE. */
	a->cqe_inline = 1;
	a->max_srq_sge = c->max_srq_sge;
	a->max_pkeys = verbs_pkey_table_entries(c->gen.pkey_table_size);
	a->send_dbr_mode_no_dbr_ext = c->no_dbr_ext ? 1 : 0;
	a->max_qp_rd_atom = verbs_pow2_u8(c->gen.log_max_ra_res_qp);
	a->max_qp_init_rd_atom = verbs_pow2_u8(c->gen.log_max_ra_req_qp);
	a->rc = c->gen.rc != 0;
	a->uc = c->gen.uc != 0;
	*verbs_device_attr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_device_attr_free(struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_free, (verbs_device_attr));
	if (verbs_device_attr == NULL) {
		OGDA_LOG_ERR("device_attr: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(verbs_device_attr);
	return DOCA_SUCCESS;
}

static bool attr_ok(const struct doca_verbs_device_attr *a, const char *what)
{
	if (a == NULL)
		OGDA_LOG_ERR("device_attr %s: NULL attributes", what);
	return a != NULL;
}

uint32_t doca_verbs_device_attr_get_max_qp(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_qp, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_qp") ? verbs_device_attr->max_qp : 0;
}

uint32_t doca_verbs_device_attr_get_max_qp_wr(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_qp_wr, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_qp_wr") ? verbs_device_attr->max_qp_wr : 0;
}

uint32_t doca_verbs_device_attr_get_max_sge(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_sge, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_sge") ? verbs_device_attr->max_sge : 0;
}

uint32_t doca_verbs_device_attr_get_max_cq(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_cq, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_cq") ? verbs_device_attr->max_cq : 0;
}

uint32_t doca_verbs_device_attr_get_max_cqe(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_cqe, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_cqe") ? verbs_device_attr->max_cqe : 0;
}

uint32_t doca_verbs_device_attr_get_max_mr(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_mr, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_mr") ? verbs_device_attr->max_mr : 0;
}

uint32_t doca_verbs_device_attr_get_max_pd(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_pd, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_pd") ? verbs_device_attr->max_pd : 0;
}

uint32_t doca_verbs_device_attr_get_max_ah(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_ah, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_ah") ? verbs_device_attr->max_ah : 0;
}

uint32_t doca_verbs_device_attr_get_max_srq(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_srq, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_srq") ? verbs_device_attr->max_srq : 0;
}

uint32_t doca_verbs_device_attr_get_max_srq_wr(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_srq_wr, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_srq_wr") ? verbs_device_attr->max_srq_wr : 0;
}

uint32_t doca_verbs_device_attr_get_max_srq_sge(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_srq_sge, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_srq_sge") ? verbs_device_attr->max_srq_sge : 0;
}

uint16_t doca_verbs_device_attr_get_max_pkeys(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_pkeys, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_pkeys") ? verbs_device_attr->max_pkeys : 0;
}

uint8_t doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_send_dbr_mode_no_dbr_ext, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "send_dbr_mode_no_dbr_ext") ? verbs_device_attr->send_dbr_mode_no_dbr_ext : 0;
}

uint8_t doca_verbs_device_attr_get_max_qp_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_qp_rd_atom, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_qp_rd_atom") ? verbs_device_attr->max_qp_rd_atom : 0;
}

uint8_t doca_verbs_device_attr_get_max_qp_init_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_max_qp_init_rd_atom, (verbs_device_attr));
	return attr_ok(verbs_device_attr, "max_qp_init_rd_atom") ? verbs_device_attr->max_qp_init_rd_atom : 0;
}

doca_error_t doca_verbs_device_attr_get_is_qp_type_supported(const struct doca_verbs_device_attr *verbs_device_attr,
							     uint32_t qp_type)
{
	OGDA_SDK_FORWARD(doca_verbs_device_attr_get_is_qp_type_supported, (verbs_device_attr, qp_type));
	bool supported;

	if (!attr_ok(verbs_device_attr, "is_qp_type_supported"))
		return DOCA_ERROR_INVALID_VALUE;
	if (qp_type == DOCA_VERBS_QP_TYPE_RC)
		supported = verbs_device_attr->rc;
	else if (qp_type == DOCA_VERBS_QP_TYPE_UC)
		supported = verbs_device_attr->uc;
	else
		supported = false;
	if (!supported)
		OGDA_LOG_DBG("device_attr is_qp_type_supported: QP type 0x%x is not supported", qp_type);
	return supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

uint8_t doca_verbs_device_attr_get_is_cqe_inline_supported(const struct doca_verbs_device_attr *verbs_device_attr)
{
	return attr_ok(verbs_device_attr, "is_cqe_inline_supported") ? verbs_device_attr->cqe_inline : 0;
}
