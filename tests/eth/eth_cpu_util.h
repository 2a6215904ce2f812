/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU data path of DOCA Ethernet queues in the tests: a send queue with send tasks and a
 * managed receive queue (DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL), each connected to a progress engine,
 * and a bounded progress loop. The receive handlers record what they were given (a test may
 * keep the packets or give them back at once). Every step asserts (cmocka).
 */
#ifndef OGDA_TESTS_ETH_ETH_CPU_UTIL_H_
#define OGDA_TESTS_ETH_ETH_CPU_UTIL_H_

#include "doca_buf.h"
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
/* The context's state now. */
enum doca_ctx_states ecpu_state(struct doca_ctx *ctx);

#endif /* OGDA_TESTS_ETH_ETH_CPU_UTIL_H_ */
