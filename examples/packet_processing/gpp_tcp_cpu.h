/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing's HTTP server mode, the CPU's part: TCP connection set-up and tear-down
 * to port 80.
 *
 * Steering (gpp_tcp_cpu_flow): the root's TCP class goes to a CONTROL pipe "TCP_GATE" whose
 * entries send SYN, FIN and RST segments to port 80 to the CPU's receive queues (RSS) and
 * everything else TCP to a BASIC pipe "HTTP_SESSIONS" with one entry per accepted connection
 * (client address and port) steering it to the HTTP queues; what no session matches goes on to
 * the TCP class pipe (the GPU's TCP queues), as without -s.
 *
 * The CPU thread (DOCA Ethernet CPU data path: MANAGED_MEMPOOL receive queues and a send queue
 * with send tasks, one progress engine) answers
 *   SYN: adds the session and its flow entry, then a SYN-ACK (MSS 1460) with a fresh initial
 *        sequence number; a repeated SYN gets the same SYN-ACK again;
 *   FIN: a FIN-ACK (sequence: the FIN's acknowledgement; acknowledging the FIN), and removes the
 *        session and its entry;
 *   RST: removes the session and its entry.
 * The GPU answers the GETs of established connections (gpp_http.h).
 */
#ifndef GPP_TCP_CPU_H_
#define GPP_TCP_CPU_H_

#include <stdint.h>

#include "eth_rx_sample.h"
#include "eth_sample.h"

struct gpp_tcp_cpu;

/* What the CPU saw and did. */
struct gpp_tcp_cpu_stats {
	uint64_t packets;
	uint64_t syn, fin, rst;          /* segments with these flags */
	uint64_t opened, closed;         /* sessions */
	uint64_t answers;                /* SYN-ACKs and FIN-ACKs sent (completed) */
	uint64_t failures;               /* answers or flow entries that failed (each logged) */
};

/*
 * The CPU's @p nq receive queues (ids GPP_TCP_CPU_QUEUE_ID0 ..) and send queue on @p s's device,
 * connected to one progress engine. 0, or -1 (said why; gpp_tcp_cpu_destroy cleans up).
 */
int gpp_tcp_cpu_create(struct eth_sample *s, uint32_t nq, struct gpp_tcp_cpu **out);
/*
 * The steering above on @p f (classes added, not committed): the TCP class's root entry goes to the
 * gate; sessions go to RSS over @p http_ids[0 .. nq). 0 or -1.
 */
int gpp_tcp_cpu_flow(struct gpp_tcp_cpu *c, struct eth_flow_sample *f, const uint16_t *http_ids, uint32_t nq);
/* Starts the CPU thread. 0 or -1. */
int gpp_tcp_cpu_start(struct gpp_tcp_cpu *c);
/* Stops the thread (no more flow entries change); NULL or a stopped one is fine. */
void gpp_tcp_cpu_stop(struct gpp_tcp_cpu *c);
/* Stops the thread (when started), the queues, and frees everything; NULL is fine. */
void gpp_tcp_cpu_destroy(struct gpp_tcp_cpu *c);
/* A snapshot of the counters (exact once the thread stopped). */
void gpp_tcp_cpu_get_stats(struct gpp_tcp_cpu *c, struct gpp_tcp_cpu_stats *st);

#endif /* GPP_TCP_CPU_H_ */
