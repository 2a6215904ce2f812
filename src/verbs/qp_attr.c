/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP modify / query attributes: plain data checked field by field here. Which fields a
 * transition needs, and the values that depend on the device (path MTU against the port,
 * read/atomic depths against the capabilities), are checked by doca_verbs_qp_modify().
 */
#include "verbs/verbs_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>

#define QP_24BIT_MAX 0xffffffu   /* PSNs and QP numbers */
#define QP_TIMER_MAX 31u         /* ack timeout and RNR timer codes (5 bits) */
#define QP_RETRY_MAX 7u          /* retry counts (3 bits) */
#define QP_RD_ATOMIC_MAX 128u    /* largest power of two a uint8_t holds */

static bool attr_ok(const struct doca_verbs_qp_attr *a, const char *what)
{
	if (a == NULL)
		OGDA_LOG_ERR("qp_attr %s: NULL attributes", what);
	return a != NULL;
}

static bool state_valid(enum doca_verbs_qp_state s)
{
	return s == DOCA_VERBS_QP_STATE_RST || s == DOCA_VERBS_QP_STATE_INIT || s == DOCA_VERBS_QP_STATE_RTR ||
	       s == DOCA_VERBS_QP_STATE_RTS || s == DOCA_VERBS_QP_STATE_ERR;
}

/* False (logged) when v is above max: the 24-bit, timer, retry and depth fields. */
static bool in_range(uint32_t v, uint32_t max, const char *what)
{
	if (v > max)
		OGDA_LOG_ERR("qp_attr %s: %u is out of range 0..%u", what, v, max);
	return v <= max;
}

doca_error_t doca_verbs_qp_attr_create(struct doca_verbs_qp_attr **verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_create, (verbs_qp_attr));
	struct doca_verbs_qp_attr *a;

	if (verbs_qp_attr == NULL) {
		OGDA_LOG_ERR("qp_attr: NULL output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		OGDA_LOG_ERR("qp_attr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->next_state = DOCA_VERBS_QP_STATE_RST;
	a->current_state = DOCA_VERBS_QP_STATE_RST;
	*verbs_qp_attr = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_attr_destroy(struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_destroy, (verbs_qp_attr));
	if (!attr_ok(verbs_qp_attr, "destroy"))
		return DOCA_ERROR_INVALID_VALUE;
	free(verbs_qp_attr);
	return DOCA_SUCCESS;
}

/* ---- states and path ---- */

doca_error_t doca_verbs_qp_attr_set_next_state(struct doca_verbs_qp_attr *verbs_qp_attr,
					       enum doca_verbs_qp_state next_state)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_next_state, (verbs_qp_attr, next_state));
	if (!attr_ok(verbs_qp_attr, "next_state"))
		return DOCA_ERROR_INVALID_VALUE;
	if (!state_valid(next_state)) {
		OGDA_LOG_ERR("qp_attr next_state: %d is not a doca_verbs_qp_state value", (int)next_state);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->next_state = next_state;
	return DOCA_SUCCESS;
}

enum doca_verbs_qp_state doca_verbs_qp_attr_get_next_state(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_next_state, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "next_state") ? verbs_qp_attr->next_state : DOCA_VERBS_QP_STATE_RST;
}

doca_error_t doca_verbs_qp_attr_set_current_state(struct doca_verbs_qp_attr *verbs_qp_attr,
						  enum doca_verbs_qp_state current_state)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_current_state, (verbs_qp_attr, current_state));
	if (!attr_ok(verbs_qp_attr, "current_state"))
		return DOCA_ERROR_INVALID_VALUE;
	if (!state_valid(current_state)) {
		OGDA_LOG_ERR("qp_attr current_state: %d is not a doca_verbs_qp_state value", (int)current_state);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->current_state = current_state;
	return DOCA_SUCCESS;
}

enum doca_verbs_qp_state doca_verbs_qp_attr_get_current_state(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_current_state, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "current_state") ? verbs_qp_attr->current_state : DOCA_VERBS_QP_STATE_RST;
}

