/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Server side of a shared-memory channel (swnic_fabric_shm.h): the thread of an incoming
 * Unix connection, once the handshake passed, adopts the channel the peer offers and serves
 * its requests until the peer hangs up, the server stops (it shuts the socket down) or, for
 * a stranger's channel, the handshake deadline passes. Requests are served in the order
 * they were numbered, each answered in its slot as soon as it is done. Every request is validated and
 * executed by the code that serves TCP frames: swnic_frame_decode_req, the header check,
 * swnic_fabric_respond; so answers, syndromes and counters are the same on both paths.
 */
#include "swnic/swnic_fabric_shm.h"

#include "core/log.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void shm_reject(struct swnic_server_conn *sc, const char *why)
{
	struct swnic_fabric *f = sc->fabric;

	atomic_fetch_add(&f->stats.frames_rejected, 1);
	OGDA_LOG_ERR("%s: fabric: rejected shared-memory request from %s: %s; closing the channel", f->nic->name,
		     sc->peer, why);
}

/* Serves request number seq from its slot. false: the channel is finished. */
static bool serve_request(struct swnic_server_conn *sc, struct swnic_shm_map *m, unsigned seq)
{
	struct swnic_fabric *f = sc->fabric;
	struct swnic_shm_slot *slot = swnic_shm_slot_of(m->ctl, seq);
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_frame_prefix prefix;
	struct swnic_req_verdict verdict;
	struct swnic_req req;
	struct swnic_resp resp;
	struct swnic_ipc_ref ipc_ref;
	struct swnic_ipc_map *ipc_map = NULL;
	void *ipc_payload = NULL;
	uint32_t off, len, ipc;
	uint8_t *data;
	doca_error_t err;

	/* Private copies: the peer may rewrite the shared slot while it is being judged. */
	memcpy(hdr, slot->req_hdr, sizeof(hdr));
	off = *(volatile uint32_t *)&slot->data_off;
	len = *(volatile uint32_t *)&slot->data_len;
	ipc = *(volatile uint32_t *)&slot->ipc;
	memcpy(&ipc_ref, &slot->ipc_ref, sizeof(ipc_ref));
	err = swnic_frame_decode_req(hdr, sizeof(hdr), f->max_msg, &prefix, &req, why, sizeof(why));
	if (err == DOCA_SUCCESS && (len > SWNIC_SHM_DATA_CAP || off > SWNIC_SHM_DATA_CAP - len)) {
		snprintf(why, sizeof(why), "data range %u+%u outside the channel's %u bytes", off, len,
			 SWNIC_SHM_DATA_CAP);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS && ipc > 1u) {
		snprintf(why, sizeof(why), "payload kind %u unknown", ipc);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS && ipc != 0 &&
	    (len != 0 || (req.op != SWNIC_REQ_WRITE && req.op != SWNIC_REQ_WRITE_IMM) || prefix.payload_len == 0)) {
		snprintf(why, sizeof(why), "op %u of %u bytes cannot carry a GPU memory reference", req.op, req.len);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS && ipc == 0 &&
	    (prefix.payload_len > len || (req.op == SWNIC_REQ_READ && req.len > len))) {
		snprintf(why, sizeof(why), "op %u of %u bytes: over the %u bytes its slot reserves", req.op, req.len,
			 len);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		shm_reject(sc, why);
		return false;
	}
	data = m->data + off;
	memset(&resp, 0, sizeof(resp));
	verdict.status = SWNIC_RESP_ACK;
	/* As on TCP, a payload is executed only for a request its header admits. */
	if (prefix.payload_len > 0)
		swnic_fabric_check_header(f, &req, &verdict);
	if (verdict.status == SWNIC_RESP_ACK && ipc != 0) {
		/* The requester's GPU memory, mapped only for a request its header admits. */
		err = swnic_ipc_map(&ipc_ref, prefix.payload_len, &ipc_payload, &ipc_map, why, sizeof(why));
		if (err == DOCA_ERROR_INVALID_VALUE) {
			shm_reject(sc, why);
			return false;
		}
		if (err != DOCA_SUCCESS) {
			/* This process cannot reach that GPU: the requester learns it as a failed operation. */
			OGDA_LOG_ERR("%s: fabric: GPU payload from %s: %s; the requester can send such payloads as bytes "
				     "with %s=0",
				     f->nic->name, sc->peer, why, SWNIC_ENV_IPC);
			verdict.status = SWNIC_RESP_NAK_REMOTE_OP;
		}
	}
	if (verdict.status != SWNIC_RESP_ACK) {
		resp.status = verdict.status;
	} else if (ipc != 0) {
		req.payload = ipc_payload;
		req.payload_kind = OGDA_MEM_GPU;
		swnic_fabric_respond(f->nic, f, &req, &resp, NULL);
		swnic_ipc_unmap(ipc_map);
		atomic_fetch_add(&f->stats.ipc_payloads_served, 1);
	} else {
		req.payload = prefix.payload_len > 0 ? data : NULL;
		swnic_fabric_respond(f->nic, f, &req, &resp, req.op == SWNIC_REQ_READ ? data : NULL);
	}
	atomic_fetch_add(&f->stats.frames_served, 1);
	if (resp.status != SWNIC_RESP_NO_QP)
		atomic_store(&sc->trusted, true);
	err = swnic_frame_encode_resp(prefix.request_id, &resp, f->max_msg, rhdr);
	if (err != DOCA_SUCCESS) {
		shm_reject(sc, "the response does not encode");
		return false;
	}
	memcpy(slot->resp_hdr, rhdr, sizeof(rhdr));
	swnic_shm_post(&m->ctl->resp_seq, &m->ctl->client_sleeping, seq, sc->fd);
	return true;
}

