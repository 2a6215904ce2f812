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
#include "swnic/swnic_mem_access.h"
#include "swnic/swnic_mem_int.h"
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

/*
 * Answers written into their slots but not published yet: GPU-to-GPU copies of WRITEs by
 * reference may still run (swnic_mem_defer.c), and an answer leaves only once its bytes
 * have landed. Copies end in the order they started, so the answers are published in order
 * up to the oldest request whose copy still runs.
 */
struct held_answers {
	unsigned shown;                                  /* resp_seq as published */
	unsigned answered;                               /* the last request answered in its slot */
	unsigned copying[SWNIC_SHM_SLOTS];               /* requests whose copies run, oldest first */
	unsigned copy_head, copies;
	uint64_t request_id[SWNIC_SHM_SLOTS];            /* of each request answered, by slot */
	struct swnic_ipc_map *map[SWNIC_SHM_SLOTS];      /* the mapping its copy reads, until it ended */
};

static unsigned slot_index(unsigned seq)
{
	return (seq - 1u) % SWNIC_SHM_SLOTS;
}

/* n copies ended (failed: one of them failed): their answers become final, NAKs if they failed. */
static void copies_ended(struct swnic_server_conn *sc, struct swnic_shm_map *m, struct held_answers *ha, unsigned n,
			 bool failed)
{
	struct swnic_fabric *f = sc->fabric;

	while (n-- > 0 && ha->copies > 0) {
		unsigned s = ha->copying[ha->copy_head], k = slot_index(s);

		ha->copy_head = (ha->copy_head + 1u) % SWNIC_SHM_SLOTS;
		ha->copies--;
		if (failed) {
			struct swnic_resp nak = {.status = SWNIC_RESP_NAK_REMOTE_OP};
			uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];

			OGDA_LOG_ERR("%s: fabric: a GPU copy for %s failed: its WRITE is answered REMOTE_OP", f->nic->name,
				     sc->peer);
			if (swnic_frame_encode_resp(ha->request_id[k], &nak, f->max_msg, rhdr) == DOCA_SUCCESS)
				memcpy(swnic_shm_slot_of(m->ctl, s)->resp_hdr, rhdr, sizeof(rhdr));
		}
	}
}

/* Publishes every answer before the oldest copy still running, releasing their mappings. */
static void publish(struct swnic_server_conn *sc, struct swnic_shm_map *m, struct held_answers *ha)
{
	unsigned upto = ha->copies > 0 ? ha->copying[ha->copy_head] - 1u : ha->answered;
	unsigned s;

	if (upto == ha->shown)
		return;
	for (s = ha->shown + 1u; s != upto + 1u; s++) {
		swnic_ipc_unmap(ha->map[slot_index(s)]);
		ha->map[slot_index(s)] = NULL;
	}
	swnic_shm_post(&m->ctl->resp_seq, &m->ctl->client_sleeping, upto, sc->fd);
	ha->shown = upto;
}

/* Looks (wait: waits) for ended copies and publishes what they allow. */
static void progress(struct swnic_server_conn *sc, struct swnic_shm_map *m, struct held_answers *ha, bool wait)
{
	bool failed = false;
	unsigned n;

	if (ha->copies > 0) {
		n = wait ? swnic_mem_deferred_settle(&failed) : swnic_mem_deferred_reap(&failed);
		copies_ended(sc, m, ha, n, failed);
	}
	publish(sc, m, ha);
}

/* Serves request number seq from its slot. false: the channel is finished. */
static bool serve_request(struct swnic_server_conn *sc, struct swnic_shm_map *m, unsigned seq,
			  struct held_answers *ha)
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
	unsigned pending;
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
	if (!swnic_fabric_fault_pass(f, &req))
		return false; /* a test's lossy link: no answer, the channel goes */
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
	/* Only a plain WRITE by reference may leave its copy running; anything else sees every byte landed. */
	if (!(verdict.status == SWNIC_RESP_ACK && ipc != 0 && req.op == SWNIC_REQ_WRITE))
		progress(sc, m, ha, true);
	pending = swnic_mem_deferred_pending();
	if (verdict.status != SWNIC_RESP_ACK) {
		resp.status = verdict.status;
	} else if (ipc != 0) {
		req.payload = ipc_payload;
		req.payload_kind = OGDA_MEM_GPU;
		req.defer_copy = req.op == SWNIC_REQ_WRITE;
		swnic_fabric_respond(f->nic, f, &req, &resp, NULL);
		ha->map[slot_index(seq)] = ipc_map; /* unmapped when its answer is published */
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
		return false; /* the mapping is released with the held answers */
	}
	memcpy(slot->resp_hdr, rhdr, sizeof(rhdr));
	ha->request_id[slot_index(seq)] = prefix.request_id;
	ha->answered = seq;
	if (swnic_mem_deferred_pending() > pending) { /* its copy runs on: answered when it has ended */
		ha->copying[(ha->copy_head + ha->copies) % SWNIC_SHM_SLOTS] = seq;
		ha->copies++;
	}
	if (ha->copies % 4u == 0) /* now and then while busy: each look is a driver call */
		progress(sc, m, ha, false);
	return true;
}

void swnic_fabric_shm_serve(struct swnic_server_conn *sc)
{
	struct swnic_fabric *f = sc->fabric;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_shm_map m;
	unsigned seq = 0; /* the last request answered; a fresh channel is zero, the peer may post before we look */
	struct held_answers ha;
	unsigned posted, k;
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
	memset(&ha, 0, sizeof(ha));
	swnic_mem_copy_keep_context(); /* this thread is the NIC's own */
	for (;;) {
		uint64_t deadline = atomic_load(&sc->trusted) ? SWNIC_SOCK_NO_DEADLINE : sc->handshake_deadline;

		if (ha.shown != seq) {
			/* Answers wait for their copies: take new requests meanwhile, publish as they end. */
			if (atomic_load_explicit(&m.ctl->req_seq, memory_order_acquire) == seq) {
				swnic_mem_deferred_mark(); /* nothing more to start: the newest copy's end shows */
				progress(sc, &m, &ha, false);
				continue;
			}
			err = DOCA_SUCCESS;
		} else {
			err = swnic_shm_wait(&m.ctl->req_seq, seq, &m.ctl->server_sleeping, sc->fd, deadline,
					     &f->poll);
		}
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
		while (seq != posted && serve_request(sc, &m, seq + 1u, &ha))
			seq++;
		if (seq != posted)
			break;
	}
	/* No copy outlives the channel's mapping of the peer's memory. */
	if (ha.copies > 0) {
		bool failed = false;

		(void)swnic_mem_deferred_settle(&failed);
	}
	for (k = 0; k < SWNIC_SHM_SLOTS; k++)
		swnic_ipc_unmap(ha.map[k]);
	swnic_shm_unmap(&m);
}
