/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing's TCP session table (HTTP server mode): the connections the CPU accepted,
 * keyed by the client's address and port (the server's are fixed), each with the flow entry that
 * steers it to the HTTP queues and the initial sequence number the CPU answered its SYN with (a
 * repeated SYN gets the same answer). Open addressing with linear probing; removal shifts the
 * following entries back, so lookups never need tombstones. One thread uses it (the CPU thread).
 */
#ifndef GPP_SESSIONS_H_
#define GPP_SESSIONS_H_

#include <stdint.h>

#define GPP_SESSIONS_LOG 12u  /* 4096 slots: at most 3072 open connections (a 3/4 load) */

struct doca_flow_pipe_entry;

struct gpp_session {
	uint32_t client_ip;     /* network order, as on the wire */
	uint16_t client_port;   /* network order */
	uint8_t used;
	uint32_t isn;           /* the server's initial sequence number */
	struct doca_flow_pipe_entry *entry;
};

struct gpp_sessions {
	struct gpp_session slot[1u << GPP_SESSIONS_LOG];
	uint32_t count;
};

/* The session of the client (@p ip, @p port), or NULL. */
struct gpp_session *gpp_sessions_find(struct gpp_sessions *t, uint32_t ip, uint16_t port);
/* A new session for the client (its fields zero but the key), or NULL when the table is at its load limit. */
struct gpp_session *gpp_sessions_add(struct gpp_sessions *t, uint32_t ip, uint16_t port);
/* Removes @p s (from gpp_sessions_find or _add). */
void gpp_sessions_remove(struct gpp_sessions *t, struct gpp_session *s);

#endif /* GPP_SESSIONS_H_ */
