/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipes (swnic_fabric_pipe.h): many requests in flight on one shared-memory channel.
 *
 * The channel's slot ring numbers requests; the data area is used as a ring too: each
 * request reserves a contiguous range (its payload, or room for its READ data) behind the
 * previous one, wrapping to the start when the end has no room, and the range is free again
 * once its answer has been taken. Answers come in order, so the oldest live byte is always
 * the oldest request's.
 */
#include "swnic/swnic_fabric_pipe.h"

#include "core/log.h"
#include "swnic/swnic_fabric_priv.h"
#include "swnic/swnic_gid.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <string.h>

void swnic_fabric_pipe_init(struct swnic_fabric_pipe *p, struct swnic *nic)
{
	memset(p, 0, sizeof(*p));
	p->nic = nic;
}

static unsigned inflight_index(uint32_t seq)
{
	return (seq - 1u) % SWNIC_SHM_SLOTS;
}

/* Hands the channel back: kept in the pool when everything sent was answered. */
static void give_back(struct swnic_fabric_pipe *p, bool reusable)
{
	if (p->conn == NULL)
		return;
	p->conn->seq = p->posted;
	swnic_fabric_client_give_back(p->nic->fabric, p->conn, reusable && p->posted == p->answered);
	p->conn = NULL;
	p->posted = p->answered = 0;
	p->data_head = p->data_tail = 0;
}

/* A failure of the channel: every request in flight is forgotten with it. */
static doca_error_t drop(struct swnic_fabric_pipe *p, doca_error_t err)
{
	atomic_fetch_add(&p->nic->fabric->stats.tcp_failures, 1);
	OGDA_LOG_DBG("%s: fabric: pipe dropped with %u requests in flight: %s", p->nic->name,
		     swnic_fabric_pipe_outstanding(p), doca_error_get_name(err));
	give_back(p, false);
	return err;
}

/* A contiguous range of n bytes of the data area, or false when the ring has no room now. */
static bool data_take(struct swnic_fabric_pipe *p, uint32_t n, uint32_t *off)
{
	if (swnic_fabric_pipe_outstanding(p) == 0)
		p->data_head = p->data_tail = 0;
	if (p->data_head >= p->data_tail) { /* live bytes in [tail, head) */
		if (SWNIC_SHM_DATA_CAP - p->data_head >= n) {
			*off = p->data_head;
			p->data_head += n;
			return true;
		}
		/* Wrap. Strictly below tail, so head == tail keeps meaning "not wrapped". */
		if (p->data_tail > n) {
			*off = 0;
			p->data_head = n;
			return true;
		}
		return false;
	}
	if (p->data_tail - p->data_head > n) { /* wrapped: live in [tail, end) and [0, head) */
		*off = p->data_head;
		p->data_head += n;
		return true;
	}
	return false;
}

/* The oldest answer was taken: its data range is free. */
static void retire(struct swnic_fabric_pipe *p)
{
	p->answered++;
	if (swnic_fabric_pipe_outstanding(p) == 0)
		p->data_head = p->data_tail = 0;
	else
		p->data_tail = p->inflight[inflight_index(p->answered + 1u)].data_off;
}

