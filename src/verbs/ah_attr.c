/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Address handle attributes: the remote end of a connected QP. An AH attr made by
 * doca_verbs_ah_attr_create() is a child of its context; the one inside a QP attr (filled
 * by a query, ctx NULL) belongs to that QP attr and cannot be destroyed on its own.
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define AH_DEFAULT_HOP_LIMIT 64u
#define AH_DLID_MAX 0xffffu
#define AH_SL_MAX 15u
#define AH_STATIC_RATE_MAX 63u /* 6-bit stat_rate code */

static bool ah_ok(const struct doca_verbs_ah_attr *ah, const char *what)
{
	if (ah == NULL)
		OGDA_LOG_ERR("ah_attr %s: NULL attributes", what);
	return ah != NULL;
}

doca_error_t doca_verbs_ah_attr_create(struct doca_verbs_context *verbs_context, struct doca_verbs_ah_attr **verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_create, (verbs_context, verbs_ah));
	struct doca_verbs_ah_attr *ah;

	if (verbs_context == NULL || verbs_ah == NULL) {
		OGDA_LOG_ERR("ah_attr: NULL %s", verbs_context == NULL ? "context" : "output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ah = calloc(1, sizeof(*ah));
	if (ah == NULL) {
		OGDA_LOG_ERR("ah_attr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	ah->ctx = verbs_context;
	ah->f.addr_type = DOCA_VERBS_ADDR_TYPE_IPv6;
	ah->f.hop_limit = AH_DEFAULT_HOP_LIMIT;
	verbs_ctx_child_add(verbs_context);
	*verbs_ah = ah;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_ah_attr_destroy(struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_destroy, (verbs_ah));
	if (!ah_ok(verbs_ah, "destroy"))
		return DOCA_ERROR_INVALID_VALUE;
	if (verbs_ah->ctx == NULL) {
		/* Embedded in a doca_verbs_qp_attr: freeing it would free part of that object. */
		OGDA_LOG_ERR("ah_attr destroy: these attributes belong to a qp_attr (destroy the qp_attr)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_ctx_child_del(verbs_ah->ctx);
	free(verbs_ah);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_ah_attr_set_gid(struct doca_verbs_ah_attr *verbs_ah, struct doca_verbs_gid gid)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_gid, (verbs_ah, gid));
	if (!ah_ok(verbs_ah, "gid"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_ah->f.gid = gid;
	return DOCA_SUCCESS;
}

struct doca_verbs_gid doca_verbs_ah_get_gid(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_gid, (verbs_ah));
	struct doca_verbs_gid zero;

	if (ah_ok(verbs_ah, "gid"))
		return verbs_ah->f.gid;
	memset(&zero, 0, sizeof(zero));
	return zero;
}

doca_error_t doca_verbs_ah_attr_set_addr_type(struct doca_verbs_ah_attr *verbs_ah, enum doca_verbs_addr_type addr_type)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_addr_type, (verbs_ah, addr_type));
	if (!ah_ok(verbs_ah, "addr_type"))
		return DOCA_ERROR_INVALID_VALUE;
	if (addr_type != DOCA_VERBS_ADDR_TYPE_IPv4 && addr_type != DOCA_VERBS_ADDR_TYPE_IPv6 &&
	    addr_type != DOCA_VERBS_ADDR_TYPE_IB_GRH && addr_type != DOCA_VERBS_ADDR_TYPE_IB_NO_GRH) {
		OGDA_LOG_ERR("ah_attr addr_type: %d is not a doca_verbs_addr_type value", (int)addr_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_ah->f.addr_type = addr_type;
	return DOCA_SUCCESS;
}

enum doca_verbs_addr_type doca_verbs_ah_get_addr_type(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_addr_type, (verbs_ah));
	return ah_ok(verbs_ah, "addr_type") ? verbs_ah->f.addr_type : DOCA_VERBS_ADDR_TYPE_IPv4;
}

doca_error_t doca_verbs_ah_attr_set_dlid(struct doca_verbs_ah_attr *verbs_ah, uint32_t dlid)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_dlid, (verbs_ah, dlid));
	if (!ah_ok(verbs_ah, "dlid"))
		return DOCA_ERROR_INVALID_VALUE;
	if (dlid > AH_DLID_MAX) {
		OGDA_LOG_ERR("ah_attr dlid: 0x%x does not fit 16 bits", dlid);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_ah->f.dlid = dlid;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_ah_get_dlid(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_dlid, (verbs_ah));
	return ah_ok(verbs_ah, "dlid") ? verbs_ah->f.dlid : 0;
}

doca_error_t doca_verbs_ah_attr_set_sl(struct doca_verbs_ah_attr *verbs_ah, uint8_t sl)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_sl, (verbs_ah, sl));
	if (!ah_ok(verbs_ah, "sl"))
		return DOCA_ERROR_INVALID_VALUE;
	if (sl > AH_SL_MAX) {
		OGDA_LOG_ERR("ah_attr sl: %u is out of range 0..%u", sl, AH_SL_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_ah->f.sl = sl;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_ah_get_sl(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_sl, (verbs_ah));
	return ah_ok(verbs_ah, "sl") ? verbs_ah->f.sl : 0;
}

doca_error_t doca_verbs_ah_attr_set_sgid_index(struct doca_verbs_ah_attr *verbs_ah, uint8_t sgid_index)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_sgid_index, (verbs_ah, sgid_index));
	if (!ah_ok(verbs_ah, "sgid_index"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_ah->f.sgid_index = sgid_index;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_ah_get_sgid_index(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_sgid_index, (verbs_ah));
	return ah_ok(verbs_ah, "sgid_index") ? verbs_ah->f.sgid_index : 0;
}

doca_error_t doca_verbs_ah_attr_set_static_rate(struct doca_verbs_ah_attr *verbs_ah, uint8_t static_rate)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_static_rate, (verbs_ah, static_rate));
	if (!ah_ok(verbs_ah, "static_rate"))
		return DOCA_ERROR_INVALID_VALUE;
	if (static_rate > AH_STATIC_RATE_MAX) {
		OGDA_LOG_ERR("ah_attr static_rate: %u is out of range 0..%u", static_rate, AH_STATIC_RATE_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_ah->f.static_rate = static_rate;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_ah_get_static_rate(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_static_rate, (verbs_ah));
	return ah_ok(verbs_ah, "static_rate") ? verbs_ah->f.static_rate : 0;
}

doca_error_t doca_verbs_ah_attr_set_hop_limit(struct doca_verbs_ah_attr *verbs_ah, uint8_t hop_limit)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_hop_limit, (verbs_ah, hop_limit));
	if (!ah_ok(verbs_ah, "hop_limit"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_ah->f.hop_limit = hop_limit;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_ah_get_hop_limit(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_hop_limit, (verbs_ah));
	return ah_ok(verbs_ah, "hop_limit") ? verbs_ah->f.hop_limit : 0;
}

doca_error_t doca_verbs_ah_attr_set_traffic_class(struct doca_verbs_ah_attr *verbs_ah, uint8_t traffic_class)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_attr_set_traffic_class, (verbs_ah, traffic_class));
	if (!ah_ok(verbs_ah, "traffic_class"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_ah->f.traffic_class = traffic_class;
	return DOCA_SUCCESS;
}

uint8_t doca_verbs_ah_get_traffic_class(const struct doca_verbs_ah_attr *verbs_ah)
{
	OGDA_SDK_FORWARD(doca_verbs_ah_get_traffic_class, (verbs_ah));
	return ah_ok(verbs_ah, "traffic_class") ? verbs_ah->f.traffic_class : 0;
}
