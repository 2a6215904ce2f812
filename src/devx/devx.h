/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device interface: the seam between the library and a NIC.
 *
 * Two implementations sit behind one ops table: a ConnectX through rdma-core DevX (hw.c)
 * and the software NIC (sw.c). Objects are created, modified, queried and destroyed from
 * PRM command bytes built in src/prm; the hardware hands those bytes to
 * mlx5dv_devx_obj_*, the software NIC decodes and executes them. Everything above this
 * interface is the same code for both.
 *
 * Conventions for every op:
 *  - Command ops (general_cmd, obj_*) return DOCA_SUCCESS when the command executed with
 *    status OK; otherwise the out mailbox carries the PRM status and syndrome (when the
 *    device produced one) and the return value is prm_cmd_out_status()'s mapping of it.
 *  - Bad arguments return DOCA_ERROR_INVALID_VALUE and log; nothing is partially created.
 *  - Destroying an object other objects still use returns DOCA_ERROR_IN_USE.
 */
#ifndef OGDA_DEVX_DEVX_H_
#define OGDA_DEVX_DEVX_H_

#include "doca_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ogda_devx;
struct ogda_devx_obj;
struct ogda_devx_pd;
struct ogda_devx_mr;
struct ogda_devx_umem;
struct ogda_devx_uar;
struct ogda_devx_event_channel;
struct ogda_devx_rx_root;

/* UAR page kinds (mlx5dv: BF = write-combining, NC = uncached). */
enum ogda_devx_uar_type {
	OGDA_DEVX_UAR_BF = 0,
	OGDA_DEVX_UAR_NC = 1,
	OGDA_DEVX_UAR_NC_DEDICATED = 2,
};

struct ogda_devx_uar_info {
	void *reg_addr;      /* doorbell / BlueFlame register (base_addr + 0x800 + k * bf_reg_size) */
	void *base_addr;     /* start of the 4 KiB UAR page */
	uint32_t page_id;    /* goes into qpc.uar_page / cqc.uar_page */
	uint32_t bf_reg_size;/* bytes of the register, both halves */
};

/* Memory access rights for MRs and UMEMs: IBV_ACCESS_* values. */
enum ogda_devx_access {
	OGDA_ACCESS_LOCAL_WRITE = 1u << 0,
	OGDA_ACCESS_REMOTE_WRITE = 1u << 1,
	OGDA_ACCESS_REMOTE_READ = 1u << 2,
	OGDA_ACCESS_REMOTE_ATOMIC = 1u << 3,
};

/* Where a registered range lives; decides how the device moves its bytes. */
enum ogda_mem_kind {
	OGDA_MEM_HOST = 0,   /* host memory, pinned or not (host-visible) */
	OGDA_MEM_GPU = 1,    /* GPU device memory (not host-visible) */
};

enum ogda_link_layer {
	OGDA_LINK_LAYER_INFINIBAND = 1,
	OGDA_LINK_LAYER_ETHERNET = 2,
};

struct ogda_devx_port_attr {
	uint8_t state;        /* IBV_PORT_* numbering: 4 = ACTIVE */
	uint8_t max_mtu;      /* ibv_mtu numbering: 1 = 256 ... 5 = 4096 */
	uint8_t active_mtu;
	uint8_t link_layer;   /* enum ogda_link_layer */
	uint16_t lid;         /* InfiniBand only */
	uint32_t gid_tbl_len;
};

/*
 * Event types an object can be subscribed to (mlx5 EQE event_type values, PRM "Events"):
 * the completion event of an armed CQ, and the errors that DOCA Verbs reports as async
 * events.
 */
enum ogda_devx_event_type {
	OGDA_DEVX_EVENT_COMP = 0x00,             /* CQ: a completion after the CQ was armed */
	OGDA_DEVX_EVENT_CQ_ERROR = 0x04,         /* CQ: overrun or CQE write failure */
	OGDA_DEVX_EVENT_WQ_CATAS_ERROR = 0x05,   /* QP: moved to ERR by a local error */
	OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR = 0x10, /* QP: the responder saw an invalid request */
	OGDA_DEVX_EVENT_WQ_ACCESS_ERROR = 0x11,  /* QP: the responder saw a remote access violation */
	OGDA_DEVX_EVENT_SRQ_CATAS_ERROR = 0x12,  /* SRQ (RMP) moved to ERR */
};

/* One event read from a channel. */
struct ogda_devx_event {
	uint64_t cookie;       /* what the subscription passed */
	uint8_t type;          /* enum ogda_devx_event_type */
	uint8_t syndrome;      /* error events: the CQE syndrome that caused it, when known (else 0) */
	uint32_t obj_num;      /* cqn / qpn / rmpn the event names */
};

struct ogda_devx_ops {
	const char *kind; /* "swnic" or "mlx5" */

	void (*close)(struct ogda_devx *dev);

	/* Commands that create no object: QUERY_HCA_CAP, QUERY_ROCE_ADDRESS, QUERY_HCA_VPORT_GID. */
	doca_error_t (*general_cmd)(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen);

