/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_proto.h"

#include <stdio.h>
#include <string.h>

#include "sample_oob.h"
#include "sample_util.h"

#define HELLO_LEN 45u
#define SETUP_LEN 47u
#define STEP_LEN (4u + 1u + 4u + 8u + 4u + 8u + 256u)
#define ERROR_MAX 256u

const char *ex_msg_name(uint16_t type)
{
	switch (type) {
	case EX_MSG_HELLO: return "hello";
	case EX_MSG_SETUP: return "setup";
	case EX_MSG_STEP_BEGIN: return "step begin";
	case EX_MSG_STEP_READY: return "step ready";
	case EX_MSG_STEP_DONE: return "step done";
	case EX_MSG_STEP_RESULT: return "step result";
	case EX_MSG_BYE: return "bye";
	case EX_MSG_ERROR: return "error";
	default: return "unknown message";
	}
}

/*
 * Receives a message of type want with exactly len payload bytes. An ERROR message instead is
 * the peer's reason for stopping: it is printed and the call fails.
 */
static int recv_msg(int fd, uint16_t want, void *payload, uint32_t len, int timeout_ms)
{
	uint8_t text[ERROR_MAX + 1];
	uint16_t type;
	uint32_t got;

	if (sample_oob_recv_header(fd, timeout_ms, ex_msg_name(want), &type, &got) != 0)
		return -1;
	if (type == EX_MSG_ERROR) {
		if (got > ERROR_MAX || sample_oob_recv_payload(fd, text, got, timeout_ms, "the peer's error") != 0)
			return -1;
		text[got] = '\0';
		sample_err("the peer stopped: %s", (const char *)text);
		return -1;
	}
	if (type != want) {
		sample_err("out-of-band: %s (type %u) where the %s (type %u) was expected", ex_msg_name(type), type,
			   ex_msg_name(want), want);
		return -1;
	}
	if (got != len) {
		sample_err("out-of-band: the %s carries %u bytes, expected %u", ex_msg_name(want), got, len);
		return -1;
	}
	return sample_oob_recv_payload(fd, payload, len, timeout_ms, ex_msg_name(want));
}

int ex_send_hello(int fd, const struct ex_hello *h, int timeout_ms)
{
	uint8_t p[HELLO_LEN];

	sample_put_be16(p, h->proto);
	sample_put_be16(p + 2, h->example_id);
	sample_put_be64(p + 4, h->min_size);
	sample_put_be64(p + 12, h->max_size);
	sample_put_be32(p + 20, h->iters);
	sample_put_be32(p + 24, h->blocks);
	sample_put_be32(p + 28, h->threads);
	p[32] = h->scope;
	sample_put_be64(p + 33, h->seed);
	sample_put_be32(p + 41, 0); /* reserved */
	return sample_oob_send(fd, EX_MSG_HELLO, p, sizeof(p), timeout_ms);
}

int ex_recv_hello(int fd, struct ex_hello *h, int timeout_ms)
{
	uint8_t p[HELLO_LEN];

	if (recv_msg(fd, EX_MSG_HELLO, p, sizeof(p), timeout_ms) != 0)
		return -1;
	h->proto = sample_get_be16(p);
	h->example_id = sample_get_be16(p + 2);
	h->min_size = sample_get_be64(p + 4);
	h->max_size = sample_get_be64(p + 12);
	h->iters = sample_get_be32(p + 20);
	h->blocks = sample_get_be32(p + 24);
	h->threads = sample_get_be32(p + 28);
	h->scope = p[32];
	h->seed = sample_get_be64(p + 33);
	if (h->proto != EX_PROTO_VERSION) {
		sample_err("out-of-band: the client speaks example protocol %u, this server %u", h->proto,
			   EX_PROTO_VERSION);
		return -1;
	}
	return ex_hello_check(h);
}

int ex_hello_check(const struct ex_hello *h)
{
	if (h->min_size == 0 || h->min_size > h->max_size || h->max_size > EX_MAX_SIZE || h->iters == 0 ||
	    h->iters > EX_MAX_ITERS || h->blocks == 0 || h->blocks > EX_MAX_BLOCKS || h->threads == 0 ||
	    h->threads > EX_MAX_THREADS || h->scope > 2) {
		sample_err("the client's run parameters are out of range (sizes %llu..%llu, %u iterations, %u x %u "
			   "threads, scope %u)",
			   (unsigned long long)h->min_size, (unsigned long long)h->max_size, h->iters, h->blocks,
			   h->threads, h->scope);
		return -1;
	}
	/* Each side registers blocks x threads slots of the largest message: refuse before allocating. */
	if (ex_config_check_run_bytes(h->blocks, h->threads, h->max_size) != 0) {
		sample_err("the client's hello asks for more buffer than a run may have: refused");
		return -1;
	}
	return 0;
}

