/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Requester side of a shared-memory channel (swnic_fabric_shm.h). The pool of
 * swnic_fabric_client.c owns channels as it owns TCP connections: one requester at a time,
 * and any failure discards the channel, so a late answer is never read by the next request.
 * Bounds are TCP's: the wait for the answer is the attempt's timeout plus the execution
 * budget of the message; a peer that dies hangs up the Unix socket and the wait ends with
 * CONNECTION_RESET.
 */
#include "swnic/swnic_fabric_shm.h"

#include "core/log.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <string.h>

doca_error_t swnic_fabric_shm_open(struct swnic_fabric *f, int fd, uint64_t deadline, struct swnic_shm_map *m)
{
	doca_error_t err = swnic_shm_create(m);

	if (err != DOCA_SUCCESS)
		return err;
	err = swnic_shm_send_offer(fd, m->memfd, deadline);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_DBG("%s: fabric: channel offer not sent: %s", f->nic->name, doca_error_get_name(err));
		swnic_shm_unmap(m);
	}
	return err;
}

doca_error_t swnic_fabric_shm_exchange(struct swnic_fabric *f, struct swnic_client_conn *c,
				       const struct swnic_req *req, struct swnic_resp *resp, void *read_buf,
				       uint64_t timeout_ns, bool *reusable)
{
	struct swnic_shm_map *m = c->map;
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	uint64_t id = atomic_fetch_add(&f->next_request_id, 1);
	uint32_t plen = swnic_req_payload_len(req);
	struct swnic_shm_slot *slot;
	doca_error_t err;
	unsigned seq;

	*reusable = false;
	err = swnic_frame_encode_req(id, req, f->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err;
	seq = ++c->seq;
	slot = swnic_shm_slot_of(m->ctl, seq);
	memcpy(slot->req_hdr, hdr, sizeof(hdr));
	slot->data_off = 0;
	slot->data_len = swnic_shm_data_need(req);
	if (plen > 0)
		memcpy(m->data, req->payload, plen);
	swnic_shm_post(&m->ctl->req_seq, &m->ctl->server_sleeping, seq, c->fd);
	err = swnic_shm_wait(&m->ctl->resp_seq, seq - 1u, &m->ctl->client_sleeping, c->fd,
			     swnic_deadline_after(swnic_fabric_exec_budget_ns(timeout_ns, req->len)), &f->poll);
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(rhdr, slot->resp_hdr, sizeof(rhdr));
	if (atomic_load(&m->ctl->resp_seq) != seq) {
		snprintf(why, sizeof(why), "answer to request %u where %u was asked", atomic_load(&m->ctl->resp_seq), seq);
		err = DOCA_ERROR_INVALID_VALUE;
	} else {
		err = swnic_frame_decode_resp(rhdr, sizeof(rhdr), f->max_msg, &prefix, resp, why, sizeof(why));
	}
	if (err == DOCA_SUCCESS)
		err = swnic_frame_check_resp(req, id, &prefix, resp, why, sizeof(why));
	if (err == DOCA_SUCCESS && prefix.flags != 0) {
		snprintf(why, sizeof(why), "flags 0x%x on a channel's response", prefix.flags);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		char where[40];

		swnic_endpoint_format(&c->ep, where, sizeof(where));
		OGDA_LOG_ERR("%s: fabric: bad shared-memory response from %s: %s; closing the channel", f->nic->name,
			     where, why);
		memset(resp, 0, sizeof(*resp));
		return DOCA_ERROR_CONNECTION_RESET;
	}
	/* Validated above: read_len <= req->len, the size of read_buf. */
	if (resp->read_len > 0)
		memcpy(read_buf, m->data, resp->read_len);
	*reusable = true;
	return DOCA_SUCCESS;
}
