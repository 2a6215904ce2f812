/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Payload memory of the fabric server, on a whole software NIC (fabric_nic_fixture.h)
 * reached by raw sockets: a request is judged from its header before its payload is
 * accepted, so headers announcing 1 GiB to a QP, key or range they may not use get their
 * refusal at once and cost no payload memory; a peer's large WRITE streams into the
 * target in bounded chunks and lands whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "fabric_fixture.h"
#include "fabric_nic_fixture.h"
#include "swnic/swnic.h"
#include "swnic/swnic_fabric.h"
#include "swnic/swnic_fabric_frame.h"

#define HUGE_LEN (1u << 30)
#define ANSWER_MS 3000
#define NO_ANSWER 0xff

/* A WRITE from x's QP's connected peer (the QP itself) to its region, at PSN psn. */
static struct swnic_req peer_write(const struct fnx *x, uint64_t off, uint32_t len, uint32_t psn)
{
	struct swnic_req r;

	memset(&r, 0, sizeof(r));
	r.op = SWNIC_REQ_WRITE;
	r.src_qpn = x->qpn;
	r.dst_qpn = x->qpn;
	memcpy(r.src_gid, x->gid, 16);
	r.psn = psn;
	r.raddr = (uint64_t)(uintptr_t)x->region + off;
	r.rkey = x->rkey;
	r.len = len;
	r.payload = x; /* encode needs a pointer; the bytes are sent separately */
	return r;
}

/* Connects to x's fabric port and sends req's header only; answers wait at most ANSWER_MS. */
static int send_header(const struct fnx *x, const struct swnic_req *req)
{
	struct timeval tv = {ANSWER_MS / 1000, 0};
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	int fd = ffx_connect_gid(x->gid);

	assert_true(fd >= 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	assert_int_equal(swnic_frame_encode_req(77, req, 1ull << 30, hdr), DOCA_SUCCESS);
	assert_int_equal(send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL), (ssize_t)sizeof(hdr));
	return fd;
}

/* The status of the response read from fd, NO_ANSWER when none came. */
static uint8_t answer_of(int fd)
{
	uint8_t rbuf[SWNIC_FRAME_RESP_HDR_LEN];

	if (recv(fd, rbuf, sizeof(rbuf), MSG_WAITALL) != (ssize_t)sizeof(rbuf))
		return NO_ANSWER;
	assert_int_equal(rbuf[5], SWNIC_FRAME_RESP);
	assert_int_equal(rbuf[23], 77); /* request id echoed */
	return rbuf[24];
}

static struct swnic_fabric_stats stats_of(uint32_t index)
{
	struct swnic_fabric_stats s;
	struct swnic *nic;

	assert_int_equal(swnic_open(index, &nic), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_get_stats(nic->fabric, &s), DOCA_SUCCESS);
	swnic_close(nic);
	return s;
}

/*
 * Four headers announcing 1 GiB: a stranger's (another source QPN), one to a QP that does
 * not exist, the peer's with a wrong key and the peer's beyond the MR. Each is refused
 * before a payload byte is sent (NO_QP for the first two, REMOTE_ACCESS for the others),
 * the garbage that follows is not read, the connection closes, and the server never held
 * payload memory for any of them.
 */
