/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of DOCA Ethernet queues in the tests: a send queue with send tasks and a
 * managed receive queue (DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) or one with receive tasks
 * (DOCA_ETH_RXQ_TYPE_REGULAR), each connected to a progress engine,
 * and a bounded progress loop. The receive handlers record what they were given (a test may
 * keep the packets or give them back at once). Every step asserts (cmocka).
 */
#ifndef OGDA_TESTS_ETH_ETH_CPU_UTIL_H_
#define OGDA_TESTS_ETH_ETH_CPU_UTIL_H_

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_eth_rxq.h"
#include "doca_eth_txq.h"
#include "doca_mmap.h"
#include "doca_pe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ECPU_MAX_PKTS 256u /* packets one receive record keeps */

/* A send queue with a CPU data path and what its callbacks saw. */
struct ecpu_tx {
	struct doca_eth_txq *q;
	struct doca_pe *pe;
	uint32_t ok, failed;        /* callbacks run */
	doca_error_t last_status;
	bool free_in_cb;            /* the callbacks doca_task_free() their task */
};

/* A managed receive queue and what its handlers saw. */
struct ecpu_rx {
	struct doca_eth_rxq *q;
	struct doca_pe *pe;
	struct doca_mmap *m;
	bool keep;                          /* the success handler keeps the packets (else gives them back) */
	uint32_t n;                         /* packets delivered */
	struct doca_buf *pkt[ECPU_MAX_PKTS];  /* kept packets, in arrival order (keep) */
	uint8_t data[ECPU_MAX_PKTS][128];   /* each packet's first bytes, copied in the handler */
	size_t len[ECPU_MAX_PKTS];
	uint32_t flow_tag[ECPU_MAX_PKTS], rx_hash[ECPU_MAX_PKTS];
	uint64_t ts[ECPU_MAX_PKTS];
	uint32_t errors;                    /* error handler calls */
	doca_error_t err_status;
	bool err_pkt_null;
};

#define ECPU_REG_TASKS 32u /* receive tasks of a REGULAR queue, at most */

/* A REGULAR receive queue, its tasks (task i: user data i, buffer i) and what its callbacks saw. */
struct ecpu_reg {
	struct doca_eth_rxq *q;
	struct doca_pe *pe;
	struct doca_mmap *m;
	struct doca_buf_inventory *inv;
	uint32_t ntasks;
	struct doca_eth_rxq_task_recv *task[ECPU_REG_TASKS]; /* NULL once freed */
	struct doca_buf *buf[ECPU_REG_TASKS];
	bool in_flight[ECPU_REG_TASKS];
	bool free_in_cb;                    /* the callbacks doca_task_free() their task */
	uint32_t n, ok, failed;             /* completions: all, successful, failed */
	uint32_t order[ECPU_MAX_PKTS];      /* completion i: the task's number (its user data) */
	doca_error_t status[ECPU_MAX_PKTS];
	size_t len[ECPU_MAX_PKTS];          /* the buffer's data_len */
	uint8_t data[ECPU_MAX_PKTS][128];   /* its first bytes */
	uint32_t flow_tag[ECPU_MAX_PKTS], rx_hash[ECPU_MAX_PKTS];
	uint8_t l3_ok[ECPU_MAX_PKTS], l4_ok[ECPU_MAX_PKTS];
	uint64_t ts[ECPU_MAX_PKTS];
};

/*
 * Starts @r on @dev: a REGULAR queue of @burst WQEs and packets up to @pkt_size bytes, @ntasks
 * tasks (at most ECPU_REG_TASKS) allocated, task i with an empty buffer of @buf_size bytes at
 * buf + i * buf_size (an mmap over [buf, + size) on @dev, an inventory), queue id @queue_id.
 */
void ecpu_reg_start(struct doca_dev *dev, uint8_t *buf, size_t size, uint32_t burst, uint32_t pkt_size,
		    uint32_t ntasks, uint32_t buf_size, uint16_t queue_id, struct ecpu_reg *r);
/* doca_task_submit of task @i (marked in flight on success); its result. */
doca_error_t ecpu_reg_submit(struct ecpu_reg *r, uint32_t i);
/* Stops the queue (in-flight tasks flushed, the rest freed), destroys it, its engine, buffers, inventory and mmap. */
void ecpu_reg_destroy(struct ecpu_reg *r);

/* Starts @t: @burst, checksum offloads @l3 / @l4, @tasks send tasks, its own engine. */
void ecpu_tx_start(struct doca_dev *dev, uint32_t burst, uint32_t tasks, bool l3, bool l4, struct ecpu_tx *t);
/* Stops (the engine drains it) and destroys the queue and its engine. */
void ecpu_tx_destroy(struct ecpu_tx *t);

/*
 * Starts @r on @dev: @burst buffers of @pkt_size bytes in [buf, + size) (a host mmap made here),
 * queue id @queue_id, its own engine.
 */
void ecpu_rx_start(struct doca_dev *dev, uint8_t *buf, size_t size, uint32_t burst, uint32_t pkt_size, uint16_t queue_id,
		   struct ecpu_rx *r);
/* Stops the queue unless stopped (its packets must have been given back), destroys it, its engine and its mmap. */
void ecpu_rx_destroy(struct ecpu_rx *r);

/* Progresses @pe until *counter >= want or @ms milliseconds passed; returns *counter. */
uint32_t ecpu_progress_until(struct doca_pe *pe, const uint32_t *counter, uint32_t want, unsigned ms);
/* doca_ctx_start(@ctx) fails with @want, logging @needle; the context stays IDLE. */
void ecpu_start_refused(struct doca_ctx *ctx, doca_error_t want, const char *needle);
/* The context's state now. */
enum doca_ctx_states ecpu_state(struct doca_ctx *ctx);

#endif /* OGDA_TESTS_ETH_ETH_CPU_UTIL_H_ */
