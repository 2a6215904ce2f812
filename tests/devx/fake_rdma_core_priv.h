/* SPDX-License-Identifier: BSD-3-Clause */
/* State shared by the two halves of the fake: verbs (fake_rdma_core.c) and DevX (fake_rdma_core_devx.c). */
#ifndef OGDA_TESTS_DEVX_FAKE_RDMA_CORE_PRIV_H_
#define OGDA_TESTS_DEVX_FAKE_RDMA_CORE_PRIV_H_

#include "fake_rdma_core.h"
#include "prm/prm_destroy.h"
#include "swnic/swnic.h"

#include <pthread.h>

#define FAKE_MAX_CHANNELS 16
#define FAKE_MAX_SUBS 64
#define FAKE_MAX_PENDING 64
#define FAKE_EQE_SIZE 64

struct fake_ctx {
	struct ibv_context pub;     /* first: what rdma-core hands out */
	struct swnic *nic;
	uint32_t flags;             /* mlx5dv_context_attr.flags at open */
};

struct fake_state {
	pthread_mutex_t lock;
	struct ogda_rdma_core table;
	struct cmd_log log;
	struct fake_rdma_core_counts counts;
	struct fake_rdma_core_last last;
	int fail_next;
	bool old_kernel;
	bool nc_dedicated;
	int list_errno;
	enum ibv_mtu max_mtu, active_mtu;
	uint32_t next_dmabuf_id;
	int backing_fd;             /* fake_rdma_core_set_dmabuf_backing: this dmabuf fd ... */
	void *backing_base;         /* ... stands for host memory here */
	struct fake_channel *channels[FAKE_MAX_CHANNELS];
};

/* rdma-core leaves this struct opaque: each provider (here, the fake) defines it. */
struct mlx5dv_devx_obj {
	struct fake_ctx *ctx;
	uint16_t create_opcode;
	uint32_t id;
	/* The destroy command, prepared at create as the kernel does (0 bytes: none known). */
	uint8_t destroy_in[PRM_DESTROY_CMD_MAX];
	size_t destroy_len;
};

extern struct fake_state fake;

/* True (and errno set) when an injected failure is due: the caller fails with it. */
bool fake_take_failure(int *err);

/* The kernel's errno for a failed command's status (mlx5 cmd_status_to_err). */
int fake_status_errno(uint8_t status);

void fake_count(int *counter, int delta);

/* Steering rules (fake_rdma_core_flow.c): fills the table's flow entries. */
void fake_flow_fill(struct ogda_mlx5dv *dv);

/* DevX half: fills the table's DevX entries. */
void fake_devx_fill(struct ogda_mlx5dv *dv);
/* Drops every subscription of a destroyed object. */
void fake_devx_forget_obj(const struct mlx5dv_devx_obj *obj);

#endif /* OGDA_TESTS_DEVX_FAKE_RDMA_CORE_PRIV_H_ */