static void huge_refused_writes_cost_no_memory(void **state)
{
	static const uint8_t expect[] = {SWNIC_RESP_NO_QP, SWNIC_RESP_NO_QP, SWNIC_RESP_NAK_REMOTE_ACCESS,
					 SWNIC_RESP_NAK_REMOTE_ACCESS};
	static uint8_t garbage[1u << 20];
	struct swnic_req req[4];
	struct swnic_fabric_stats s;
	int fds[4];
	struct fnx x;
	size_t i;

	(void)state;
	fnx_open(&x, 0);
	for (i = 0; i < 4; i++)
		req[i] = peer_write(&x, 0, HUGE_LEN, 0);
	req[0].src_qpn ^= 0x10;
	req[1].dst_qpn ^= 0x10;
	req[2].rkey ^= 0x80;
	memset(garbage, 0x5a, sizeof(garbage));
	for (i = 0; i < 4; i++)
		fds[i] = send_header(&x, &req[i]);
	for (i = 0; i < 4; i++) {
		uint8_t st = answer_of(fds[i]);

		if (st != expect[i])
			fail_msg("header %zu: answer %u before its payload, expected %u", i, st, expect[i]);
		/* Whatever follows is not read: the connection is closed. */
		(void)send(fds[i], garbage, sizeof(garbage), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (!ffx_peer_closed(fds[i], ANSWER_MS))
			fail_msg("header %zu: connection still open after the refusal", i);
		close(fds[i]);
	}
	s = stats_of(0);
	if (s.payload_buffered_hwm > SWNIC_FABRIC_STREAM_CHUNK)
		fail_msg("the server held %llu bytes of payload for refused requests",
			 (unsigned long long)s.payload_buffered_hwm);
	fnx_close(&x);
	for (i = 0; i < FNX_REGION_SIZE; i++)
		if (x.region[i] != 0xee)
			fail_msg("a refused write changed byte %zu", i);
	free(x.region);
}

/*
 * The peer writes almost the whole region in one message: it streams through a buffer of
 * one chunk and lands exactly; the next message, at the PSN after all of the first one's
 * packets, lands too (the chunks advanced the QP's PSN as the whole message would).
 */
static void large_peer_write_streams_and_lands(void **state)
{
	const uint32_t len = FNX_REGION_SIZE - 8192, mtu = 4096;
	uint8_t *data = malloc(len);
	struct swnic_fabric_stats s;
	struct swnic_req req;
	struct fnx x;
	uint32_t i;
	int fd;

	(void)state;
	assert_non_null(data);
	for (i = 0; i < len; i++)
		data[i] = (uint8_t)(i * 13 + i / 4096);
	fnx_open(&x, 0);
	req = peer_write(&x, 4096, len, 0);
	fd = send_header(&x, &req);
	assert_int_equal(send(fd, data, len, MSG_NOSIGNAL), (ssize_t)len);
	assert_int_equal(answer_of(fd), SWNIC_RESP_ACK);

	req = peer_write(&x, 0, 16, (len + mtu - 1) / mtu);
	{
		uint8_t frame[SWNIC_FRAME_REQ_HDR_LEN + 16];

		assert_int_equal(swnic_frame_encode_req(77, &req, 1ull << 30, frame), DOCA_SUCCESS);
		memset(frame + SWNIC_FRAME_REQ_HDR_LEN, 0x42, 16);
		assert_int_equal(send(fd, frame, sizeof(frame), MSG_NOSIGNAL), (ssize_t)sizeof(frame));
	}
	assert_int_equal(answer_of(fd), SWNIC_RESP_ACK);
	close(fd);
	s = stats_of(0);
	if (s.payload_buffered_hwm > SWNIC_FABRIC_STREAM_CHUNK)
		fail_msg("a %u-byte write held %llu bytes of payload at once", len,
			 (unsigned long long)s.payload_buffered_hwm);
	fnx_close(&x);
	for (i = 0; i < 16; i++)
		assert_int_equal(x.region[i], 0x42);
	for (i = 16; i < 4096; i++)
		assert_int_equal(x.region[i], 0xee);
	assert_memory_equal(x.region + 4096, data, len);
	for (i = 4096 + len; i < FNX_REGION_SIZE; i++)
		assert_int_equal(x.region[i], 0xee);
	free(x.region);
	free(data);
}

/*
 * A peer's SEND over the buffering limit is refused from its header (NAK_INVALID_REQ),
 * before any of it is buffered; the connection closes.
 */
static void oversized_send_refused_unbuffered(void **state)
{
	struct swnic_req req;
	struct fnx x;
	int fd;

	(void)state;
	fnx_open(&x, 0);
	req = peer_write(&x, 0, SWNIC_FABRIC_MAX_BUFFERED + 1, 0);
	req.op = SWNIC_REQ_SEND;
	req.raddr = 0;
	req.rkey = 0;
	fd = send_header(&x, &req);
	assert_int_equal(answer_of(fd), SWNIC_RESP_NAK_INVALID_REQ);
	assert_true(ffx_peer_closed(fd, ANSWER_MS));
	close(fd);
	assert_true(stats_of(0).payload_buffered_hwm == 0);
	fnx_close(&x);
	free(x.region);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(huge_refused_writes_cost_no_memory),
		cmocka_unit_test(large_peer_write_streams_and_lands),
		cmocka_unit_test(oversized_send_refused_unbuffered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
