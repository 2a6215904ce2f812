/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_server_client: the data phase of each side and the closing DONE exchange.
 *
 *   send   server: post a receive per message, READY, poll each receive, check its bytes
 *          client: post a SEND per message, poll each completion
 *   write  server: READY, watch each slot of its buffer until the message's pattern is there
 *          client: post an RDMA WRITE per message into the server's slot, poll each completion
 *   read   server: (its slots were filled before HELLO) READY
 *          client: post an RDMA READ per message from the server's slot, poll, check the bytes
 * Message i always lives in slot i of both buffers and carries the pattern of (seed, i).
 */
#include <stdio.h>
#include <string.h>

#include "sample_oob.h"
#include "sample_pattern.h"
#include "sample_util.h"
#include "sc_run.h"

#define WATCH_SLEEP_US 50u

/* Checks slot i against message i's pattern; prints the first differing byte. */
static int check_slot(const struct sc_run *r, uint32_t i, const char *what)
{
	size_t off = 0;
	uint8_t got = 0, want = 0;

	if (sample_pattern_check(sc_slot(r, i), r->cfg->size, r->seed, i, &off, &got, &want) == 0)
		return 0;
	sample_err("%s: message %u: byte %zu is 0x%02x, 0x%02x expected", what, i, off, got, want);
	return -1;
}

/* Write: waits until slot i holds message i, bounded by the timeout. */
static int watch_slot(const struct sc_run *r, uint32_t i)
{
	int64_t deadline = sample_now_ms() + r->cfg->timeout_ms;
	size_t off = 0;
	uint8_t got = 0, want = 0;

	while (sample_pattern_check(sc_slot(r, i), r->cfg->size, r->seed, i, &off, &got, &want) != 0) {
		if (sample_now_ms() >= deadline) {
			sample_err("write: message %u did not arrive within %d ms (byte %zu is 0x%02x, 0x%02x expected)", i,
				   r->cfg->timeout_ms, off, got, want);
			return -1;
		}
		sample_sleep_us(WATCH_SLEEP_US);
	}
	return 0;
}

static int post_receives(struct sc_run *r)
{
	struct ibv_recv_wr wr, *bad = NULL;
	struct ibv_sge sge;
	uint32_t i;
	int rc;

	for (i = 0; i < r->cfg->iters; i++) {
		memset(&wr, 0, sizeof(wr));
		sge.addr = (uint64_t)(uintptr_t)sc_slot(r, i);
		sge.length = r->cfg->size;
		sge.lkey = r->lkey;
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		rc = doca_verbs_bridge_post_recv(r->qp, &wr, &bad);
		if (rc != 0) {
			sample_err("posting receive %u: doca_verbs_bridge_post_recv returned %d (%s)", i, rc, strerror(rc));
			return -1;
		}
	}
	return 0;
}

/* Send: each receive completes in order, with the message's length and bytes. */
static int server_check_receives(struct sc_run *r, uint32_t *verified)
{
	struct ibv_wc wc;
	uint32_t i;

	for (i = 0; i < r->cfg->iters; i++) {
		char what[48];

		snprintf(what, sizeof(what), "send: receive %u", i);
		if (sample_poll_one(r->cq, r->cfg->timeout_ms, what, &wc) != 0)
			return -1;
		if (wc.opcode != IBV_WC_RECV || wc.wr_id != i || wc.byte_len != r->cfg->size) {
			sample_err("%s: completion opcode %d wr_id %llu byte_len %u, expected RECV %u of %u bytes", what,
				   (int)wc.opcode, (unsigned long long)wc.wr_id, wc.byte_len, i, r->cfg->size);
			return -1;
		}
		if (check_slot(r, i, "send") != 0)
			return -1;
		(*verified)++;
	}
	return 0;
}

int sc_server_run(struct sc_run *r)
{
	uint32_t verified = 0, i;
	int failed = 0;

	if (r->cfg->op == SC_OP_SEND && post_receives(r) != 0)
		return -1;
	if (sample_oob_send(r->fd, SC_MSG_READY, NULL, 0, r->cfg->timeout_ms) != 0)
		return -1;
	switch (r->cfg->op) {
	case SC_OP_SEND:
		failed = server_check_receives(r, &verified) != 0;
		break;
	case SC_OP_WRITE:
		for (i = 0; i < r->cfg->iters && !failed; i++) {
			failed = watch_slot(r, i) != 0;
			verified += failed ? 0u : 1u;
		}
		break;
	case SC_OP_READ:
		/* The client reads and checks; the server only serves its buffer. */
		verified = r->cfg->iters;
		break;
	}
	if (sc_recv_done(r) != 0)
		failed = 1;
	if (sc_send_done(r, failed, verified) != 0)
		return -1;
	return failed ? -1 : 0;
}

