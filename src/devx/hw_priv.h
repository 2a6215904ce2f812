/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ConnectX device's state, shared by its files:
 *   hw.c        open / import / close / list, port / GID / EQ queries, the ops table
 *   hw_obj.c    general commands and DevX objects (create / modify / query / destroy)
 *   hw_mem.c    PD, MR, UMEM, UAR
 *   hw_event.c  DevX event channels
 *   hw_roce.c   RoCE next-hop MAC through an address handle
 *
 * Every handle (PD, MR, UMEM, UAR, object, channel) starts with a 64-bit tag, so that a
 * handle of the software NIC (whose structs start with a pointer) handed to a ConnectX op
 * is refused instead of misread; the device itself is recognised by its ops table.
 * Every handle holds a reference on its device: the ibv_context is closed when the device
 * and all its objects are gone.
 */
#ifndef OGDA_DEVX_HW_PRIV_H_
#define OGDA_DEVX_HW_PRIV_H_

#include "devx/devx.h"
#include "devx/rdma_core.h"
#include "doca_error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Tags: ASCII, and never a user-space pointer (not a canonical x86-64 / arm64 user address). */
#define HW_TAG_DEV 0x4f47444148574456ull  /* "OGDAHWDV" */
#define HW_TAG_OBJ 0x4f4744414857424full  /* "OGDAHWBO" */
#define HW_TAG_PD 0x4f47444148575044ull   /* "OGDAHWPD" */
#define HW_TAG_MR 0x4f4744414857524dull   /* "OGDAHWMR" */
#define HW_TAG_UMEM 0x4f4744414857554dull /* "OGDAHWUM" */
#define HW_TAG_UAR 0x4f47444148575541ull  /* "OGDAHWUA" */
#define HW_TAG_CH 0x4f47444148574543ull   /* "OGDAHWEC" */

struct hw_dev {
	struct ogda_devx base;              /* first: the ops see a struct ogda_devx */
	uint64_t tag;
	const struct ogda_rdma_core *rc;    /* the table the device was opened with */
	struct ibv_context *ctx;
	bool owns_ctx;                      /* false for an imported context */
	atomic_uint refs;                   /* the device itself + every live handle */
	pthread_mutex_t ah_lock;
	struct ibv_pd *ah_pd;               /* resolve_rmac's PD, made on first use, freed with the device */
};

/* Kinds of object obj_create makes (the same set as the software NIC). */
enum hw_obj_kind {
	HW_OBJ_CQ,
	HW_OBJ_QP,
	HW_OBJ_RMP,
	HW_OBJ_PD,
	HW_OBJ_TIS,
	HW_OBJ_SQ,
	HW_OBJ_TD,
	HW_OBJ_RQ,
	HW_OBJ_RQT,
	HW_OBJ_TIR,
	HW_OBJ_FLOW_TABLE,
	HW_OBJ_FLOW_GROUP,
	HW_OBJ_FTE,
	HW_OBJ_FLOW_COUNTER,
};

struct ogda_devx_obj {
	uint64_t tag;
	struct hw_dev *dev;
	struct mlx5dv_devx_obj *obj;
	enum hw_obj_kind kind;
	uint32_t id;                        /* cqn / qpn / rmpn / ... from the create out mailbox (an FTE: flow_index) */
};

struct ogda_devx_pd {
	uint64_t tag;
	struct hw_dev *dev;
	struct ibv_pd *pd;
	uint32_t pdn;
	bool owned;                         /* false for an imported ibv_pd */
};

struct ogda_devx_mr {
	uint64_t tag;
	struct hw_dev *dev;
	struct ibv_mr *mr;
};

struct ogda_devx_umem {
	uint64_t tag;
	struct hw_dev *dev;
	struct mlx5dv_devx_umem *umem;
};

struct ogda_devx_uar {
	uint64_t tag;
	struct hw_dev *dev;
	struct mlx5dv_devx_uar *uar;
};

