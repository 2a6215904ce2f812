/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive steering for the Ethernet tests, built from PRM commands through the device interface
 * (what DOCA Flow does underneath): a transport domain, a TIR (direct to one RQ, or indirect over
 * an RQT of several with Toeplitz hashing), a root NIC RX flow table with one group matching IPv4
 * UDP to one destination port, one entry forwarding there and counting. Every step asserts.
 */
#ifndef OGDA_TESTS_ETH_ETH_STEER_H_
#define OGDA_TESTS_ETH_ETH_STEER_H_

#include <stdint.h>

struct doca_dev;
struct ogda_devx;
struct ogda_devx_obj;

#define EST_FLOW_TAG 0x4242u

struct est {
	struct ogda_devx *devx;
	struct ogda_devx_obj *td, *rqt, *tir, *ft, *fg, *fte, *counter;
	uint32_t tdn, rqtn, tirn, ft_id, fg_id, counter_id;
};

/* Frames of IPv4 UDP to @dport go to the RQs @rqn[0 .. n) (n == 1: a direct TIR), counted. */
void est_udp_to_rqs(struct doca_dev *dev, const uint32_t *rqn, uint32_t n, uint16_t dport, struct est *e);
/* Packets the entry counted (QUERY_FLOW_COUNTER). */
uint64_t est_counted(struct est *e);
/* Whether destroying the TIR is refused while the entry forwards to it (it must be). */
int est_tir_busy(struct est *e);
/* Destroys everything, in reverse order. */
void est_destroy(struct est *e);

#endif /* OGDA_TESTS_ETH_ETH_STEER_H_ */
