/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the DOCA Flow tests: a device opened by name ("swnic0", or the fake rdma-core's
 * ConnectX "mlx5_0"), a host GPU handle, a host buffer, and started DOCA Ethernet receive
 * queues with queue ids (what RSS forwards name). Every helper asserts (cmocka). Run with
 * OPENGDA_SWNIC_ADDR= OPENGDA_DISABLE_CUDA=1 OPENGDA_SWNIC_COUNT=1 (tests/flow/CMakeLists.txt).
 */
#ifndef OGDA_TESTS_FLOW_FLOW_FIXTURE_H_
#define OGDA_TESTS_FLOW_FLOW_FIXTURE_H_

#include "doca_dev.h"
#include "doca_eth_rxq.h"
#include "doca_flow.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"

#include <stdint.h>

#define FFX_QUEUES 4u
#define FFX_BURST 16u
#define FFX_PKT 2048u
#define FFX_BUF_LEN (FFX_QUEUES * FFX_BURST * FFX_PKT)

struct ffx_rxq {
	struct doca_eth_rxq *q;
	struct doca_mmap *m;
	uint16_t id;
	uint32_t rqn;
	struct doca_gpu_eth_rxq *h;
};

struct ffx {
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	uint8_t *buf;
	struct ffx_rxq rxq[FFX_QUEUES];
};

/* Opens device @name with a host GPU handle and a buffer for FFX_QUEUES receive queues. */
void ffx_open(struct ffx *f, const char *name);
void ffx_close(struct ffx *f);

/* Starts receive queue @i (queue memory in CPU_GPU memory, as a ConnectX needs) with queue id @id. */
void ffx_rxq_start(struct ffx *f, unsigned i, uint16_t id);
/* The same with queue memory of type @mtype. */
void ffx_rxq_start_mem(struct ffx *f, unsigned i, uint16_t id, enum doca_gpu_mem_type mtype);
void ffx_rxq_stop(struct ffx *f, unsigned i);

/* doca_flow_init with @pipe_queues queues, @nr_counters counters, an entry callback (or NULL). */
void ffx_flow_init(uint16_t pipe_queues, uint32_t nr_counters, doca_flow_entry_process_cb cb);
/* A started port on f->dev with port id @port_id. */
struct doca_flow_port *ffx_port_start(struct ffx *f, uint16_t port_id);

/* A pipe configuration with the usual setters applied (name, type, root, entries). */
struct doca_flow_pipe_cfg *ffx_pipe_cfg(struct doca_flow_port *port, const char *name, enum doca_flow_pipe_type type,
					bool is_root, uint32_t nr_entries);

/* Forwards. */
struct doca_flow_fwd ffx_fwd_rss(uint16_t *queues, int n, uint32_t outer_flags);
struct doca_flow_fwd ffx_fwd_pipe(struct doca_flow_pipe *next);
struct doca_flow_fwd ffx_fwd_type(enum doca_flow_fwd_type type);

#endif /* OGDA_TESTS_FLOW_FLOW_FIXTURE_H_ */