doca_error_t doca_verbs_qp_attr_set_path_mtu(struct doca_verbs_qp_attr *verbs_qp_attr,
					     enum doca_verbs_mtu_size path_mtu)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_path_mtu, (verbs_qp_attr, path_mtu));
	if (!attr_ok(verbs_qp_attr, "path_mtu"))
		return DOCA_ERROR_INVALID_VALUE;
	if (path_mtu != DOCA_VERBS_MTU_SIZE_256_BYTES && path_mtu != DOCA_VERBS_MTU_SIZE_512_BYTES &&
	    path_mtu != DOCA_VERBS_MTU_SIZE_1K_BYTES && path_mtu != DOCA_VERBS_MTU_SIZE_2K_BYTES &&
	    path_mtu != DOCA_VERBS_MTU_SIZE_4K_BYTES) {
		OGDA_LOG_ERR("qp_attr path_mtu: %d is not an MTU of 256 .. 4K bytes", (int)path_mtu);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->path_mtu = path_mtu;
	return DOCA_SUCCESS;
}

enum doca_verbs_mtu_size doca_verbs_qp_attr_get_path_mtu(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_path_mtu, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "path_mtu") ? verbs_qp_attr->path_mtu : DOCA_VERBS_MTU_SIZE_256_BYTES;
}

doca_error_t doca_verbs_qp_attr_set_rq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t rq_psn)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_rq_psn, (verbs_qp_attr, rq_psn));
	if (!attr_ok(verbs_qp_attr, "rq_psn") || !in_range(rq_psn, QP_24BIT_MAX, "rq_psn"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->rq_psn = rq_psn;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_attr_get_rq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_rq_psn, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "rq_psn") ? verbs_qp_attr->rq_psn : 0;
}

doca_error_t doca_verbs_qp_attr_set_sq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t sq_psn)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_sq_psn, (verbs_qp_attr, sq_psn));
	if (!attr_ok(verbs_qp_attr, "sq_psn") || !in_range(sq_psn, QP_24BIT_MAX, "sq_psn"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->sq_psn = sq_psn;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_attr_get_sq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_sq_psn, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "sq_psn") ? verbs_qp_attr->sq_psn : 0;
}

doca_error_t doca_verbs_qp_attr_set_dest_qp_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t dest_qp_num)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_dest_qp_num, (verbs_qp_attr, dest_qp_num));
	if (!attr_ok(verbs_qp_attr, "dest_qp_num") || !in_range(dest_qp_num, QP_24BIT_MAX, "dest_qp_num"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->dest_qp_num = dest_qp_num;
	return DOCA_SUCCESS;
}

uint32_t doca_verbs_qp_attr_get_dest_qp_num(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_dest_qp_num, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "dest_qp_num") ? verbs_qp_attr->dest_qp_num : 0;
}

doca_error_t doca_verbs_qp_attr_set_ah_attr(struct doca_verbs_qp_attr *verbs_qp_attr,
					    struct doca_verbs_ah_attr *ah_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_ah_attr, (verbs_qp_attr, ah_attr));
	if (!attr_ok(verbs_qp_attr, "ah_attr"))
		return DOCA_ERROR_INVALID_VALUE;
	if (ah_attr == NULL) {
		OGDA_LOG_ERR("qp_attr ah_attr: NULL ah_attr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->ah_attr = ah_attr;
	return DOCA_SUCCESS;
}

struct doca_verbs_ah_attr *doca_verbs_qp_attr_get_ah_attr(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_ah_attr, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "ah_attr") ? verbs_qp_attr->ah_attr : NULL;
}