void swnic_fabric_shm_serve(struct swnic_server_conn *sc)
{
	struct swnic_fabric *f = sc->fabric;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_shm_map m;
	unsigned seq = 0; /* the last request answered; a fresh channel is zero, the peer may post before we look */
	unsigned posted;
	doca_error_t err;
	int memfd;

	err = swnic_shm_recv_offer(sc->fd, sc->handshake_deadline, &memfd, why, sizeof(why));
	if (err == DOCA_SUCCESS) {
		err = swnic_shm_adopt(memfd, &m, why, sizeof(why));
		if (err != DOCA_SUCCESS)
			close(memfd);
	}
	if (err == DOCA_ERROR_TIME_OUT) {
		atomic_fetch_add(&f->stats.conns_timed_out, 1);
		OGDA_LOG_WARN("%s: fabric: %s: %s; closing the connection", f->nic->name, sc->peer, why);
		return;
	}
	if (err != DOCA_SUCCESS) {
		shm_reject(sc, why);
		return;
	}
	OGDA_LOG_DBG("%s: fabric: shared-memory channel from %s", f->nic->name, sc->peer);
	for (;;) {
		uint64_t deadline = atomic_load(&sc->trusted) ? SWNIC_SOCK_NO_DEADLINE : sc->handshake_deadline;

		err = swnic_shm_wait(&m.ctl->req_seq, seq, &m.ctl->server_sleeping, sc->fd, deadline, &f->poll);
		if (err == DOCA_ERROR_TIME_OUT) {
			atomic_fetch_add(&f->stats.conns_timed_out, 1);
			OGDA_LOG_WARN("%s: fabric: %s completed no exchange within the handshake deadline; closing the channel",
				      f->nic->name, sc->peer);
			break;
		}
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_DBG("%s: fabric: %s closed its channel", f->nic->name, sc->peer);
			break;
		}
		posted = atomic_load_explicit(&m.ctl->req_seq, memory_order_acquire);
		if (posted - seq > SWNIC_SHM_SLOTS) {
			shm_reject(sc, "more requests posted than the ring holds");
			break;
		}
		/* In order, each answered as soon as it is done: the requester retires the first early. */
		while (seq != posted && serve_request(sc, &m, seq + 1u))
			seq++;
		if (seq != posted)
			break;
	}
	swnic_shm_unmap(&m);
}
