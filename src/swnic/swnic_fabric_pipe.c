/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipes (swnic_fabric_pipe.h): many requests in flight on one connection.
 *
 * Shared memory: the channel's slot ring numbers requests; the data area is used as a ring
 * too: each request reserves a contiguous range (its payload, or room for its READ data)
 * behind the previous one, wrapping to the start when the end has no room, and the range is
 * free again once its answer has been taken. Answers come in order, so the oldest live byte
 * is always the oldest request's.
 *
 * TCP: requests are written whole, one after the other, as frames (swnic_fabric_frame.h);
 * answers are read in order. posted / answered count the requests of the pipe.
 */
#include "swnic/swnic_fabric_pipe.h"

#include "core/log.h"
#include "swnic/swnic_fabric_priv.h"
#include "swnic/swnic_gid.h"
#include "swnic/swnic_sock.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

void swnic_fabric_pipe_init(struct swnic_fabric_pipe *p, struct swnic *nic)
{
	memset(p, 0, sizeof(*p));
	p->nic = nic;
}

static bool is_tcp(const struct swnic_fabric_pipe *p)
{
	return !p->conn->shm;
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
	if (!is_tcp(p))
		p->conn->seq = p->posted;
	swnic_fabric_client_give_back(p->nic->fabric, p->conn, reusable && !p->closing && p->posted == p->answered);
	p->conn = NULL;
	p->posted = p->answered = 0;
	p->data_head = p->data_tail = 0;
	p->tcp_bytes = 0;
	p->closing = false;
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
	p->tcp_bytes -= is_tcp(p) ? p->inflight[inflight_index(p->answered + 1u)].data_len : 0u;
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
	err = swnic_fabric_client_take(p->nic->fabric, &ep, swnic_deadline_after(timeout_ns), &p->conn);
	if (err != DOCA_SUCCESS) {
		p->conn = NULL;
		/* Local trouble (no socket, no memory) is also a peer this NIC cannot reach now. */
		return err == DOCA_ERROR_CONNECTION_RESET || err == DOCA_ERROR_TIME_OUT ? err : DOCA_ERROR_NOT_CONNECTED;
	}
	memcpy(p->gid, gid, 16);
	p->ipc_ok = !is_tcp(p) && swnic_ipc_available();
	p->posted = p->answered = is_tcp(p) ? 0u : p->conn->seq;
	p->data_head = p->data_tail = 0;
	p->tcp_bytes = 0;
	p->closing = false;
	return DOCA_SUCCESS;
}