	/* CREATE_CQ, CREATE_QP, CREATE_RMP, ...; the object remembers how to destroy itself. */
	doca_error_t (*obj_create)(struct ogda_devx *dev, const void *in, size_t inlen, void *out, size_t outlen,
				   struct ogda_devx_obj **obj);
	/* Modify commands (QP transitions, MODIFY_CQ, MODIFY_RMP) on the object they name. */
	doca_error_t (*obj_modify)(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
	doca_error_t (*obj_query)(struct ogda_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen);
	doca_error_t (*obj_destroy)(struct ogda_devx_obj *obj);

	doca_error_t (*pd_alloc)(struct ogda_devx *dev, struct ogda_devx_pd **pd, uint32_t *pdn);
	doca_error_t (*pd_free)(struct ogda_devx_pd *pd);

	/*
	 * Memory region for data: host or GPU address, or a dmabuf fd + offset (addr is then the iova).
	 * dmabuf_fd -1 means none; any other negative value is refused (DOCA_ERROR_INVALID_VALUE).
	 */
	doca_error_t (*mr_reg)(struct ogda_devx_pd *pd, void *addr, size_t len, uint32_t access, int dmabuf_fd,
			       uint64_t dmabuf_offset, struct ogda_devx_mr **mr, uint32_t *lkey, uint32_t *rkey);
	doca_error_t (*mr_dereg)(struct ogda_devx_mr *mr);

	/* Memory for queues and doorbell records, referenced by umem id from CREATE_* commands. */
	doca_error_t (*umem_reg)(struct ogda_devx *dev, void *addr, size_t len, uint32_t access, int dmabuf_fd,
				 uint64_t dmabuf_offset, struct ogda_devx_umem **umem, uint32_t *umem_id);
	doca_error_t (*umem_dereg)(struct ogda_devx_umem *umem);

	doca_error_t (*uar_alloc)(struct ogda_devx *dev, enum ogda_devx_uar_type type, struct ogda_devx_uar **uar,
				  struct ogda_devx_uar_info *info);
	doca_error_t (*uar_free)(struct ogda_devx_uar *uar);

	doca_error_t (*query_port)(struct ogda_devx *dev, uint8_t port, struct ogda_devx_port_attr *attr);
	doca_error_t (*query_gid)(struct ogda_devx *dev, uint8_t port, uint32_t index, uint8_t gid[16]);
	/* Completion event queue number for cqc.c_eqn. */
	doca_error_t (*query_eqn)(struct ogda_devx *dev, uint32_t vector, uint32_t *eqn);

	/*
	 * Event channels (mlx5dv_devx_create_event_channel on a ConnectX). *fd is non-blocking
	 * and becomes readable (poll/epoll POLLIN) while events are pending; it stays owned by
	 * the channel. Destroying a channel drops its pending events and subscriptions.
	 */
	doca_error_t (*event_channel_create)(struct ogda_devx *dev, struct ogda_devx_event_channel **ch, int *fd);
	doca_error_t (*event_channel_destroy)(struct ogda_devx_event_channel *ch);
	/*
	 * Delivers the events of the given types raised on obj (a CQ, QP or RMP) to ch, tagged
	 * with cookie. One subscription per (channel, object); it ends when obj is destroyed.
	 */
	doca_error_t (*event_subscribe)(struct ogda_devx_event_channel *ch, struct ogda_devx_obj *obj,
					const uint16_t *types, size_t ntypes, uint64_t cookie);
	/* The oldest pending event; DOCA_ERROR_AGAIN when none is pending (never blocks). */
	doca_error_t (*event_read)(struct ogda_devx_event_channel *ch, struct ogda_devx_event *ev);

	/*
	 * RoCE: the Ethernet address of the next hop towards dgid, leaving port through the
	 * local GID sgid_index (the kernel's neighbour table on a ConnectX; derived from the
	 * GID on the software NIC). DOCA_ERROR_NOT_FOUND when it cannot be resolved.
	 */
	doca_error_t (*resolve_rmac)(struct ogda_devx *dev, uint8_t port, uint32_t sgid_index, const uint8_t dgid[16],
				     uint8_t mac[6]);
	/*
	 * Steers every received frame into NIC RX flow table @table (an obj_create'd CREATE_FLOW_TABLE,
	 * number @table_id) until rx_root_detach. The software NIC makes it its root table
	 * (SET_FLOW_TABLE_ROOT; detach: the same command with op_mod 1). On a ConnectX the kernel owns
	 * the NIC RX root and refuses that command through DevX: the table is reached from the kernel's
	 * steering by an rdma-core rule that matches every frame and forwards to it (mlx5dv flow
	 * matcher of type NIC_RX, empty criteria; mlx5dv_create_flow with a DEST_DEVX action); such a
	 * table must have level 1 or more. Failures are logged; nothing stays attached.
	 */
	doca_error_t (*rx_root_attach)(struct ogda_devx *dev, struct ogda_devx_obj *table, uint32_t table_id,
				       struct ogda_devx_rx_root **root);
	doca_error_t (*rx_root_detach)(struct ogda_devx_rx_root *root);
};

/* Common head of every device implementation's state. */
struct ogda_devx {
	const struct ogda_devx_ops *ops;
	char name[64];        /* "swnic0", "mlx5_0" */
};

#endif /* OGDA_DEVX_DEVX_H_ */