/* One work request for message i. */
static void make_wr(const struct sc_run *r, uint32_t i, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	memset(wr, 0, sizeof(*wr));
	sge->addr = (uint64_t)(uintptr_t)sc_slot(r, i);
	sge->length = r->cfg->size;
	sge->lkey = r->lkey;
	wr->wr_id = i;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->send_flags = IBV_SEND_SIGNALED;
	switch (r->cfg->op) {
	case SC_OP_SEND:
		wr->opcode = IBV_WR_SEND;
		break;
	case SC_OP_WRITE:
	case SC_OP_READ:
		wr->opcode = r->cfg->op == SC_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
		wr->wr.rdma.remote_addr = r->peer.addr + (uint64_t)i * r->cfg->size;
		wr->wr.rdma.rkey = r->peer.rkey;
		break;
	}
}

/* Posts messages [first, first + n) as one list. */
static int post_sends(struct sc_run *r, uint32_t first, uint32_t n, struct ibv_send_wr *wrs, struct ibv_sge *sges)
{
	struct ibv_send_wr *bad = NULL;
	uint32_t k;
	int rc;

	for (k = 0; k < n; k++) {
		make_wr(r, first + k, &wrs[k], &sges[k]);
		wrs[k].next = k + 1 < n ? &wrs[k + 1] : NULL;
	}
	rc = doca_verbs_bridge_post_send(r->qp, &wrs[0], &bad);
	if (rc != 0) {
		sample_err("%s: posting message %llu: doca_verbs_bridge_post_send returned %d (%s)", sc_op_name(r->cfg->op),
			   bad != NULL ? (unsigned long long)bad->wr_id : 0ull, rc, strerror(rc));
		return -1;
	}
	return 0;
}

/* Polls the completion of message i (completions arrive in posting order). */
static int client_complete(struct sc_run *r, uint32_t i)
{
	static const enum ibv_wc_opcode expect[] = {IBV_WC_SEND, IBV_WC_RDMA_WRITE, IBV_WC_RDMA_READ};
	struct ibv_wc wc;
	char what[48];

	snprintf(what, sizeof(what), "%s: message %u", sc_op_name(r->cfg->op), i);
	if (sample_poll_one(r->cq, r->cfg->timeout_ms, what, &wc) != 0)
		return -1;
	if (wc.opcode != expect[r->cfg->op] || wc.wr_id != i) {
		sample_err("%s: completion opcode %d wr_id %llu, expected opcode %d wr_id %u", what, (int)wc.opcode,
			   (unsigned long long)wc.wr_id, (int)expect[r->cfg->op], i);
		return -1;
	}
	return r->cfg->op == SC_OP_READ ? check_slot(r, i, "read") : 0;
}

static int client_transfer(struct sc_run *r, uint32_t *verified)
{
	static struct ibv_send_wr wrs[SC_MAX_ITERS];
	static struct ibv_sge sges[SC_MAX_ITERS];
	uint32_t i;

	if (r->cfg->burst && post_sends(r, 0, r->cfg->iters, wrs, sges) != 0)
		return -1;
	for (i = 0; i < r->cfg->iters; i++) {
		if (!r->cfg->burst && post_sends(r, i, 1, wrs, sges) != 0)
			return -1;
		if (client_complete(r, i) != 0)
			return -1;
		(*verified)++;
	}
	return 0;
}

int sc_client_run(struct sc_run *r)
{
	uint32_t verified = 0;
	int failed;

	if (sc_recv(r, SC_MSG_READY, NULL, 0, r->cfg->timeout_ms, "ready message") != 0)
		return -1;
	failed = client_transfer(r, &verified) != 0;
	if (sc_send_done(r, failed, verified) != 0)
		return -1;
	if (sc_recv_done(r) != 0)
		failed = 1;
	return failed ? -1 : 0;
}
