/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue ids of started Ethernet receive queues: what doca_eth_rxq_apply_queue_id() gives a
 * queue and what DOCA Flow's RSS forwarding names (fwd.rss.queues_array). One registry per
 * process, keyed by (device, queue id); a queue is in it from doca_ctx_start() to
 * doca_ctx_stop().
 */
#ifndef OGDA_ETH_ETH_QUEUE_IDS_H_
#define OGDA_ETH_ETH_QUEUE_IDS_H_

#include "doca_error.h"

#include <stdint.h>

struct doca_dev;

/*
 * The RQ number of the started receive queue of @dev whose queue id is @queue_id.
 * DOCA_ERROR_NOT_FOUND (logged by the caller) when no started queue of @dev has that id;
 * DOCA_ERROR_INVALID_VALUE for a NULL argument.
 */
doca_error_t ogda_eth_rxq_find_rqn(const struct doca_dev *dev, uint16_t queue_id, uint32_t *rqn);

/* Registry maintenance for rxq_start.c: add fails with DOCA_ERROR_ALREADY_EXIST for a taken id. */
doca_error_t ogda_eth_rxq_ids_add(const struct doca_dev *dev, uint16_t queue_id, uint32_t rqn);
void ogda_eth_rxq_ids_remove(const struct doca_dev *dev, uint16_t queue_id);

#endif /* OGDA_ETH_ETH_QUEUE_IDS_H_ */
