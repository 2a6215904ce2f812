/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's connection handshake (docs/swnic.md §11.3, §11.6). Every connection starts
 * with a hello each way, saying whether the sender has a shared secret
 * (OPENGDA_SWNIC_SECRET) and carrying a 32-byte random nonce:
 *
 *   client -> server  hello {secret?, Nc}
 *   server -> client  hello {secret?, Ns, Ms}   Ms = HMAC(K, "OGDA fabric 2 server" | Nc | Ns)
 *   client -> server  auth  {Mc}                Mc = HMAC(K, "OGDA fabric 2 client" | Nc | Ns)
 *
 * with K the secret; the macs are zero, and there is no auth, when neither side has one.
 * Each side checks the other's proof over both nonces, so neither a replayed proof nor
 * one side's own proof reflected back passes, and the client checks the server before
 * sending anything else. A connection on which only one side has a secret, or whose proof
 * does not match, is closed with a log line on each side; no request is read from it.
 */
#include "swnic/swnic_fabric_priv.h"

#include "core/log.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_hmac.h"
#include "swnic/swnic_random.h"
#include "swnic/swnic_sock.h"

#include <stdio.h>
#include <string.h>

#define LABEL_SERVER "OGDA fabric 2 server"
#define LABEL_CLIENT "OGDA fabric 2 client"

static void proof(const struct swnic_fabric *f, const char *label, const uint8_t *nc, const uint8_t *ns,
		  uint8_t mac[SWNIC_FRAME_MAC_LEN])
{
	const struct swnic_hmac_part parts[3] = {
		{label, strlen(label)},
		{nc, SWNIC_FRAME_NONCE_LEN},
		{ns, SWNIC_FRAME_NONCE_LEN},
	};

	swnic_hmac_sha256(f->secret, f->secret_len, parts, 3, mac);
}

/* Receives one handshake frame of hdr_len bytes into buf; prefix checked by the caller's decoder. */
static doca_error_t recv_frame(int fd, uint8_t *buf, size_t hdr_len, uint64_t deadline, char *why, size_t cap)
{
	struct swnic_frame_prefix p;
	size_t got = 0;
	doca_error_t err;

	err = swnic_sock_recv_all(fd, buf, SWNIC_FRAME_PREFIX_LEN, deadline, &got);
	if (err != DOCA_SUCCESS) {
		snprintf(why, cap, "%s after %zu bytes of the handshake",
			 err == DOCA_ERROR_TIME_OUT ? "no handshake in time" : "connection closed", got);
		return err;
	}
	/* A peer of another version (or not a peer at all) is told apart before reading on. */
	err = swnic_frame_decode_prefix(buf, SWNIC_FRAME_PREFIX_LEN, 0, &p, why, cap);
	if (err != DOCA_SUCCESS)
		return err;
	if (p.header_len != hdr_len) {
		snprintf(why, cap, "frame type %u where a handshake frame was expected", p.type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_sock_recv_all(fd, buf + SWNIC_FRAME_PREFIX_LEN, hdr_len - SWNIC_FRAME_PREFIX_LEN, deadline, &got);
	if (err != DOCA_SUCCESS)
		snprintf(why, cap, "truncated handshake frame: %zu of %zu bytes", SWNIC_FRAME_PREFIX_LEN + got, hdr_len);
	return err;
}

static doca_error_t send_frame(int fd, uint8_t *buf, size_t len, uint64_t deadline)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};

	return swnic_sock_send_all(fd, &iov, 1, deadline);
}

