/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/* doca_verbs_server_client: receiving with the peer's verdict in mind, and sending ours. */
#include <stdio.h>
#include <string.h>

#include "sample_oob.h"
#include "sample_util.h"
#include "sc_run.h"

static void report_peer_failure(const struct sc_run *r, const struct sc_done *d)
{
	sample_err("the %s failed: %s", sc_peer_role(r), d->reason[0] != '\0' ? d->reason : "no reason given");
}

int sc_recv(struct sc_run *r, enum sc_msg_type type, void *payload, uint32_t len, int timeout_ms, const char *what)
{
	uint8_t wire[SC_DONE_LEN];
	uint16_t got_type = 0;
	uint32_t got_len = 0;
	struct sc_done d;

	if (sample_oob_recv_header(r->fd, timeout_ms, what, &got_type, &got_len) != 0)
		return -1;
	/* A failure verdict instead of what was awaited: the peer gave up and says why. */
	if (got_type == SC_MSG_DONE && type != SC_MSG_DONE && got_len == SC_DONE_LEN) {
		if (sample_oob_recv_payload(r->fd, wire, SC_DONE_LEN, timeout_ms, "completion report") != 0)
			return -1;
		sc_done_decode(wire, &d);
		if (d.status != 0) {
			report_peer_failure(r, &d);
			return -1;
		}
	}
	if (got_type != (uint16_t)type) {
		sample_err("out-of-band: message type %u where the %s (type %u) was expected", got_type, what, type);
		return -1;
	}
	if (got_len != len) {
		sample_err("out-of-band: the %s carries %u payload bytes, %u expected", what, got_len, len);
		return -1;
	}
	return sample_oob_recv_payload(r->fd, payload, len, timeout_ms, what);
}

static void done_fill(struct sc_done *d, bool failed, uint32_t verified)
{
	memset(d, 0, sizeof(*d));
	d->status = failed ? 1u : 0u;
	d->verified = verified;
	if (failed)
		snprintf(d->reason, sizeof(d->reason), "%s", sample_first_error());
}

int sc_send_done(struct sc_run *r, bool failed, uint32_t verified)
{
	uint8_t wire[SC_DONE_LEN];
	struct sc_done d;

	done_fill(&d, failed, verified);
	sc_done_encode(&d, wire);
	r->done_sent = true;
	return sample_oob_send(r->fd, SC_MSG_DONE, wire, sizeof(wire), r->cfg->timeout_ms);
}

int sc_recv_done(struct sc_run *r)
{
	uint8_t wire[SC_DONE_LEN];
	struct sc_done d;
	/* The peer may still be working through its messages: allow a timeout per message (up to 16). */
	int wait_ms = r->cfg->timeout_ms * (int)(r->cfg->iters < 16 ? r->cfg->iters + 1 : 17);

	if (sc_recv(r, SC_MSG_DONE, wire, sizeof(wire), wait_ms, "completion report") != 0)
		return -1;
	sc_done_decode(wire, &d);
	if (d.status != 0) {
		report_peer_failure(r, &d);
		return -1;
	}
	if (d.verified != r->cfg->iters) {
		sample_err("the %s verified %u of %u messages", sc_peer_role(r), d.verified, r->cfg->iters);
		return -1;
	}
	return 0;
}

void sc_abort(struct sc_run *r)
{
	uint8_t wire[SC_DONE_LEN];
	struct sc_done d;

	if (r->fd < 0 || r->done_sent)
		return;
	done_fill(&d, true, 0);
	sc_done_encode(&d, wire);
	(void)sample_oob_send_quiet(r->fd, SC_MSG_DONE, wire, sizeof(wire));
	r->done_sent = true;
}
