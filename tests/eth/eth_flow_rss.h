/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow steering for the Ethernet CPU data path tests: port 0 of a device, a control root pipe
 * with one entry sending IPv4 UDP to one destination port by RSS to one queue id (the queue's
 * doca_eth_rxq_apply_queue_id). Every step asserts (cmocka).
 */
#ifndef OGDA_TESTS_ETH_ETH_FLOW_RSS_H_
#define OGDA_TESTS_ETH_ETH_FLOW_RSS_H_

#include <stdint.h>

#include "flow/flow_fixture.h"

struct efl {
	struct ffx fx;
	struct doca_flow_port *port;
	struct doca_flow_pipe *root;
	uint16_t qid; /* the RSS queue array (of one) */
};

/* DOCA Flow on @dev: IPv4 UDP to @dport goes to queue id @qid. */
void efl_udp_rss_start(struct doca_dev *dev, uint16_t dport, uint16_t qid, struct efl *e);
/* Stops the port and DOCA Flow. */
void efl_stop(struct efl *e);

#endif /* OGDA_TESTS_ETH_ETH_FLOW_RSS_H_ */