doca_error_t doca_verbs_qp_attr_set_pkey_index(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t pkey_index)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_pkey_index, (verbs_qp_attr, pkey_index));
	if (!attr_ok(verbs_qp_attr, "pkey_index"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->pkey_index = pkey_index;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_pkey_index(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_pkey_index, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "pkey_index") ? verbs_qp_attr->pkey_index : 0;
}

doca_error_t doca_verbs_qp_attr_set_port_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t port_num)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_port_num, (verbs_qp_attr, port_num));
	if (!attr_ok(verbs_qp_attr, "port_num"))
		return DOCA_ERROR_INVALID_VALUE;
	if (port_num == 0) {
		OGDA_LOG_ERR("qp_attr port_num: 0 (ports are numbered from 1)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->port_num = port_num;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_port_num(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_port_num, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "port_num") ? verbs_qp_attr->port_num : 0;
}

/* ---- access ---- */

doca_error_t doca_verbs_qp_attr_set_allow_remote_write(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_write)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_allow_remote_write, (verbs_qp_attr, allow_remote_write));
	if (!attr_ok(verbs_qp_attr, "allow_remote_write"))
		return DOCA_ERROR_INVALID_VALUE;
	if (allow_remote_write != 0 && allow_remote_write != 1) {
		OGDA_LOG_ERR("qp_attr allow_remote_write: %d is not 0 or 1", allow_remote_write);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->allow_remote_write = allow_remote_write;
	return DOCA_SUCCESS;
}

int doca_verbs_qp_attr_get_allow_remote_write(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_allow_remote_write, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "allow_remote_write") ? verbs_qp_attr->allow_remote_write : 0;
}

doca_error_t doca_verbs_qp_attr_set_allow_remote_read(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_read)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_allow_remote_read, (verbs_qp_attr, allow_remote_read));
	if (!attr_ok(verbs_qp_attr, "allow_remote_read"))
		return DOCA_ERROR_INVALID_VALUE;
	if (allow_remote_read != 0 && allow_remote_read != 1) {
		OGDA_LOG_ERR("qp_attr allow_remote_read: %d is not 0 or 1", allow_remote_read);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->allow_remote_read = allow_remote_read;
	return DOCA_SUCCESS;
}

int doca_verbs_qp_attr_get_allow_remote_read(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_allow_remote_read, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "allow_remote_read") ? verbs_qp_attr->allow_remote_read : 0;
}

/* DOCA 2.0's name: the three doca_verbs_qp_atomic_type values, stored as the atomic mode. */
doca_error_t doca_verbs_qp_attr_set_allow_remote_atomic(struct doca_verbs_qp_attr *verbs_qp_attr,
							enum doca_verbs_qp_atomic_type allow_remote_atomic)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_allow_remote_atomic, (verbs_qp_attr, allow_remote_atomic));
	if (!attr_ok(verbs_qp_attr, "allow_remote_atomic"))
		return DOCA_ERROR_INVALID_VALUE;
	if (allow_remote_atomic != DOCA_VERBS_QP_ATOMIC_TYPE_NONE &&
	    allow_remote_atomic != DOCA_VERBS_QP_ATOMIC_TYPE_IB_SPEC &&
	    allow_remote_atomic != DOCA_VERBS_QP_ATOMIC_TYPE_UP_TO_8BYTES) {
		OGDA_LOG_ERR("qp_attr allow_remote_atomic: %d is not a doca_verbs_qp_atomic_type value",
			     (int)allow_remote_atomic);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->atomic_mode = (uint8_t)allow_remote_atomic;
	return DOCA_SUCCESS;
}

enum doca_verbs_qp_atomic_type doca_verbs_qp_attr_get_allow_remote_atomic(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_allow_remote_atomic, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "allow_remote_atomic") ? (enum doca_verbs_qp_atomic_type)verbs_qp_attr->atomic_mode
							      : DOCA_VERBS_QP_ATOMIC_TYPE_NONE;
}

doca_error_t doca_verbs_qp_attr_set_atomic_mode(struct doca_verbs_qp_attr *verbs_qp_attr,
						enum doca_verbs_qp_atomic_mode atomic_mode)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_atomic_mode, (verbs_qp_attr, atomic_mode));
	if (!attr_ok(verbs_qp_attr, "atomic_mode"))
		return DOCA_ERROR_INVALID_VALUE;
	if ((int)atomic_mode < (int)DOCA_VERBS_QP_ATOMIC_MODE_NONE ||
	    (int)atomic_mode > (int)DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_256BYTES) {
		OGDA_LOG_ERR("qp_attr atomic_mode: %d is not a doca_verbs_qp_atomic_mode value", (int)atomic_mode);
		return DOCA_ERROR_INVALID_VALUE;
	}
	verbs_qp_attr->atomic_mode = (uint8_t)atomic_mode;
	return DOCA_SUCCESS;
}

