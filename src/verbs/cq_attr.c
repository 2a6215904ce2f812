/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ creation attributes: plain data checked field by field here; what depends on the
 * device (max_cqe, the whole ring fitting its UMEM, objects of one context) is checked by
 * doca_verbs_cq_create().
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

#define CQ_RING_ALIGN 64u /* a CQE */
#define CQ_DBR_SIZE 8u    /* two 32-bit words: consumer index, arm */

doca_error_t doca_verbs_cq_attr_create(struct doca_verbs_cq_attr **verbs_cq_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_create, (verbs_cq_attr));
	struct doca_verbs_cq_attr *a;

	if (verbs_cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("cq_attr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->overrun = DOCA_VERBS_CQ_DISABLE_OVERRUN;
	*verbs_cq_attr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_destroy(struct doca_verbs_cq_attr *verbs_cq_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_destroy, (verbs_cq_attr));
	if (verbs_cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(verbs_cq_attr);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_cq_size(struct doca_verbs_cq_attr *cq_attr, uint32_t cq_size)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_cq_size, (cq_attr, cq_size));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr cq_size: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cq_size == 0) {
		OGDA_LOG_ERR("cq_attr cq_size: 0 CQEs (at least 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->cq_size = cq_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_cq_context(struct doca_verbs_cq_attr *cq_attr, void *cq_context)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_cq_context, (cq_attr, cq_context));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr cq_context: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->cq_context = cq_context;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_external_umem(struct doca_verbs_cq_attr *cq_attr,
						  struct doca_verbs_umem *external_umem, uint64_t external_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_external_umem, (cq_attr, external_umem, external_umem_offset));
	if (cq_attr == NULL || external_umem == NULL) {
		OGDA_LOG_ERR("cq_attr external_umem: NULL %s", cq_attr == NULL ? "attributes" : "umem");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_umem_offset % CQ_RING_ALIGN != 0) {
		OGDA_LOG_ERR("cq_attr external_umem: offset 0x%llx is not %u-byte aligned",
			     (unsigned long long)external_umem_offset, CQ_RING_ALIGN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_umem_offset >= external_umem->size) {
		OGDA_LOG_ERR("cq_attr external_umem: offset 0x%llx is beyond the umem (%zu bytes)",
			     (unsigned long long)external_umem_offset, external_umem->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->umem = external_umem;
	cq_attr->umem_offset = external_umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_external_dbr_umem(struct doca_verbs_cq_attr *cq_attr,
						      struct doca_verbs_umem *external_dbr_umem,
						      uint64_t external_dbr_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_external_dbr_umem, (cq_attr, external_dbr_umem, external_dbr_umem_offset));
	if (cq_attr == NULL || external_dbr_umem == NULL) {
		OGDA_LOG_ERR("cq_attr external_dbr_umem: NULL %s", cq_attr == NULL ? "attributes" : "umem");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_dbr_umem_offset % CQ_DBR_SIZE != 0) {
		OGDA_LOG_ERR("cq_attr external_dbr_umem: offset 0x%llx is not %u-byte aligned",
			     (unsigned long long)external_dbr_umem_offset, CQ_DBR_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_dbr_umem->size < CQ_DBR_SIZE || external_dbr_umem_offset > external_dbr_umem->size - CQ_DBR_SIZE) {
		OGDA_LOG_ERR("cq_attr external_dbr_umem: %u bytes at offset 0x%llx do not fit the umem (%zu bytes)",
			     CQ_DBR_SIZE, (unsigned long long)external_dbr_umem_offset, external_dbr_umem->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->dbr_umem = external_dbr_umem;
	cq_attr->dbr_umem_offset = external_dbr_umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_external_uar(struct doca_verbs_cq_attr *cq_attr,
						 struct doca_verbs_uar *external_uar)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_external_uar, (cq_attr, external_uar));
	if (cq_attr == NULL || external_uar == NULL) {
		OGDA_LOG_ERR("cq_attr external_uar: NULL %s", cq_attr == NULL ? "attributes" : "uar");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->uar = external_uar;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_cq_overrun(struct doca_verbs_cq_attr *cq_attr, enum doca_verbs_cq_overrun overrun)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_cq_overrun, (cq_attr, overrun));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr overrun: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (overrun != DOCA_VERBS_CQ_DISABLE_OVERRUN && overrun != DOCA_VERBS_CQ_ENABLE_OVERRUN) {
		OGDA_LOG_ERR("cq_attr overrun: %d is not a doca_verbs_cq_overrun value", (int)overrun);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->overrun = (uint8_t)overrun;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_cq_collapsed(struct doca_verbs_cq_attr *cq_attr, uint8_t cc)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_cq_collapsed, (cq_attr, cc));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr collapsed: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cc > 1) {
		OGDA_LOG_ERR("cq_attr collapsed: %u is not 0 or 1", cc);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->collapsed = cc;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_comp_channel(struct doca_verbs_cq_attr *cq_attr,
						 struct doca_verbs_comp_channel *comp_channel)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_comp_channel, (cq_attr, comp_channel));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr comp_channel: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->comp_channel = comp_channel;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_cq_attr_set_external_datapath_en(struct doca_verbs_cq_attr *cq_attr,
							 uint8_t external_datapath_en)
{
	OGDA_SDK_FORWARD(doca_verbs_cq_attr_set_external_datapath_en, (cq_attr, external_datapath_en));
	if (cq_attr == NULL) {
		OGDA_LOG_ERR("cq_attr external_datapath: NULL attributes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_datapath_en > 1) {
		OGDA_LOG_ERR("cq_attr external_datapath: %u is not 0 or 1", external_datapath_en);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cq_attr->external_datapath = external_datapath_en;
	return DOCA_SUCCESS;
}
