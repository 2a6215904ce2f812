/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shared-memory fabric on its own (fabric_fixture.h: bare instances that are not in the
 * process registry, so requests between them take the path two processes of one host take):
 *  - requests land exactly through a channel, NAKs come back as verdicts, nothing else is
 *    opened; a refused payload never reaches the responder;
 *  - a peer without shared memory, and a requester told to avoid it, use TCP (counted);
 *  - the shared secret is checked on the Unix socket as on TCP;
 *  - offers that are not a sealed memfd of the right size, a hostile header, and a
 *    stranger's idle channel are refused and closed without reaching the responder.
 */
#define _GNU_SOURCE /* memfd_create */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fabric_fixture.h"
#include "swnic/swnic_fabric_shm.h"
#include "swnic/swnic_sock.h"

#define TIMEOUT_NS (5ull * 1000 * 1000 * 1000)
#define SECRET_A "a shared secret of the test, 1"
#define SECRET_B "another secret of the test, 22"

static void shm_write_read_atomics_land(void **state)
{
	struct ffx a, b;
	struct swnic_fabric_stats sa, sb;

	(void)state;
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	ffx_write_read_atomics(&a, &b, TIMEOUT_NS);
	/* all through one channel; nothing over TCP */
	sa = ffx_stats(&a);
	sb = ffx_stats(&b);
	assert_true(sa.shm_deliveries == 6);
	assert_true(sa.shm_channels_opened == 1);
	assert_true(sa.tcp_deliveries == 0 && sa.conns_opened == 0 && sa.shm_fallbacks == 0);
	assert_true(sb.frames_served == 6);
	/* the bad-rkey WRITE was refused from its header: the responder never saw it */
	assert_int_equal(atomic_load(&b.calls), 5);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* A peer that offers no shared memory, and a requester that must not use it, talk TCP. */
static void shm_falls_back_to_tcp(void **state)
{
	struct ffx a, b, c;
	struct swnic_fabric_stats s;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);

	(void)state;
	setenv(SWNIC_ENV_SHM, "0", 1);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&c, 2, 0), DOCA_SUCCESS);
	unsetenv(SWNIC_ENV_SHM);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	s = ffx_stats(&a);
	/* one look for b's Unix socket, then TCP without looking again */
	assert_true(s.shm_fallbacks == 1 && s.tcp_deliveries == 2 && s.shm_deliveries == 0);
	assert_true(s.conns_opened == 1 && s.shm_channels_opened == 0);

	/* c has no shared memory either way: as a requester it never tries, a has a channel to... none */
	assert_int_equal(swnic_fabric_deliver(&c.nic, a.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	s = ffx_stats(&c);
	assert_true(s.tcp_deliveries == 1 && s.shm_fallbacks == 0 && s.shm_channels_opened == 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
	ffx_destroy(&c);
}

static void shm_checks_the_shared_secret(void **state)
{
	struct ffx a, b;
	struct swnic_resp resp;
	struct swnic_req req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);

	(void)state;
	setenv("OPENGDA_SWNIC_SECRET", SECRET_A, 1);
	assert_int_equal(ffx_create(&a, 0, 0), DOCA_SUCCESS);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS), DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_ACK);
	assert_true(ffx_stats(&a).shm_deliveries == 1);
	ffx_destroy(&b);

	setenv("OPENGDA_SWNIC_SECRET", SECRET_B, 1);
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);
	unsetenv("OPENGDA_SWNIC_SECRET");
	/* refused on the Unix socket, then on TCP: the peer is unreachable, nothing executes */
	assert_int_equal(swnic_fabric_deliver(&a.nic, b.gid, &req, &resp, NULL, TIMEOUT_NS),
			 DOCA_ERROR_NOT_CONNECTED);
	{
		uint64_t t0 = ffx_now_ns();

		/* the server counts its refusal after the requester has heard it */
		while (ffx_stats(&b).auth_failures < 2 && ffx_ms_since(t0) < 5000)
			usleep(1000);
	}
	assert_true(ffx_stats(&b).auth_failures == 2); /* the Unix socket's handshake, then TCP's */
	assert_int_equal(atomic_load(&b.calls), 0);
	ffx_destroy(&a);
	ffx_destroy(&b);
}

/* Waits until x has counted n rejected frames (or 5 s pass). */
static uint64_t rejected_after(struct ffx *x, uint64_t n)
{
	uint64_t t0 = ffx_now_ns();

	while (ffx_stats(x).frames_rejected < n && ffx_ms_since(t0) < 5000)
		usleep(1000);
	return ffx_stats(x).frames_rejected;
}

static int memfd_of(size_t size, bool seal)
{
	int fd = memfd_create("test-channel", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	if (seal)
		assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), 0);
	return fd;
}