/* What a request costs of a TCP pipe's budget: its frame, its answer and READ data. */
static uint32_t tcp_cost(const struct swnic_req *req)
{
	uint64_t n = (uint64_t)SWNIC_FRAME_REQ_HDR_LEN + SWNIC_FRAME_RESP_HDR_LEN + swnic_req_payload_len(req) +
		     (req->op == SWNIC_REQ_READ ? req->len : 0u);

	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* TCP's buffer for READ data nobody wants and for GPU payloads on their way out (SWNIC_PIPE_TCP_BYTES). */
static uint8_t *scratch(struct swnic_fabric_pipe *p)
{
	if (p->scratch == NULL)
		p->scratch = malloc(SWNIC_PIPE_TCP_BYTES);
	return p->scratch;
}

/*
 * Whether the GPU payload of req goes as a reference: *ref filled, true. false: it travels
 * as bytes; *refused: although the channel could have taken a reference.
 */
static bool gpu_by_reference(struct swnic_fabric_pipe *p, const struct swnic_req *req, const struct swnic_mr *mr,
			     struct swnic_ipc_ref *ref, bool *refused)
{
	if (!p->ipc_ok)
		return false;
	*refused = swnic_ipc_export(&p->ipc_cache, (uint64_t)(uintptr_t)req->payload, req->len, mr->addr, mr->len,
				    ref) != DOCA_SUCCESS;
	return !*refused;
}

/*
 * Copies the GPU payload of req to host memory dst (its MR is held by the caller).
 * DOCA_ERROR_IO_FAILED when it cannot (logged): a local failure, not the peer's.
 */
static doca_error_t gpu_to_host(struct swnic_fabric_pipe *p, const struct swnic_req *req, void *dst)
{
	doca_error_t err = swnic_mem_copy(dst, OGDA_MEM_HOST, req->payload, OGDA_MEM_GPU, req->len);

	if (err == DOCA_SUCCESS)
		return DOCA_SUCCESS;
	OGDA_LOG_ERR("%s: fabric pipe: cannot read a %u-byte GPU payload: %s", p->nic->name, req->len,
		     doca_error_get_name(err));
	return DOCA_ERROR_IO_FAILED;
}

doca_error_t swnic_fabric_pipe_post(struct swnic_fabric_pipe *p, const uint8_t gid[16], const struct swnic_req *req,
				    const struct swnic_mr *payload_mr, uint64_t timeout_ns, bool *by_reference)
{
	struct swnic_ipc_ref ref;
	const void *payload;
	bool gpu, by_ref = false, refused = false;
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_fabric *f;
	struct swnic_shm_slot *slot;
	uint32_t need, off, plen, seq;
	uint64_t id;
	doca_error_t err;

	if (p == NULL || p->nic == NULL || p->nic->fabric == NULL || gid == NULL || req == NULL || timeout_ns == 0 ||
	    by_reference == NULL) {
		OGDA_LOG_ERR("fabric pipe post: bad argument (pipe %p, gid %p, req %p, timeout %llu ns)", (void *)p,
			     (const void *)gid, (const void *)req, (unsigned long long)timeout_ns);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*by_reference = false;
	gpu = req->payload_kind == OGDA_MEM_GPU;
	if ((gpu && (payload_mr == NULL || (req->op != SWNIC_REQ_WRITE && req->op != SWNIC_REQ_WRITE_IMM))) ||
	    (!gpu && req->payload_kind != OGDA_MEM_HOST)) {
		OGDA_LOG_ERR("fabric pipe post: op %u with a payload of memory kind %u%s", req->op, req->payload_kind,
			     gpu && payload_mr == NULL ? " and no MR" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = p->nic->fabric;
	err = swnic_req_check(req, f->max_msg, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: fabric pipe post: %s", p->nic->name, why);
		return err;
	}
	if (p->conn != NULL && (memcmp(p->gid, gid, 16) != 0 || p->closing)) {
		/* Connected elsewhere meanwhile, or closing: the old connection goes once it is quiet. */
		if (swnic_fabric_pipe_outstanding(p) != 0)
			return DOCA_ERROR_AGAIN;
		give_back(p, true);
	}
	if (p->conn == NULL && !gpu && !swnic_shm_fits(req) && tcp_cost(req) > SWNIC_PIPE_TCP_BYTES)
		return DOCA_ERROR_NOT_SUPPORTED; /* too large for any pipe: no connection needed */
	if (p->conn == NULL) {
		err = open_channel(p, gid, timeout_ns);
		if (err != DOCA_SUCCESS)
			return err;
	}
	if (swnic_fabric_pipe_outstanding(p) == SWNIC_SHM_SLOTS)
		return DOCA_ERROR_AGAIN;
	if (is_tcp(p)) {
		need = tcp_cost(req);
		if (need > SWNIC_PIPE_TCP_BYTES)
			return DOCA_ERROR_NOT_SUPPORTED;
		if (p->tcp_bytes + need > SWNIC_PIPE_TCP_BYTES)
			return DOCA_ERROR_AGAIN;
		off = 0;
	} else if (gpu && gpu_by_reference(p, req, payload_mr, &ref, &refused)) {
		by_ref = true; /* no data area: any size the fabric takes */
		need = 0;
		off = p->data_head;
	} else {
		if (!swnic_shm_fits(req))
			return DOCA_ERROR_NOT_SUPPORTED;
		need = swnic_shm_data_need(req);
		if (!data_take(p, need, &off))
			return DOCA_ERROR_AGAIN; /* never with nothing in flight: need <= the whole area */
	}
	id = atomic_fetch_add(&f->next_request_id, 1);
	err = swnic_frame_encode_req(id, req, f->max_msg, hdr);
	if (err != DOCA_SUCCESS)
		return err; /* checked above; the range taken is reused by the next post */
	seq = p->posted + 1u;
	plen = swnic_req_payload_len(req);
	payload = req->payload;
	if (is_tcp(p)) {
		struct iovec iov[2] = {{.iov_base = hdr, .iov_len = sizeof(hdr)}, {.iov_base = NULL, .iov_len = plen}};

		if (gpu && plen > 0) { /* plen < SWNIC_PIPE_TCP_BYTES: tcp_cost took it */
			payload = scratch(p);
			if (payload == NULL)
				return DOCA_ERROR_IO_FAILED; /* nowhere to read it into */
			err = gpu_to_host(p, req, (void *)(uintptr_t)payload);
			if (err != DOCA_SUCCESS)
				return err;
		}
		iov[1].iov_base = (void *)(uintptr_t)payload;
		err = swnic_sock_send_all_idle(p->conn->fd, iov, 2, timeout_ns);
		if (err != DOCA_SUCCESS)
			return drop(p, err == DOCA_ERROR_TIME_OUT ? err : DOCA_ERROR_CONNECTION_RESET);
		p->tcp_bytes += need;
	} else {
		slot = swnic_shm_slot_of(p->conn->map->ctl, seq);
		if (gpu && !by_ref && plen > 0) {
			/* Straight into the channel: the one copy this payload needs. */
			err = gpu_to_host(p, req, p->conn->map->data + off);
			if (err != DOCA_SUCCESS)
				return err; /* the range taken is reused by the next post */
		} else if (!by_ref && plen > 0) {
			memcpy(p->conn->map->data + off, payload, plen);
		}
		memcpy(slot->req_hdr, hdr, sizeof(hdr));
		slot->data_off = off;
		slot->data_len = need;
		slot->ipc = by_ref ? 1u : 0u;
		if (by_ref) {
			slot->ipc_ref = ref;
			atomic_fetch_add(&f->stats.ipc_payloads_sent, 1);
		} else if (refused) {
			atomic_fetch_add(&f->stats.ipc_refused, 1);
		}
	}
	p->inflight[inflight_index(seq)].req = *req;
	p->inflight[inflight_index(seq)].req.payload = NULL; /* the caller's; not kept */
	*by_reference = by_ref;
	p->inflight[inflight_index(seq)].request_id = id;
	p->inflight[inflight_index(seq)].deadline_ns =
		swnic_deadline_after(swnic_fabric_exec_budget_ns(timeout_ns, req->len));
	p->inflight[inflight_index(seq)].timeout_ns = timeout_ns;
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
	if (!is_tcp(p))
		swnic_shm_post(&p->conn->map->ctl->req_seq, &p->conn->map->ctl->server_sleeping, seq, p->conn->fd);
	return DOCA_SUCCESS;
}

/* Waits (or looks, block false) until request seq is answered (TCP: until its answer begins to arrive). */
static doca_error_t await(struct swnic_fabric_pipe *p, uint32_t seq, uint64_t deadline_ns, bool block)
{
	struct swnic_shm_ctl *ctl;

	if (is_tcp(p)) {
		struct pollfd pfd = {.fd = p->conn->fd, .events = POLLIN};

		if (block || poll(&pfd, 1, 0) != 0)
			return DOCA_SUCCESS; /* the read that follows waits, bounded by deadline_ns */
		return swnic_sock_now_ns() >= deadline_ns ? DOCA_ERROR_TIME_OUT : DOCA_ERROR_AGAIN;
	}
	ctl = p->conn->map->ctl;
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

/* The answer to request seq over shared memory, from its slot; the data it brought at its range. */
static doca_error_t take_shm(struct swnic_fabric_pipe *p, uint32_t seq, struct swnic_resp *resp, void *read_buf)
{
	unsigned k = inflight_index(seq);
	uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	doca_error_t err;

	memcpy(rhdr, swnic_shm_slot_of(p->conn->map->ctl, seq)->resp_hdr, sizeof(rhdr));
	err = swnic_frame_decode_resp(rhdr, sizeof(rhdr), p->nic->fabric->max_msg, &prefix, resp, why, sizeof(why));
	if (err == DOCA_SUCCESS)
		err = swnic_frame_check_resp(&p->inflight[k].req, p->inflight[k].request_id, &prefix, resp, why,
					     sizeof(why));
	if (err == DOCA_SUCCESS && prefix.flags != 0) {
		snprintf(why, sizeof(why), "flags 0x%x on a channel's response", prefix.flags);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err != DOCA_SUCCESS) {
		char where[40];

		swnic_endpoint_format(&p->conn->ep, where, sizeof(where));
		OGDA_LOG_ERR("%s: fabric: bad shared-memory response from %s: %s; closing the channel", p->nic->name,
			     where, why);
		return DOCA_ERROR_CONNECTION_RESET;
	}
	/* Validated above: read_len <= req->len <= the range the request reserved. */
	if (resp->read_len > 0 && read_buf != NULL)
		memcpy(read_buf, p->conn->map->data + p->inflight[k].data_off, resp->read_len);
	return DOCA_SUCCESS;
}

/* The answer to request seq over TCP (READ data into read_buf, or scratch when NULL). */
static doca_error_t take_tcp(struct swnic_fabric_pipe *p, uint32_t seq, struct swnic_resp *resp, void *read_buf)
{
	unsigned k = inflight_index(seq);
	bool closing = false;
	doca_error_t err;

	if (read_buf == NULL && p->inflight[k].req.op == SWNIC_REQ_READ && p->inflight[k].req.len > 0) {
		read_buf = scratch(p);
		if (read_buf == NULL)
			return DOCA_ERROR_CONNECTION_RESET; /* the answer cannot be read: drop the connection */
	}
	err = swnic_fabric_recv_resp(p->nic->fabric, p->conn, &p->inflight[k].req, p->inflight[k].request_id, resp,
				     read_buf, p->inflight[k].deadline_ns, p->inflight[k].timeout_ns, &closing);
	if (err == DOCA_SUCCESS && closing)
		p->closing = true; /* the server reads nothing more on this connection */
	if (err == DOCA_ERROR_INVALID_VALUE)
		err = DOCA_ERROR_CONNECTION_RESET; /* logged */
	return err;
}

/* Waits for (block) or looks at the oldest answer and takes it; read_buf NULL: READ data dropped. */
static doca_error_t take_oldest(struct swnic_fabric_pipe *p, struct swnic_resp *resp, void *read_buf, bool block)
{
	uint32_t seq = p->answered + 1u;
	doca_error_t err;

	memset(resp, 0, sizeof(*resp));
	err = await(p, seq, p->inflight[inflight_index(seq)].deadline_ns, block);
	if (err == DOCA_SUCCESS)
		err = is_tcp(p) ? take_tcp(p, seq, resp, read_buf) : take_shm(p, seq, resp, read_buf);
	if (err == DOCA_ERROR_AGAIN)
		return err;
	if (err != DOCA_SUCCESS) {
		memset(resp, 0, sizeof(*resp));
		return drop(p, err == DOCA_ERROR_TIME_OUT ? err : DOCA_ERROR_CONNECTION_RESET);
	}
	atomic_fetch_add(is_tcp(p) ? &p->nic->fabric->stats.tcp_deliveries : &p->nic->fabric->stats.shm_deliveries, 1);
	retire(p);
	p->last_use_ns = swnic_sock_now_ns();
	return DOCA_SUCCESS;
}

doca_error_t swnic_fabric_pipe_answer(struct swnic_fabric_pipe *p, const struct swnic_req *req,
				      struct swnic_resp *resp, void *read_buf, bool block)
{
	if (p == NULL || p->nic == NULL || req == NULL || resp == NULL) {
		OGDA_LOG_ERR("fabric pipe answer: NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (p->conn == NULL || swnic_fabric_pipe_outstanding(p) == 0)
		return DOCA_ERROR_BAD_STATE;
	{
		const struct swnic_req *oldest = &p->inflight[inflight_index(p->answered + 1u)].req;

		if (oldest->op != req->op || oldest->psn != req->psn || oldest->dst_qpn != req->dst_qpn) {
			OGDA_LOG_ERR("%s: fabric pipe answer: asked for op %u psn 0x%x, the oldest in flight is op %u psn 0x%x",
				     p->nic->name, req->op, req->psn, oldest->op, oldest->psn);
			return DOCA_ERROR_BAD_STATE;
		}
	}
	return take_oldest(p, resp, read_buf, block);
}

void swnic_fabric_pipe_reset(struct swnic_fabric_pipe *p, bool drain)
{
	struct swnic_resp dropped;

	if (p == NULL || p->conn == NULL)
		return;
	if (drain)
		atomic_fetch_add(&p->nic->fabric->stats.pipe_go_backs, 1);
	/* Each answer taken and thrown away: take_oldest drops the connection when one fails. */
	while (drain && p->conn != NULL && swnic_fabric_pipe_outstanding(p) != 0 &&
	       take_oldest(p, &dropped, NULL, true) == DOCA_SUCCESS)
		;
	if (p->conn != NULL && swnic_fabric_pipe_outstanding(p) != 0)
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
	if (p == NULL)
		return;
	free(p->scratch);
	p->scratch = NULL;
	if (p->conn != NULL)
		give_back(p, swnic_fabric_pipe_outstanding(p) == 0);
}