int ex_send_setup(int fd, const struct ex_setup *s, int timeout_ms)
{
	uint8_t p[SETUP_LEN];

	sample_put_be32(p, s->qpn);
	sample_put_be32(p + 4, s->psn);
	memcpy(p + 8, s->gid.raw, 16);
	sample_put_be16(p + 24, s->lid);
	p[26] = s->mtu;
	sample_put_be64(p + 27, s->addr);
	sample_put_be32(p + 35, s->rkey);
	sample_put_be64(p + 39, s->len);
	return sample_oob_send(fd, EX_MSG_SETUP, p, sizeof(p), timeout_ms);
}

int ex_recv_setup(int fd, struct ex_setup *s, int timeout_ms)
{
	uint8_t p[SETUP_LEN];

	if (recv_msg(fd, EX_MSG_SETUP, p, sizeof(p), timeout_ms) != 0)
		return -1;
	s->qpn = sample_get_be32(p);
	s->psn = sample_get_be32(p + 4);
	memcpy(s->gid.raw, p + 8, 16);
	s->lid = sample_get_be16(p + 24);
	s->mtu = p[26];
	s->addr = sample_get_be64(p + 27);
	s->rkey = sample_get_be32(p + 35);
	s->len = sample_get_be64(p + 39);
	if (s->qpn == 0 || s->qpn > 0xffffffu) {
		sample_err("out-of-band: the peer's QP number 0x%x is not a valid 24-bit QP number", s->qpn);
		return -1;
	}
	if (s->psn > 0xffffffu) {
		sample_err("out-of-band: the peer's PSN 0x%x is not 24 bits", s->psn);
		return -1;
	}
	if (s->mtu > DOCA_VERBS_MTU_SIZE_4K_BYTES) {
		sample_err("out-of-band: the peer's MTU code %u is beyond 4096 bytes (%u)", s->mtu,
			   DOCA_VERBS_MTU_SIZE_4K_BYTES);
		return -1;
	}
	if (s->addr == 0 || s->len == 0 || s->addr + s->len < s->addr) {
		sample_err("out-of-band: the peer's buffer [0x%llx, +%llu) is not a valid range",
			   (unsigned long long)s->addr, (unsigned long long)s->len);
		return -1;
	}
	return 0;
}

int ex_send_step(int fd, uint16_t type, const struct ex_step_msg *m, int timeout_ms)
{
	uint8_t p[STEP_LEN];

	memset(p, 0, sizeof(p));
	sample_put_be32(p, m->row);
	p[4] = m->timed;
	sample_put_be32(p + 5, (uint32_t)m->status);
	sample_put_be64(p + 9, m->iters);
	sample_put_be32(p + 17, m->threads);
	sample_put_be64(p + 21, m->ns);
	snprintf((char *)p + 29, 256, "%s", m->text);
	return sample_oob_send(fd, type, p, sizeof(p), timeout_ms);
}

int ex_recv_step(int fd, uint16_t type, uint32_t row, bool timed, struct ex_step_msg *m, int timeout_ms)
{
	uint8_t p[STEP_LEN];

	if (recv_msg(fd, type, p, sizeof(p), timeout_ms) != 0)
		return -1;
	m->row = sample_get_be32(p);
	m->timed = p[4];
	m->status = (int32_t)sample_get_be32(p + 5);
	m->iters = sample_get_be64(p + 9);
	m->threads = sample_get_be32(p + 17);
	m->ns = sample_get_be64(p + 21);
	memcpy(m->text, p + 29, sizeof(m->text));
	m->text[sizeof(m->text) - 1] = '\0';
	if (m->row != row || (m->timed != 0) != timed) {
		sample_err("out-of-band: %s for row %u (%s) where row %u (%s) was expected", ex_msg_name(type), m->row,
			   m->timed ? "timed" : "warm-up", row, timed ? "timed" : "warm-up");
		return -1;
	}
	return 0;
}

int ex_send_bye(int fd, int timeout_ms)
{
	return sample_oob_send(fd, EX_MSG_BYE, NULL, 0, timeout_ms);
}

int ex_recv_bye(int fd, int timeout_ms)
{
	return recv_msg(fd, EX_MSG_BYE, NULL, 0, timeout_ms);
}

void ex_send_error(int fd, const char *why)
{
	size_t n = strlen(why);

	if (fd >= 0)
		(void)sample_oob_send_quiet(fd, EX_MSG_ERROR, why, (uint32_t)(n > ERROR_MAX ? ERROR_MAX : n));
}
