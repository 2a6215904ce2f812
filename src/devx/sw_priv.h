/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private parts of the device ops over the software NIC, shared by sw.c (device, PD, memory,
 * UAR, port, events) and sw_obj.c (PRM objects and general commands).
 */
#ifndef OGDA_DEVX_SW_PRIV_H_
#define OGDA_DEVX_SW_PRIV_H_

#include "devx/devx.h"
#include "devx/sw_steer_obj.h"
#include "doca_error.h"

#include <stddef.h>
#include <stdint.h>

struct sw_dev {
	struct ogda_devx base;
	struct swnic *nic;
};

/* Kinds of object obj_create makes, and the commands that belong to each. */
enum sw_obj_kind {
	SW_OBJ_CQ,
	SW_OBJ_QP,
	SW_OBJ_RMP,
	SW_OBJ_PD,
	SW_OBJ_TIS,
	SW_OBJ_SQ,
	SW_OBJ_TD,
	SW_OBJ_STEER,  /* receive steering (sw_steer_obj.c) */
};

struct ogda_devx_obj {
	struct swnic *nic;      /* a reference of its own */
	enum sw_obj_kind kind;
	uint32_t id;
	struct sw_steer_ref steer;  /* SW_OBJ_STEER: what its destroy needs */
};

struct ogda_devx_pd {
	struct swnic *nic;
	uint32_t pdn;
};

struct ogda_devx_mr {
	struct swnic *nic;
	uint32_t lkey;
};

struct ogda_devx_umem {
	struct swnic *nic;
	uint32_t id;
};

struct ogda_devx_uar {
	struct swnic *nic;
	uint32_t page_id;
};

struct ogda_devx_event_channel {
	struct swnic *nic;
	struct swnic_event_channel *ch;  /* holds its own reference on nic */
};

static inline struct swnic *sw_dev_nic(struct ogda_devx *dev)
{
	return ((struct sw_dev *)dev)->nic;
}

/* Destroy-style commands report "still in use" as BAD_RES_STATE; the ops say IN_USE (sw_obj.c). */
doca_error_t sw_destroy_result(doca_error_t err, const void *out);

/* sw_obj.c: destroys object id of kind on nic with its destroy command (IN_USE while it is in use). */
doca_error_t sw_destroy_by_kind(struct swnic *nic, enum sw_obj_kind kind, uint32_t id);
/* The kind's name for messages ("CQ", "QP", ...). */
const char *sw_kind_name(enum sw_obj_kind kind);

/* sw_obj.c: the object and general-command ops. */
doca_error_t sw_general_cmd(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t sw_obj_create(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
			   struct ogda_devx_obj **obj);
doca_error_t sw_obj_modify(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t sw_obj_query(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t sw_obj_destroy(struct ogda_devx_obj *obj);

#endif /* OGDA_DEVX_SW_PRIV_H_ */