static void shm_refuses_bad_offers(void **state)
{
	struct ffx b;
	uint8_t junk[8] = {0};
	int fd, mfd;

	(void)state;
	assert_int_equal(ffx_create(&b, 1, 0), DOCA_SUCCESS);

	/* no descriptor */
	fd = ffx_connect_unix_raw(&b);
	assert_true(fd >= 0);
	assert_int_equal(send(fd, junk, sizeof(junk), MSG_NOSIGNAL), (ssize_t)sizeof(junk));
	assert_true(ffx_peer_closed(fd, 5000));
	close(fd);
	assert_true(rejected_after(&b, 1) == 1);

	/* unsealed: the peer could shrink it under the server's mapping */
	fd = ffx_connect_unix_raw(&b);
	mfd = memfd_of(SWNIC_SHM_SIZE, false);
	assert_int_equal(swnic_shm_send_offer(fd, mfd, swnic_deadline_after(TIMEOUT_NS)), DOCA_SUCCESS);
	assert_true(ffx_peer_closed(fd, 5000));
	close(fd);
	close(mfd);
	assert_true(rejected_after(&b, 2) == 2);

	/* sealed, but not the channel's size */
	fd = ffx_connect_unix_raw(&b);
	mfd = memfd_of(4096, true);
	assert_int_equal(swnic_shm_send_offer(fd, mfd, swnic_deadline_after(TIMEOUT_NS)), DOCA_SUCCESS);
	assert_true(ffx_peer_closed(fd, 5000));
	close(fd);
	close(mfd);
	assert_true(rejected_after(&b, 3) == 3);
	assert_int_equal(atomic_load(&b.calls), 0);
	ffx_destroy(&b);
}

/* b with a valid channel offered to it on a fresh Unix connection; returns the connection. */
static int offer_channel(struct ffx *b, struct swnic_shm_map *m)
{
	int fd;

	assert_int_equal(ffx_create(b, 1, 0), DOCA_SUCCESS);
	fd = ffx_connect_unix_raw(b);
	assert_true(fd >= 0);
	assert_int_equal(swnic_shm_create(m), DOCA_SUCCESS);
	assert_int_equal(swnic_shm_send_offer(fd, m->memfd, swnic_deadline_after(TIMEOUT_NS)), DOCA_SUCCESS);
	return fd;
}

/* A valid channel with a hostile header: rejected by the TCP frame's validation, never executed. */
static void shm_rejects_a_bad_header(void **state)
{
	struct swnic_req req = ffx_req(SWNIC_REQ_WRITE, 0, 64);
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	struct swnic_shm_map m;
	struct ffx b;
	int fd;

	(void)state;
	fd = offer_channel(&b, &m);
	req.payload = m.data;
	assert_int_equal(swnic_frame_encode_req(1, &req, SWNIC_FABRIC_MAX_MSG_CAP, hdr), DOCA_SUCCESS);
	hdr[24] = 0x7f; /* op */
	memcpy(swnic_shm_slot_of(m.ctl, 1)->req_hdr, hdr, sizeof(hdr));
	swnic_shm_slot_of(m.ctl, 1)->data_len = 64;
	swnic_shm_post(&m.ctl->req_seq, &m.ctl->server_sleeping, 1, fd);
	assert_true(ffx_peer_closed(fd, 5000));
	assert_true(rejected_after(&b, 1) == 1);
	assert_int_equal(atomic_load(&m.ctl->resp_seq), 0); /* no answer */
	assert_int_equal(atomic_load(&b.calls), 0);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);
}

/* Posts request 1 on channel m: req's header, the slot's data range and IPC fields as given. */
static void post_slot(int fd, struct swnic_shm_map *m, const struct swnic_req *req, uint32_t data_len, uint32_t ipc,
		      const struct swnic_ipc_ref *ref)
{
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	struct swnic_shm_slot *slot = swnic_shm_slot_of(m->ctl, 1);

	assert_int_equal(swnic_frame_encode_req(1, req, SWNIC_FABRIC_MAX_MSG_CAP, hdr), DOCA_SUCCESS);
	memcpy(slot->req_hdr, hdr, sizeof(hdr));
	slot->data_off = 0;
	slot->data_len = data_len;
	slot->ipc = ipc;
	if (ref != NULL)
		slot->ipc_ref = *ref;
	swnic_shm_post(&m->ctl->req_seq, &m->ctl->server_sleeping, 1, fd);
}

