/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A recording fake of rdma-core for the ConnectX device (src/devx/hw*.c), installed as a
 * whole through ogda_rdma_core_override().
 *
 * It shows two devices: "mlx5_0" (mlx5dv_is_supported) and "rxe0" (not mlx5). mlx5_0 is
 * backed by software NIC 0: every DevX command is recorded (struct cmd_log, in order) and
 * then executed by the software NIC's command executor, PDs / umems / UARs / MRs come from
 * the software NIC's tables, so numbers, statuses and UAR pages are those of a device.
 * Failed commands behave as on a current kernel: NULL / non-zero with errno EREMOTEIO and
 * the out mailbox (status, syndrome) copied back; destroys that the device refuses return
 * the kernel's errno for the status (BAD_RES_STATE: EINVAL). Event channels are eventfds;
 * subscriptions are recorded, and fake_rdma_core_raise_event() delivers an EQE built as
 * the device writes it.
 *
 * One fake per process; its functions are thread-safe.
 */
#ifndef OGDA_TESTS_DEVX_FAKE_RDMA_CORE_H_
#define OGDA_TESTS_DEVX_FAKE_RDMA_CORE_H_

#include "cmd_log.h"
#include "devx/rdma_core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_MLX5_NAME "mlx5_0"
#define FAKE_OTHER_NAME "rxe0"
#define FAKE_MLX5_GUID 0x0002c90300a1b2c3ull   /* host order */
#define FAKE_OTHER_GUID 0x0011223344556677ull
#define FAKE_DMABUF_UMEM_ID_BASE 0x7000u       /* ids of dmabuf umems (not in the software NIC) */
#define FAKE_DMABUF_MR_KEY_BASE 0x70000u       /* keys of dmabuf MRs */
#define FAKE_GID_TBL_LEN 1

/* Live objects, to check that every path releases what it took. */
struct fake_rdma_core_counts {
	int contexts, pds, mrs, umems, uars, objs, channels, ahs, matchers, flows;
};

/* Arguments of the last call of some entry points, for exact checks. */
struct fake_rdma_core_last {
	uint32_t open_flags;                   /* mlx5dv_context_attr.flags */
	struct ogda_mlx5dv_umem_in umem_in;    /* mlx5dv_devx_umem_reg_ex */
	void *umem_addr;                       /* mlx5dv_devx_umem_reg */
	size_t umem_size;
	uint64_t dmabuf_offset, dmabuf_iova;   /* ibv_reg_dmabuf_mr */
	size_t dmabuf_len;
	int dmabuf_fd, dmabuf_access;
	struct ibv_ah_attr ah_attr;            /* ibv_create_ah */
	uint32_t uar_flags;                    /* mlx5dv_devx_alloc_uar */
	int channel_flags;                     /* mlx5dv_devx_create_event_channel */
	uint64_t sub_cookie;                   /* mlx5dv_devx_subscribe_devx_event */
	uint16_t sub_events_sz;
	uint16_t sub_types[16];
	uint32_t sub_obj_num;
	uint32_t eqn_vector;                   /* mlx5dv_devx_query_eqn */
	/* mlx5dv_create_flow_matcher */
	int matcher_type;                      /* enum ibv_flow_attr_type */
	uint32_t matcher_flags;
	uint16_t matcher_priority;
	uint8_t matcher_criteria;              /* match_criteria_enable */
	uint64_t matcher_comp_mask;
	int matcher_ft_type;                   /* enum mlx5dv_flow_table_type */
	size_t matcher_mask_sz;
	bool matcher_mask_zero;                /* every byte of the mask 0 */
	/* mlx5dv_create_flow */
	size_t flow_num_actions;
	int flow_action_type;                  /* enum mlx5dv_flow_action_type of action 0 */
	const struct mlx5dv_devx_obj *flow_dest;/* action 0's DevX object (compare only: it may be freed) */
	uint32_t flow_dest_id;                 /* that object's number (a flow table id) */
	uint16_t flow_dest_opcode;             /* and the command that created it (the object may be gone) */
	size_t flow_value_sz;
	bool flow_value_zero;
	int flows_destroyed, matchers_destroyed;
};

/*
 * Steering rules (fake_rdma_core_flow.c): mlx5dv_create_flow_matcher / mlx5dv_create_flow and
 * their destroys are recorded (struct fake_rdma_core_last, counts, a CMD_RX_ROOT log entry per rule
 * made and destroyed). A NIC_RX rule matching everything whose action is DEST_DEVX to a flow table
 * plays the kernel's root forwarding to that table: the software NIC behind the fake gets that
 * table as its root (SET_FLOW_TABLE_ROOT, not logged), so frames are steered as on a ConnectX.
 */

/*
 * NULL when the last rule made is the receive root's for flow table @table_id: a NIC_RX matcher of
 * type NORMAL, priority 0, no flags, an all-zero fte_match_param mask with criteria 0, and one
 * DEST_DEVX action naming that flow table's object with an all-zero match value; else what differs.
 */
const char *fake_rdma_core_root_rule_check(uint32_t table_id);

/* Resets the fake (log, counts, knobs) and installs it. */
void fake_rdma_core_install(void);
/* Goes back to the real rdma-core (the fake's state stays readable). */
void fake_rdma_core_uninstall(void);

/* The installed table: tests may clear entries to play an rdma-core that lacks them. */
struct ogda_rdma_core *fake_rdma_core_table(void);
struct cmd_log *fake_rdma_core_log(void);
void fake_rdma_core_counts(struct fake_rdma_core_counts *c);
const struct fake_rdma_core_last *fake_rdma_core_last(void);

/* The next entry point that can fail fails with errno err, reaching no device. */
void fake_rdma_core_fail_next(int err);
/* Failed commands as on kernels without EREMOTEIO: out not copied back, errno from the status. */
void fake_rdma_core_set_old_kernel(bool on);
/* MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED as rdma-core 45+ (true, the default) or older (EOPNOTSUPP). */
void fake_rdma_core_set_nc_dedicated(bool supported);
/*
 * Makes dmabuf fd @fd stand for the host memory at @base (what a host GPU handle's "GPU memory"
 * is): a dmabuf umem of that fd is then the software NIC's umem of base + offset, so queues placed
 * in it run. base NULL clears it. Other dmabuf umems stay ids the software NIC does not know.
 */
void fake_rdma_core_set_dmabuf_backing(int fd, void *base);
/* ibv_get_device_list returns NULL with this errno (0: the two devices). */
void fake_rdma_core_set_list_errno(int err);
/* Port 1 as ibv_query_port reports it (defaults: the software NIC's: 4096 / 4096). */
void fake_rdma_core_set_port_mtu(enum ibv_mtu max_mtu, enum ibv_mtu active_mtu);

/*
 * The EQE the device writes for an event: event_type at byte 1; the object number at data
 * byte 0 (CQ error) or data byte 24 (completion, QP and SRQ events), data starting at byte
 * 32; every other byte 0xa5, so that a reader at the wrong offset sees garbage.
 */
void fake_rdma_core_build_eqe(uint8_t type, uint32_t obj_num, uint8_t eqe[64]);
/* Delivers that EQE to every channel subscribed to object obj_num for type; returns how many. */
int fake_rdma_core_raise_event(uint8_t type, uint32_t obj_num);

#endif /* OGDA_TESTS_DEVX_FAKE_RDMA_CORE_H_ */
