/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SRQ creation attributes: plain data checked field by field here; sizes are stored as set
 * and checked against the device limits by doca_verbs_srq_create().
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

static bool attr_ok(const struct doca_verbs_srq_init_attr *a, const char *what)
{
	if (a == NULL)
		OGDA_LOG_ERR("srq_init_attr %s: NULL attributes", what);
	return a != NULL;
}

doca_error_t doca_verbs_srq_init_attr_create(struct doca_verbs_srq_init_attr **verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_create, (verbs_srq_init_attr));
	struct doca_verbs_srq_init_attr *a;

	if (verbs_srq_init_attr == NULL) {
		OGDA_LOG_ERR("srq_init_attr: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("srq_init_attr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->type = DOCA_VERBS_SRQ_TYPE_LINKED_LIST;
	a->receive_max_sges = 1;
	*verbs_srq_init_attr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_init_attr_destroy(struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_destroy, (verbs_srq_init_attr));
	if (!attr_ok(verbs_srq_init_attr, "destroy"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_open_unpin(&verbs_srq_init_attr->open_pin);
	free(verbs_srq_init_attr);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_init_attr_set_srq_wr(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, uint32_t srq_wr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_srq_wr, (verbs_srq_init_attr, srq_wr));
	if (!attr_ok(verbs_srq_init_attr, "srq_wr"))
		return DOCA_ERROR_INVALID_VALUE;
	if (srq_wr == 0) {
		OGDA_LOG_ERR("srq_init_attr srq_wr: 0 WQEs (at least 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_srq_init_attr->srq_wr = srq_wr;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_srq_init_attr_get_srq_wr(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_get_srq_wr, (verbs_srq_init_attr));
	return attr_ok(verbs_srq_init_attr, "srq_wr") ? verbs_srq_init_attr->srq_wr : 0;
}

doca_error_t doca_verbs_srq_init_attr_set_receive_max_sges(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							   uint32_t receive_max_sges)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_receive_max_sges, (verbs_srq_init_attr, receive_max_sges));
	if (!attr_ok(verbs_srq_init_attr, "receive_max_sges"))
		return DOCA_ERROR_INVALID_VALUE;
	if (receive_max_sges == 0) {
		OGDA_LOG_ERR("srq_init_attr receive_max_sges: 0 (at least 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_srq_init_attr->receive_max_sges = receive_max_sges;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_srq_init_attr_get_receive_max_sges(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_get_receive_max_sges, (verbs_srq_init_attr));
	return attr_ok(verbs_srq_init_attr, "receive_max_sges") ? verbs_srq_init_attr->receive_max_sges : 0;
}

doca_error_t doca_verbs_srq_init_attr_set_type(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
					       enum doca_verbs_srq_type srq_type)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_type, (verbs_srq_init_attr, srq_type));
	if (!attr_ok(verbs_srq_init_attr, "type"))
		return DOCA_ERROR_INVALID_VALUE;
	if (srq_type != DOCA_VERBS_SRQ_TYPE_LINKED_LIST && srq_type != DOCA_VERBS_SRQ_TYPE_CONTIGUOUS) {
		OGDA_LOG_ERR("srq_init_attr type: %d is not a doca_verbs_srq_type value", (int)srq_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_srq_init_attr->type = srq_type;
	return DOCA_SUCCESS;
}

enum doca_verbs_srq_type doca_verbs_srq_init_attr_get_type(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_get_type, (verbs_srq_init_attr));
	return attr_ok(verbs_srq_init_attr, "type") ? verbs_srq_init_attr->type : DOCA_VERBS_SRQ_TYPE_LINKED_LIST;
}

doca_error_t doca_verbs_srq_init_attr_set_pd(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
					     struct doca_verbs_pd *pd)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_pd, (verbs_srq_init_attr, pd));
	if (!attr_ok(verbs_srq_init_attr, "pd"))
		return DOCA_ERROR_INVALID_VALUE;
	if (pd == NULL) {
		OGDA_LOG_ERR("srq_init_attr pd: NULL pd");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_open_unpin(&verbs_srq_init_attr->open_pin);
	verbs_srq_init_attr->pd = pd;
	return DOCA_SUCCESS;
}

struct doca_verbs_pd *doca_verbs_srq_init_attr_get_pd(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_get_pd, (verbs_srq_init_attr));
	return attr_ok(verbs_srq_init_attr, "pd") ? verbs_srq_init_attr->pd : NULL;
}

doca_error_t doca_verbs_srq_init_attr_set_external_umem(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							struct doca_verbs_umem *external_umem, uint64_t external_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_external_umem, (verbs_srq_init_attr, external_umem, external_umem_offset));
	if (!attr_ok(verbs_srq_init_attr, "external_umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_umem == NULL) {
		OGDA_LOG_ERR("srq_init_attr external_umem: NULL umem");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (external_umem_offset >= external_umem->size) {
		OGDA_LOG_ERR("srq_init_attr external_umem: offset 0x%llx is beyond the umem (%zu bytes)",
			     (unsigned long long)external_umem_offset, external_umem->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_srq_init_attr->umem = external_umem;
	verbs_srq_init_attr->umem_offset = external_umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_init_attr_get_external_umem(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							struct doca_verbs_umem **external_umem,
							uint64_t *external_umem_offset)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_get_external_umem, (verbs_srq_init_attr, external_umem, external_umem_offset));
	if (!attr_ok(verbs_srq_init_attr, "external_umem"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_umem == NULL || external_umem_offset == NULL) {
		OGDA_LOG_ERR("srq_init_attr external_umem: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*external_umem = verbs_srq_init_attr->umem;
	*external_umem_offset = verbs_srq_init_attr->umem == NULL ? 0 : verbs_srq_init_attr->umem_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_srq_init_attr_set_external_datapath_en(struct doca_verbs_srq_init_attr *verbs_srq_init_attr,
							       uint8_t external_datapath_en)
{
	OGDA_SDK_FORWARD(doca_verbs_srq_init_attr_set_external_datapath_en, (verbs_srq_init_attr, external_datapath_en));
	if (!attr_ok(verbs_srq_init_attr, "external_datapath"))
		return DOCA_ERROR_INVALID_VALUE;
	if (external_datapath_en > 1) {
		OGDA_LOG_ERR("srq_init_attr external_datapath: %u is not 0 or 1", external_datapath_en);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_srq_init_attr->external_datapath = external_datapath_en;
	return DOCA_SUCCESS;
}