/* A channel to gid, or NOT_SUPPORTED when requests to it do not travel through one. */
static doca_error_t open_channel(struct swnic_fabric_pipe *p, const uint8_t gid[16], uint64_t timeout_ns)
{
	struct swnic_endpoint ep;
	struct swnic *dst;
	doca_error_t err;

	if (p->direct_known && memcmp(p->direct_gid, gid, 16) == 0)
		return DOCA_ERROR_NOT_SUPPORTED;
	dst = swnic_find_by_gid(gid);
	if (dst != NULL) { /* a NIC of this process: called directly, no channel */
		swnic_close(dst);
		memcpy(p->direct_gid, gid, 16);
		p->direct_known = true;
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (swnic_gid_decode(gid, &ep) != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_SUPPORTED; /* swnic_fabric_deliver says what is wrong with it */
	err = swnic_fabric_client_take_channel(p->nic->fabric, &ep, swnic_deadline_after(timeout_ns), &p->conn);
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(p->gid, gid, 16);
	p->posted = p->answered = p->conn->seq;
	p->data_head = p->data_tail = 0;
	return DOCA_SUCCESS;
}

doca_error_t swnic_fabric_pipe_post(struct swnic_fabric_pipe *p, const uint8_t gid[16], const struct swnic_req *req,
				    uint64_t timeout_ns)
{
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_fabric *f;
	struct swnic_shm_slot *slot;
	uint32_t need, off, plen, seq;
	uint64_t id;
	doca_error_t err;

	if (p == NULL || p->nic == NULL || p->nic->fabric == NULL || gid == NULL || req == NULL || timeout_ns == 0) {
		OGDA_LOG_ERR("fabric pipe post: bad argument (pipe %p, gid %p, req %p, timeout %llu ns)", (void *)p,
			     (const void *)gid, (const void *)req, (unsigned long long)timeout_ns);
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = p->nic->fabric;
	err = swnic_req_check(req, f->max_msg, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: fabric pipe post: %s", p->nic->name, why);
		return err;
	}
	if (!swnic_shm_fits(req))
		return DOCA_ERROR_NOT_SUPPORTED;
	if (p->conn != NULL && memcmp(p->gid, gid, 16) != 0) {
		/* The QP was connected elsewhere meanwhile: the old channel goes once it is quiet. */
		if (swnic_fabric_pipe_outstanding(p) != 0)
			return DOCA_ERROR_AGAIN;
		give_back(p, true);
	}
	if (p->conn == NULL) {
		err = open_channel(p, gid, timeout_ns);
		if (err != DOCA_SUCCESS)
			return err;
	}
	if (swnic_fabric_pipe_outstanding(p) == SWNIC_SHM_SLOTS)
		return DOCA_ERROR_AGAIN;
	need = swnic_shm_data_need(req);
	if (!data_take(p, need, &off))
		return DOCA_ERROR_AGAIN; /* never with nothing in flight: need <= the whole area */
	id = atomic_fetch_add(&f->next_request_id, 1);
	err = swnic_frame_encode_req(id, req, f->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err; /* checked above; the range taken is reused by the next post */
	seq = p->posted + 1u;
	slot = swnic_shm_slot_of(p->conn->map->ctl, seq);
	memcpy(slot->req_hdr, hdr, sizeof(hdr));
	slot->data_off = off;
	slot->data_len = need;
	plen = swnic_req_payload_len(req);
	if (plen > 0)
		memcpy(p->conn->map->data + off, req->payload, plen);
	p->inflight[inflight_index(seq)].request_id = id;
	p->inflight[inflight_index(seq)].deadline_ns =
		swnic_deadline_after(swnic_fabric_exec_budget_ns(timeout_ns, req->len));
	p->inflight[inflight_index(seq)].data_off = off;
	p->inflight[inflight_index(seq)].data_len = need;
	p->posted = seq;
	p->last_use_ns = swnic_sock_now_ns();
	{
		uint_fast64_t n = swnic_fabric_pipe_outstanding(p);
		uint_fast64_t hwm = atomic_load_explicit(&f->stats.pipe_inflight_hwm, memory_order_relaxed);

		while (n > hwm && !atomic_compare_exchange_weak_explicit(&f->stats.pipe_inflight_hwm, &hwm, n,
									 memory_order_relaxed, memory_order_relaxed))
			;
	}
	swnic_shm_post(&p->conn->map->ctl->req_seq, &p->conn->map->ctl->server_sleeping, seq, p->conn->fd);
	return DOCA_SUCCESS;
}

/* Waits (or looks, block false) until request seq is answered. */
static doca_error_t await(struct swnic_fabric_pipe *p, uint32_t seq, uint64_t deadline_ns, bool block)
{
	struct swnic_shm_ctl *ctl = p->conn->map->ctl;

	for (;;) {
		unsigned seen = atomic_load_explicit(&ctl->resp_seq, memory_order_relaxed);
		doca_error_t err;

		if (swnic_shm_reached(&ctl->resp_seq, seq))
			return DOCA_SUCCESS;
		if (!block)
			return swnic_sock_now_ns() >= deadline_ns ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_AGAIN;
		err = swnic_shm_wait(&ctl->resp_seq, seen, &ctl->client_sleeping, p->conn->fd, deadline_ns,
				     &p->nic->fabric->poll);
		if (err != DOCA_SUCCESS)
			return err;
	}
}

doca_error_t swnic_fabric_pipe_answer(struct swnic_fabric_pipe *p, const struct swnic_req *req,
				      struct swnic_resp *resp, void *read_buf, bool block)
{
	uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_fabric *f;
	uint32_t seq;
	unsigned k;
	doca_error_t err;

	if (p == NULL || p->nic == NULL || req == NULL || resp == NULL) {
		OGDA_LOG_ERR("fabric pipe answer: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (p->conn == NULL || swnic_fabric_pipe_outstanding(p) == 0)
		return DOCA_ERROR_BAD_STATE;
	f = p->nic->fabric;
	seq = p->answered + 1u;
	k = inflight_index(seq);
	memset(resp, 0, sizeof(*resp));
	err = await(p, seq, p->inflight[k].deadline_ns, block);
	if (err == DOCA_ERROR_AGAIN)
		return err;
	if (err != DOCA_SUCCESS)
		return drop(p, err == DOCA_ERROR_TIME_OUT ? err : DOCA_ERROR_CONNECTION_RESET);
	memcpy(rhdr, swnic_shm_slot_of(p->conn->map->ctl, seq)->resp_hdr, sizeof(rhdr));
	err = swnic_frame_decode_resp(rhdr, sizeof(rhdr), f->max_msg, &prefix, resp, why, sizeof(why));
	if (err == DOCA_SUCCESS)
		err = swnic_frame_check_resp(req, p->inflight[k].request_id, &prefix, resp, why, sizeof(why));
	if (err == DOCA_SUCCESS && prefix.flags != 0) {
		snprintf(why, sizeof(why), "flags 0x%x on a channel's response", prefix.flags);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		char where[40];
		struct swnic_endpoint ep = p->conn->ep;

		swnic_endpoint_format(&ep, where, sizeof(where));
		OGDA_LOG_ERR("%s: fabric: bad shared-memory response from %s: %s; closing the channel", p->nic->name,
			     where, why);
		memset(resp, 0, sizeof(*resp));
		return drop(p, DOCA_ERROR_CONNECTION_RESET);
	}
	/* Validated above: read_len <= req->len <= the range the request reserved. */
	if (resp->read_len > 0)
		memcpy(read_buf, p->conn->map->data + p->inflight[k].data_off, resp->read_len);
	retire(p);
	p->last_use_ns = swnic_sock_now_ns();
	atomic_fetch_add(&f->stats.shm_deliveries, 1);
	return DOCA_SUCCESS;
}

void swnic_fabric_pipe_reset(struct swnic_fabric_pipe *p, bool drain)
{
	if (p == NULL || p->conn == NULL)
		return;
	if (drain)
		atomic_fetch_add(&p->nic->fabric->stats.pipe_go_backs, 1);
	while (drain && swnic_fabric_pipe_outstanding(p) != 0) {
		uint32_t seq = p->answered + 1u;

		if (await(p, seq, p->inflight[inflight_index(seq)].deadline_ns, true) != DOCA_SUCCESS)
			break;
		retire(p);
	}
	if (swnic_fabric_pipe_outstanding(p) != 0)
		(void)drop(p, DOCA_ERROR_TIME_OUT);
}

void swnic_fabric_pipe_idle(struct swnic_fabric_pipe *p, uint64_t now_ns)
{
	if (p != NULL && p->conn != NULL && swnic_fabric_pipe_outstanding(p) == 0 &&
	    now_ns - p->last_use_ns >= SWNIC_PIPE_IDLE_NS)
		give_back(p, true);
}

void swnic_fabric_pipe_fini(struct swnic_fabric_pipe *p)
{
	if (p == NULL || p->conn == NULL)
		return;
	give_back(p, swnic_fabric_pipe_outstanding(p) == 0);
}