/* ---- timers, retries, outstanding reads ---- */

doca_error_t doca_verbs_qp_attr_set_ack_timeout(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t ack_timeout)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_ack_timeout, (verbs_qp_attr, ack_timeout));
	if (!attr_ok(verbs_qp_attr, "ack_timeout") || !in_range(ack_timeout, QP_TIMER_MAX, "ack_timeout"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->ack_timeout = ack_timeout;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_ack_timeout(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_ack_timeout, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "ack_timeout") ? verbs_qp_attr->ack_timeout : 0;
}

doca_error_t doca_verbs_qp_attr_set_retry_cnt(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t retry_cnt)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_retry_cnt, (verbs_qp_attr, retry_cnt));
	if (!attr_ok(verbs_qp_attr, "retry_cnt") || !in_range(retry_cnt, QP_RETRY_MAX, "retry_cnt"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->retry_cnt = retry_cnt;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_retry_cnt(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_retry_cnt, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "retry_cnt") ? verbs_qp_attr->retry_cnt : 0;
}

doca_error_t doca_verbs_qp_attr_set_rnr_retry(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t rnr_retry)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_rnr_retry, (verbs_qp_attr, rnr_retry));
	if (!attr_ok(verbs_qp_attr, "rnr_retry") || !in_range(rnr_retry, QP_RETRY_MAX, "rnr_retry"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->rnr_retry = rnr_retry;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_rnr_retry(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_rnr_retry, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "rnr_retry") ? verbs_qp_attr->rnr_retry : 0;
}

doca_error_t doca_verbs_qp_attr_set_min_rnr_timer(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t min_rnr_timer)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_min_rnr_timer, (verbs_qp_attr, min_rnr_timer));
	if (!attr_ok(verbs_qp_attr, "min_rnr_timer") || !in_range(min_rnr_timer, QP_TIMER_MAX, "min_rnr_timer"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->min_rnr_timer = min_rnr_timer;
	return DOCA_SUCCESS;
}

uint16_t doca_verbs_qp_attr_get_min_rnr_timer(const struct doca_verbs_qp_attr *verbs_qp_attr)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_get_min_rnr_timer, (verbs_qp_attr));
	return attr_ok(verbs_qp_attr, "min_rnr_timer") ? verbs_qp_attr->min_rnr_timer : 0;
}

/* 0 stays 0 (no outstanding reads); anything else rounds up to a power of two (the PRM field is a log2). */
static uint8_t rd_atomic_round(uint8_t v)
{
	return v == 0 ? 0 : (uint8_t)verbs_roundup_pow2(v, NULL);
}

doca_error_t doca_verbs_qp_attr_set_max_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr, uint8_t max_rd_atomic)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_max_rd_atomic, (verbs_qp_attr, max_rd_atomic));
	if (!attr_ok(verbs_qp_attr, "max_rd_atomic") || !in_range(max_rd_atomic, QP_RD_ATOMIC_MAX, "max_rd_atomic"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->max_rd_atomic = rd_atomic_round(max_rd_atomic);
	return DOCA_SUCCESS;
}

doca_error_t doca_verbs_qp_attr_set_max_dest_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr,
						       uint8_t max_dest_rd_atomic)
{
	OGDA_SDK_FORWARD(doca_verbs_qp_attr_set_max_dest_rd_atomic, (verbs_qp_attr, max_dest_rd_atomic));
	if (!attr_ok(verbs_qp_attr, "max_dest_rd_atomic") ||
	    !in_range(max_dest_rd_atomic, QP_RD_ATOMIC_MAX, "max_dest_rd_atomic"))
		return DOCA_ERROR_INVALID_VALUE;
	verbs_qp_attr->max_dest_rd_atomic = rd_atomic_round(max_dest_rd_atomic);
	return DOCA_SUCCESS;
}