/* A GPU memory reference on anything but a WRITE, or of an unknown kind: the channel is closed unexecuted. */
static void shm_rejects_bad_gpu_references(void **state)
{
	struct swnic_req rd = ffx_req(SWNIC_REQ_READ, 0, 64);
	struct swnic_req wr = ffx_req(SWNIC_REQ_WRITE, 0, 64);
	struct swnic_ipc_ref ref;
	struct swnic_shm_map m;
	struct ffx b;
	int fd;

	(void)state;
	memset(&ref, 0, sizeof(ref));
	strcpy(ref.bus_id, "0000:00:00.0");

	fd = offer_channel(&b, &m); /* a READ claiming a GPU payload */
	post_slot(fd, &m, &rd, 64, 1, &ref);
	assert_true(ffx_peer_closed(fd, 5000));
	assert_true(rejected_after(&b, 1) == 1);
	assert_int_equal(atomic_load(&m.ctl->resp_seq), 0);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);

	fd = offer_channel(&b, &m); /* a payload kind nobody defined */
	wr.payload = m.data;
	post_slot(fd, &m, &wr, 64, 2, &ref);
	assert_true(ffx_peer_closed(fd, 5000));
	assert_true(rejected_after(&b, 1) == 1);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);

	fd = offer_channel(&b, &m); /* a reference that also reserves data: one or the other */
	post_slot(fd, &m, &wr, 64, 1, &ref);
	assert_true(ffx_peer_closed(fd, 5000));
	assert_true(rejected_after(&b, 1) == 1);
	assert_int_equal(atomic_load(&b.calls), 0);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);
}

/*
 * A WRITE whose GPU memory reference this process cannot open (here: no such GPU, or no
 * driver at all) is answered as a failed operation (REMOTE_OP), never executed, and the
 * channel goes on serving.
 */
static void shm_unopenable_gpu_reference_is_a_remote_op_error(void **state)
{
	struct swnic_req wr = ffx_req(SWNIC_REQ_WRITE, 0, 64);
	uint8_t rhdr[SWNIC_FRAME_RESP_HDR_LEN];
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_ipc_ref ref;
	struct swnic_resp resp;
	struct swnic_shm_map m;
	uint64_t t0;
	struct ffx b;
	int fd;

	(void)state;
	memset(&ref, 0x5a, sizeof(ref)); /* not a handle any driver made */
	strcpy(ref.bus_id, "ffff:ff:1f.7");
	fd = offer_channel(&b, &m);
	wr.payload = m.data;
	post_slot(fd, &m, &wr, 0, 1, &ref);
	t0 = ffx_now_ns();
	while (atomic_load(&m.ctl->resp_seq) != 1 && ffx_ms_since(t0) < 10000)
		usleep(1000);
	assert_int_equal(atomic_load(&m.ctl->resp_seq), 1);
	memcpy(rhdr, swnic_shm_slot_of(m.ctl, 1)->resp_hdr, sizeof(rhdr));
	assert_int_equal(swnic_frame_decode_resp(rhdr, sizeof(rhdr), SWNIC_FABRIC_MAX_MSG_CAP, &prefix, &resp, why,
						 sizeof(why)),
			 DOCA_SUCCESS);
	assert_int_equal(resp.status, SWNIC_RESP_NAK_REMOTE_OP);
	assert_int_equal(atomic_load(&b.calls), 0);
	assert_true(ffx_stats(&b).ipc_payloads_served == 0);
	assert_true(ffx_stats(&b).frames_rejected == 0);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);
}

/* A stranger's channel that never asks anything is closed at the handshake deadline (300 ms here). */
static void shm_idle_stranger_is_closed(void **state)
{
	struct swnic_shm_map m;
	struct ffx b;
	uint64_t t0;
	int fd;

	(void)state;
	fd = offer_channel(&b, &m);
	t0 = ffx_now_ns();
	assert_true(ffx_peer_closed(fd, 10000));
	assert_true(ffx_ms_since(t0) < 10000);
	assert_true(ffx_stats(&b).conns_timed_out >= 1);
	close(fd);
	swnic_shm_unmap(&m);
	ffx_destroy(&b);
}

static void shm_fits_the_channel_or_takes_tcp(void **state)
{
	struct swnic_req req = ffx_req(SWNIC_REQ_READ, 0, SWNIC_SHM_DATA_CAP);

	(void)state;
	assert_true(swnic_shm_fits(&req));
	req.len = SWNIC_SHM_DATA_CAP + 1;
	assert_false(swnic_shm_fits(&req));
	req = ffx_req(SWNIC_REQ_WRITE, 0, SWNIC_SHM_DATA_CAP + 4096);
	assert_false(swnic_shm_fits(&req));
	req = ffx_req(SWNIC_REQ_ATOMIC_FA, 0, 8);
	assert_true(swnic_shm_fits(&req));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shm_write_read_atomics_land),
		cmocka_unit_test(shm_falls_back_to_tcp),
		cmocka_unit_test(shm_checks_the_shared_secret),
		cmocka_unit_test(shm_refuses_bad_offers),
		cmocka_unit_test(shm_rejects_a_bad_header),
		cmocka_unit_test(shm_rejects_bad_gpu_references),
		cmocka_unit_test(shm_unopenable_gpu_reference_is_a_remote_op_error),
		cmocka_unit_test(shm_idle_stranger_is_closed),
		cmocka_unit_test(shm_fits_the_channel_or_takes_tcp),
	};

	unsetenv(SWNIC_ENV_SHM);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