bool swnic_fabric_auth_server(struct swnic_server_conn *sc)
{
	struct swnic_fabric *f = sc->fabric;
	uint8_t buf[SWNIC_FRAME_HELLO_HDR_LEN], mac[SWNIC_FRAME_MAC_LEN];
	struct swnic_frame_hello theirs, ours;
	char why[SWNIC_FRAME_WHY_LEN];
	doca_error_t err;

	err = recv_frame(sc->fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, sc->handshake_deadline, why, sizeof(why));
	if (err == DOCA_SUCCESS)
		err = swnic_frame_decode_hello(buf, sizeof(buf), &theirs, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		if (err == DOCA_ERROR_TIME_OUT)
			atomic_fetch_add(&f->stats.conns_timed_out, 1);
		else
			atomic_fetch_add(&f->stats.frames_rejected, 1);
		OGDA_LOG_WARN("%s: fabric: no valid hello from %s: %s; closing the connection", f->nic->name, sc->peer,
			      why);
		return false;
	}
	memset(&ours, 0, sizeof(ours));
	ours.secret = f->secret_len > 0;
	if (swnic_random_bytes(ours.nonce, sizeof(ours.nonce)) != DOCA_SUCCESS)
		return false;
	if (ours.secret && theirs.secret)
		proof(f, LABEL_SERVER, theirs.nonce, ours.nonce, ours.mac);
	swnic_frame_encode_hello(&ours, buf);
	/* Answered even on a mismatch, so that the client can say what is wrong, too. */
	if (send_frame(sc->fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, sc->handshake_deadline) != DOCA_SUCCESS)
		return false;
	if (ours.secret != theirs.secret) {
		/* Logged before it is counted: whoever waits on the count finds the line written. */
		OGDA_LOG_ERR("%s: fabric: %s %s; closing the connection", f->nic->name, sc->peer,
			     ours.secret ? "has no OPENGDA_SWNIC_SECRET, which this NIC requires"
					 : "authenticates with OPENGDA_SWNIC_SECRET, which this NIC does not have");
		atomic_fetch_add(&f->stats.auth_failures, 1);
		return false;
	}
	if (!ours.secret)
		return true;
	err = recv_frame(sc->fd, buf, SWNIC_FRAME_AUTH_HDR_LEN, sc->handshake_deadline, why, sizeof(why));
	if (err == DOCA_SUCCESS)
		err = swnic_frame_decode_auth(buf, SWNIC_FRAME_AUTH_HDR_LEN, mac, why, sizeof(why));
	if (err == DOCA_SUCCESS) {
		uint8_t want[SWNIC_FRAME_MAC_LEN];

		proof(f, LABEL_CLIENT, theirs.nonce, ours.nonce, want);
		if (!swnic_ct_equal(mac, want, sizeof(want))) {
			snprintf(why, sizeof(why), "wrong proof of the shared secret");
			err = DOCA_ERROR_NOT_PERMITTED;
		}
	}
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: fabric: %s failed authentication (%s; a different OPENGDA_SWNIC_SECRET?); closing the connection",
			     f->nic->name, sc->peer, why);
		atomic_fetch_add(&f->stats.auth_failures, 1);
		return false;
	}
	/* Proven to hold the secret: a peer, whatever it asks for next. */
	atomic_store(&sc->trusted, true);
	OGDA_LOG_DBG("%s: fabric: %s authenticated", f->nic->name, sc->peer);
	return true;
}

doca_error_t swnic_fabric_auth_client(struct swnic_fabric *f, int fd, const struct swnic_endpoint *ep,
				      uint64_t deadline)
{
	uint8_t buf[SWNIC_FRAME_HELLO_HDR_LEN], want[SWNIC_FRAME_MAC_LEN];
	struct swnic_frame_hello ours, theirs;
	char why[SWNIC_FRAME_WHY_LEN], where[40];
	doca_error_t err;

	memset(&ours, 0, sizeof(ours));
	ours.secret = f->secret_len > 0;
	err = swnic_random_bytes(ours.nonce, sizeof(ours.nonce));
	if (err != DOCA_SUCCESS)
		return err;
	swnic_frame_encode_hello(&ours, buf);
	err = send_frame(fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, deadline);
	if (err != DOCA_SUCCESS)
		return err;
	swnic_endpoint_format(ep, where, sizeof(where));
	err = recv_frame(fd, buf, SWNIC_FRAME_HELLO_HDR_LEN, deadline, why, sizeof(why));
	if (err == DOCA_ERROR_TIME_OUT || err == DOCA_ERROR_CONNECTION_RESET)
		return err; /* a silent or dying peer: a transport failure, as for a request */
	if (err == DOCA_SUCCESS)
		err = swnic_frame_decode_hello(buf, sizeof(buf), &theirs, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("%s: fabric: bad hello from %s: %s; closing the connection", f->nic->name, where, why);
		return DOCA_ERROR_CONNECTION_RESET;
	}
	if (ours.secret != theirs.secret) {
		OGDA_LOG_ERR("%s: fabric: %s %s; closing the connection", f->nic->name, where,
			     ours.secret ? "has no OPENGDA_SWNIC_SECRET, which this NIC requires"
					 : "requires OPENGDA_SWNIC_SECRET, which this NIC does not have");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!ours.secret)
		return DOCA_SUCCESS;
	proof(f, LABEL_SERVER, ours.nonce, theirs.nonce, want);
	if (!swnic_ct_equal(theirs.mac, want, sizeof(want))) {
		OGDA_LOG_ERR("%s: fabric: %s failed authentication (a different OPENGDA_SWNIC_SECRET?); closing the connection",
			     f->nic->name, where);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	proof(f, LABEL_CLIENT, ours.nonce, theirs.nonce, want);
	swnic_frame_encode_auth(want, buf);
	return send_frame(fd, buf, SWNIC_FRAME_AUTH_HDR_LEN, deadline);
}