struct ogda_devx_event_channel {
	uint64_t tag;
	struct hw_dev *dev;
	struct mlx5dv_devx_event_channel *ch;
};

extern const struct ogda_devx_ops ogda_hw_ops;

/* The hw_dev behind dev, or NULL (logged) when dev is NULL or not a ConnectX device. */
struct hw_dev *hw_dev_of(struct ogda_devx *dev);
/* True when handle is non-NULL and starts with tag; logs "<what> ..." otherwise. */
bool hw_handle_ok(const void *handle, uint64_t tag, const char *what);

void hw_dev_get(struct hw_dev *d);
void hw_dev_put(struct hw_dev *d);

/*
 * DOCA_SUCCESS when an rdma-core entry point is present; otherwise logs that the loaded
 * rdma-core lacks it and returns DOCA_ERROR_NOT_SUPPORTED.
 */
doca_error_t hw_need(const struct hw_dev *d, bool present, const char *symbol);

/* The errno of a failed rdma-core call that returns an int (0 = success, else an errno value or -1). */
int hw_call_errno(int ret);

/* Logs a failed rdma-core call and returns DOCA_ERROR_DRIVER. */
doca_error_t hw_driver_error(const struct hw_dev *d, const char *call, int err);

/* ---- ops implemented outside hw.c ---- */
doca_error_t hw_general_cmd(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t hw_obj_create(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
			   struct ogda_devx_obj **obj);
doca_error_t hw_obj_modify(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t hw_obj_query(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
doca_error_t hw_obj_destroy(struct ogda_devx_obj *obj);

doca_error_t hw_pd_alloc(struct ogda_devx *dev, struct ogda_devx_pd **pd, uint32_t *pdn);
doca_error_t hw_pd_free(struct ogda_devx_pd *pd);
doca_error_t hw_mr_reg(struct ogda_devx_pd *pd, void *addr, size_t len, uint32_t access, int dmabuf_fd,
		       uint64_t dmabuf_offset, struct ogda_devx_mr **mr, uint32_t *lkey, uint32_t *rkey);
doca_error_t hw_mr_dereg(struct ogda_devx_mr *mr);
doca_error_t hw_umem_reg(struct ogda_devx *dev, void *addr, size_t len, uint32_t access, int dmabuf_fd,
			 uint64_t dmabuf_offset, struct ogda_devx_umem **umem, uint32_t *umem_id);
doca_error_t hw_umem_dereg(struct ogda_devx_umem *umem);
doca_error_t hw_uar_alloc(struct ogda_devx *dev, enum ogda_devx_uar_type type, struct ogda_devx_uar **uar,
			  struct ogda_devx_uar_info *info);
doca_error_t hw_uar_free(struct ogda_devx_uar *uar);

doca_error_t hw_event_channel_create(struct ogda_devx *dev, struct ogda_devx_event_channel **ch, int *fd);
doca_error_t hw_event_channel_destroy(struct ogda_devx_event_channel *ch);
doca_error_t hw_event_subscribe(struct ogda_devx_event_channel *ch, struct ogda_devx_obj *obj,
				const uint16_t *types, size_t ntypes, uint64_t cookie);
doca_error_t hw_event_read(struct ogda_devx_event_channel *ch, struct ogda_devx_event *ev);

/* hw_steer.c: the receive root through an rdma-core steering rule (devx.h rx_root_attach). */
doca_error_t hw_rx_root_attach(struct ogda_devx *dev, struct ogda_devx_obj *table, uint32_t table_id,
			       struct ogda_devx_rx_root **root);
doca_error_t hw_rx_root_detach(struct ogda_devx_rx_root *root);
doca_error_t hw_resolve_rmac(struct ogda_devx *dev, uint8_t port, uint32_t sgid_index, const uint8_t dgid[16],
			     uint8_t mac[6]);

#endif /* OGDA_DEVX_HW_PRIV_H_ */
