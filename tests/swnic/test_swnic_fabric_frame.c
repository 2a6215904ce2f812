/* SPDX-License-Identifier: BSD-3-Clause */
/* Fabric frames and GIDs: exact encodings, round trips, and every validation rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_gid.h"

#define CAP (1u << 20) /* max_msg used throughout */

/* ---- GID ---- */

static void gid_encode_exact_bytes(void **state)
{
	static const uint8_t expect[16] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 0x01, 0x00, 0x00,
					   0x00, 0x03, 0x12, 0x34, 0x7f, 0x00, 0x00, 0x01};
	struct swnic_endpoint ep = {.ipv4 = 0x7f000001u, .port = 0x1234, .nic_index = 3};
	struct swnic_endpoint back;
	uint8_t gid[16];

	(void)state;
	memset(gid, 0xaa, sizeof(gid));
	assert_int_equal(swnic_gid_encode(&ep, gid), DOCA_SUCCESS);
	assert_memory_equal(gid, expect, 16);
	assert_true(swnic_gid_is_swnic(gid));
	memset(&back, 0, sizeof(back));
	assert_int_equal(swnic_gid_decode(gid, &back), DOCA_SUCCESS);
	assert_int_equal(back.ipv4, 0x7f000001u);
	assert_int_equal(back.port, 0x1234);
	assert_int_equal(back.nic_index, 3);
}

static void gid_round_trip_extremes(void **state)
{
	struct swnic_endpoint ep = {.ipv4 = 0xc0a8fe09u, .port = 65535, .nic_index = 0xffff};
	struct swnic_endpoint back;
	uint8_t gid[16];
	char text[40];

	(void)state;
	assert_int_equal(swnic_gid_encode(&ep, gid), DOCA_SUCCESS);
	assert_int_equal(gid[8], 0xff);
	assert_int_equal(gid[11], 0xff);
	assert_int_equal(gid[12], 192);
	assert_int_equal(gid[15], 9);
	assert_int_equal(swnic_gid_decode(gid, &back), DOCA_SUCCESS);
	assert_int_equal(back.ipv4, ep.ipv4);
	assert_int_equal(back.port, ep.port);
	assert_int_equal(back.nic_index, ep.nic_index);
	swnic_endpoint_format(&back, text, sizeof(text));
	assert_string_equal(text, "192.168.254.9:65535");
}

static void gid_foreign_is_not_connected(void **state)
{
	/* A RoCE v2 GID (::ffff:192.168.1.5) and our prefix with format version 2. */
	static const uint8_t roce[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 5};
	struct swnic_endpoint ep = {.ipv4 = 0x7f000001u, .port = 1, .nic_index = 0};
	struct swnic_endpoint back = {.ipv4 = 7, .port = 7, .nic_index = 7};
	uint8_t gid[16];
	int i;

	(void)state;
	assert_false(swnic_gid_is_swnic(roce));
	assert_int_equal(swnic_gid_decode(roce, &back), DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(back.ipv4, 7); /* untouched */
	assert_int_equal(swnic_gid_encode(&ep, gid), DOCA_SUCCESS);
	for (i = 0; i < 8; i++) {
		uint8_t bad[16];

		memcpy(bad, gid, 16);
		bad[i] ^= 0x01;
		assert_false(swnic_gid_is_swnic(bad));
		assert_int_equal(swnic_gid_decode(bad, &back), DOCA_ERROR_NOT_CONNECTED);
	}
	assert_false(swnic_gid_is_swnic(NULL));
	assert_int_equal(swnic_gid_decode(NULL, &back), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_gid_decode(gid, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_gid_encode(NULL, gid), DOCA_ERROR_INVALID_VALUE);
}

/* ---- frames ---- */

static uint8_t payload_bytes[64];

static struct swnic_req sample_req(uint8_t op)
{
	struct swnic_req r;
	int i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < (int)sizeof(payload_bytes); i++)
		payload_bytes[i] = (uint8_t)(0x40 + i);
	r.op = op;
	r.src_qpn = 0x123456;
	r.dst_qpn = 0x000201;
	r.psn = 0xabcdef;
	for (i = 0; i < 16; i++)
		r.src_gid[i] = (uint8_t)(0xf0 + i);
	r.raddr = 0x0102030405060708ull;
	r.rkey = 0x11223344;
	switch (op) {
	case SWNIC_REQ_WRITE:
	case SWNIC_REQ_WRITE_IMM:
	case SWNIC_REQ_SEND:
	case SWNIC_REQ_SEND_IMM:
		r.len = 37;
		r.payload = payload_bytes;
		break;
	case SWNIC_REQ_READ:
		r.len = 4096;
		break;
	default:
		r.atomic_size = op == SWNIC_REQ_MASKED_CS ? 4 : 8;
		r.len = r.atomic_size;
		break;
	}
	memcpy(&r.imm, "\xde\xad\xbe\xef", 4);
	r.swap_add = 0xa1a2a3a4a5a6a7a8ull;
	r.compare = 0xb1b2b3b4b5b6b7b8ull;
	r.swap_mask = 0xc1c2c3c4c5c6c7c8ull;
	r.compare_mask = 0xd1d2d3d4d5d6d7d8ull;
	return r;
}

/* Header followed by the payload, as it travels. Returns the frame length. */
static size_t build_req_frame(const struct swnic_req *r, uint64_t id, uint8_t *buf)
{
	uint32_t plen = swnic_req_payload_len(r);

	assert_int_equal(swnic_frame_encode_req(id, r, CAP, buf), DOCA_SUCCESS);
	if (plen)
		memcpy(buf + SWNIC_FRAME_REQ_HDR_LEN, r->payload, plen);
	return SWNIC_FRAME_REQ_HDR_LEN + plen;
}

static void frame_req_exact_bytes(void **state)
{
	static const uint8_t expect[SWNIC_FRAME_REQ_HDR_LEN] = {
		/* 0 */ 0x4f, 0x47, 0x44, 0x46, 0x02, 0x01, 0x00, 0x00,
		/* 8 */ 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x25,
		/* 16 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		/* 24 */ 0x02, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56,
		/* 32 */ 0x00, 0x00, 0x02, 0x01, 0x00, 0xab, 0xcd, 0xef,
		/* 40 */ 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
		/* 48 */ 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
		/* 56 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		/* 64 */ 0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x25,
		/* 72 */ 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00,
		/* 80 */ 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
		/* 88 */ 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8,
		/* 96 */ 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
		/* 104 */ 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8,
	};
	struct swnic_req r = sample_req(SWNIC_REQ_WRITE_IMM);
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];

	(void)state;
	memset(hdr, 0x55, sizeof(hdr));
	assert_int_equal(swnic_frame_encode_req(0x0102030405060708ull, &r, CAP, hdr), DOCA_SUCCESS);
	assert_memory_equal(hdr, expect, sizeof(expect));
}

static void frame_resp_exact_bytes(void **state)
{
	static const uint8_t expect[SWNIC_FRAME_RESP_HDR_LEN] = {
		0x4f, 0x47, 0x44, 0x46, 0x02, 0x02, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
		0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22,
	};
	struct swnic_resp resp = {.status = SWNIC_RESP_NAK_RNR, .atomic_orig = 0x9988776655443322ull,
				  .read_len = 256};
	uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN];

	(void)state;
	assert_int_equal(swnic_frame_encode_resp(9, &resp, CAP, hdr), DOCA_SUCCESS);
	assert_memory_equal(hdr, expect, sizeof(expect));
}

static void assert_req_equal(const struct swnic_req *a, const struct swnic_req *b)
{
	assert_int_equal(a->op, b->op);
	assert_int_equal(a->atomic_size, b->atomic_size);
	assert_int_equal(a->src_qpn, b->src_qpn);
	assert_int_equal(a->dst_qpn, b->dst_qpn);
	assert_int_equal(a->psn, b->psn);
	assert_memory_equal(a->src_gid, b->src_gid, 16);
	assert_true(a->raddr == b->raddr);
	assert_int_equal(a->rkey, b->rkey);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->imm, b->imm);
	assert_int_equal(a->solicited, b->solicited);
	assert_true(a->swap_add == b->swap_add);
	assert_true(a->compare == b->compare);
	assert_true(a->swap_mask == b->swap_mask);
	assert_true(a->compare_mask == b->compare_mask);
}

static void frame_req_round_trip_every_op(void **state)
{
	uint8_t op;

	(void)state;
	for (op = SWNIC_REQ_WRITE; op <= SWNIC_REQ_MASKED_FA; op++) {
		struct swnic_req r = sample_req(op);
		uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN + 64];
		struct swnic_frame f;
		char why[SWNIC_FRAME_WHY_LEN];
		size_t n = build_req_frame(&r, 1000 + op, buf);

		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
		assert_int_equal(f.prefix.type, SWNIC_FRAME_REQ);
		assert_int_equal(f.prefix.version, SWNIC_FRAME_VERSION);
		assert_int_equal(f.prefix.header_len, SWNIC_FRAME_REQ_HDR_LEN);
		assert_true(f.prefix.request_id == 1000u + op);
		assert_int_equal(f.prefix.payload_len, swnic_req_payload_len(&r));
		assert_req_equal(&f.req, &r);
		if (r.payload != NULL) {
			assert_ptr_equal(f.req.payload, buf + SWNIC_FRAME_REQ_HDR_LEN);
			assert_memory_equal(f.req.payload, payload_bytes, r.len);
		} else {
			assert_null(f.req.payload);
			assert_null(f.payload);
		}
	}
}

/* The solicited-event flag: byte 26 bit 0, only on the ops that complete at the responder. */
static void frame_req_solicited_flag(void **state)
{
	static const uint8_t may[] = {SWNIC_REQ_WRITE_IMM, SWNIC_REQ_SEND, SWNIC_REQ_SEND_IMM};
	static const uint8_t may_not[] = {SWNIC_REQ_WRITE, SWNIC_REQ_READ, SWNIC_REQ_ATOMIC_CS, SWNIC_REQ_ATOMIC_FA,
					  SWNIC_REQ_MASKED_CS, SWNIC_REQ_MASKED_FA};
	uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN + 64];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_frame f;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(may); i++) {
		struct swnic_req r = sample_req(may[i]);

		r.solicited = true;
		n = build_req_frame(&r, 3, buf);
		assert_int_equal(buf[26], 0x01);
		assert_int_equal(buf[27], 0x00);
		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
		assert_true(f.req.solicited);
		assert_req_equal(&f.req, &r);
		/* Undefined flag bits and the reserved byte after the flags. */
		buf[26] = 0x03;
		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
		buf[26] = 0x01;
		buf[27] = 0x01;
		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
		/* Without the flag: byte 26 is 0 and the request is not solicited. */
		r.solicited = false;
		n = build_req_frame(&r, 3, buf);
		assert_int_equal(buf[26], 0x00);
		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
		assert_false(f.req.solicited);
	}
	for (i = 0; i < sizeof(may_not); i++) {
		struct swnic_req r = sample_req(may_not[i]);
		uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];

		n = build_req_frame(&r, 4, buf);
		buf[26] = 0x01;
		assert_int_equal(swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
		assert_non_null(strstr(why, "solicited"));
		r.solicited = true;
		assert_int_equal(swnic_req_check(&r, CAP, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(swnic_frame_encode_req(4, &r, CAP, hdr), DOCA_ERROR_INVALID_VALUE);
	}
}

static void frame_resp_round_trip(void **state)
{
	struct swnic_resp resp = {.status = SWNIC_RESP_ACK, .atomic_orig = 0x1122334455667788ull, .read_len = 5};
	struct swnic_req read = sample_req(SWNIC_REQ_READ);
	uint8_t buf[SWNIC_FRAME_RESP_HDR_LEN + 5];
	struct swnic_frame f;
	char why[SWNIC_FRAME_WHY_LEN];

	(void)state;
	assert_int_equal(swnic_frame_encode_resp(77, &resp, CAP, buf), DOCA_SUCCESS);
	memcpy(buf + SWNIC_FRAME_RESP_HDR_LEN, "hello", 5);
	assert_int_equal(swnic_frame_parse(buf, sizeof(buf), CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
	assert_int_equal(f.prefix.type, SWNIC_FRAME_RESP);
	assert_true(f.prefix.request_id == 77);
	assert_int_equal(f.resp.status, SWNIC_RESP_ACK);
	assert_true(f.resp.atomic_orig == 0x1122334455667788ull);
	assert_int_equal(f.resp.read_len, 5);
	assert_memory_equal(f.payload, "hello", 5);
	assert_int_equal(swnic_frame_check_resp(&read, 77, &f.prefix, &f.resp, why, sizeof(why)), DOCA_SUCCESS);
}

/* A valid WRITE frame in buf; returns its length. */
static size_t good_write(uint8_t *buf)
{
	struct swnic_req r = sample_req(SWNIC_REQ_WRITE);

	return build_req_frame(&r, 5, buf);
}

static void put32be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static doca_error_t parse(const uint8_t *buf, size_t n, char *why)
{
	struct swnic_frame f;

	memset(&f, 0x5a, sizeof(f));
	return swnic_frame_parse(buf, n, CAP, &f, why, SWNIC_FRAME_WHY_LEN);
}

static void frame_rejects_header_defects(void **state)
{
	uint8_t buf[256];
	char why[SWNIC_FRAME_WHY_LEN];
	size_t n;

	(void)state;
	n = good_write(buf);
	assert_int_equal(parse(buf, n, why), DOCA_SUCCESS);

	n = good_write(buf);
	buf[0] = 'X'; /* magic */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "magic"));

	n = good_write(buf);
	buf[4] = 1; /* version 1: no handshake, refused by version 2 */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_UNSUPPORTED_VERSION);
	assert_non_null(strstr(why, "version 1"));
	assert_non_null(strstr(why, "version 2"));
	n = good_write(buf);
	buf[4] = 0;
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_UNSUPPORTED_VERSION);

	n = good_write(buf);
	buf[5] = 3; /* type */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "type 3"));
	buf[5] = 0;
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);

	n = good_write(buf);
	buf[7] = 1; /* flags */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	n = good_write(buf);
	buf[11] = 1; /* reserved after header_len */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);

	n = good_write(buf);
	buf[9] = SWNIC_FRAME_REQ_HDR_LEN - 1; /* header_len */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "header length"));
	buf[9] = SWNIC_FRAME_RESP_HDR_LEN; /* a response's length on a request */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);

	n = good_write(buf);
	buf[26] = 1; /* request reserved */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	n = good_write(buf);
	buf[79] = 1; /* request reserved after imm */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
}

static void frame_rejects_truncation_and_trailing_bytes(void **state)
{
	uint8_t buf[256];
	char why[SWNIC_FRAME_WHY_LEN];
	size_t n, cut;

	(void)state;
	n = good_write(buf);
	for (cut = 0; cut < n; cut++) {
		doca_error_t err = parse(buf, cut, why);

		assert_int_equal(err, DOCA_ERROR_INVALID_VALUE);
		if (cut < SWNIC_FRAME_REQ_HDR_LEN)
			assert_non_null(strstr(why, "truncated"));
		else
			assert_non_null(strstr(why, "truncated payload"));
	}
	buf[n] = 0;
	assert_int_equal(parse(buf, n + 1, why), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "after the payload"));
	/* The staged decoders see truncation the same way. */
	{
		struct swnic_frame_prefix p;
		struct swnic_req r;

		assert_int_equal(swnic_frame_decode_prefix(buf, SWNIC_FRAME_PREFIX_LEN - 1, CAP, &p, why, sizeof(why)),
				 DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(swnic_frame_decode_req(buf, SWNIC_FRAME_REQ_HDR_LEN - 1, CAP, &p, &r, why, sizeof(why)),
				 DOCA_ERROR_INVALID_VALUE);
	}
}

static void frame_rejects_lengths_over_cap(void **state)
{
	uint8_t buf[256];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_req r;
	size_t n;

	(void)state;
	/* payload_len over the cap: refused from the prefix alone, before any payload is read */
	n = good_write(buf);
	put32be(buf + 12, CAP + 1);
	put32be(buf + 68, CAP + 1);
	assert_int_equal(parse(buf, SWNIC_FRAME_PREFIX_LEN, why), DOCA_ERROR_TOO_BIG);
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_TOO_BIG);
	/* exactly the cap passes the length checks (then fails only for the missing payload) */
	put32be(buf + 12, CAP);
	put32be(buf + 68, CAP);
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "truncated payload"));

	/* a READ asking for more than the cap: no payload, so the request length decides */
	r = sample_req(SWNIC_REQ_READ);
	n = build_req_frame(&r, 6, buf);
	put32be(buf + 68, CAP + 1);
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_TOO_BIG);
	assert_non_null(strstr(why, "length"));
	put32be(buf + 68, 0xffffffffu);
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_TOO_BIG);
	put32be(buf + 68, CAP);
	assert_int_equal(parse(buf, n, why), DOCA_SUCCESS);

	/* payload_len must match the op: a write whose payload is shorter than len, a read with data */
	n = good_write(buf);
	put32be(buf + 68, 36);
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	r = sample_req(SWNIC_REQ_READ);
	n = build_req_frame(&r, 6, buf);
	put32be(buf + 12, 4);
	memset(buf + n, 0, 4);
	assert_int_equal(parse(buf, n + 4, why), DOCA_ERROR_INVALID_VALUE);
	/* the encoder refuses what the decoder would */
	r = sample_req(SWNIC_REQ_READ);
	r.len = CAP + 1;
	assert_int_equal(swnic_frame_encode_req(1, &r, CAP, buf), DOCA_ERROR_TOO_BIG);
}

static void frame_rejects_bad_op_and_atomic_size(void **state)
{
	static const uint8_t bad_ops[] = {0, SWNIC_REQ_MASKED_FA + 1, 0x7f, 0xff};
	static const uint8_t bad_sizes[] = {0, 1, 2, 3, 5, 7, 16, 0xff};
	uint8_t buf[256];
	char why[SWNIC_FRAME_WHY_LEN];
	size_t n, i;
	uint8_t op;

	(void)state;
	for (i = 0; i < sizeof(bad_ops); i++) {
		struct swnic_req r = sample_req(SWNIC_REQ_READ);

		n = build_req_frame(&r, 1, buf);
		buf[24] = bad_ops[i];
		assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
		assert_non_null(strstr(why, "op"));
		r.op = bad_ops[i];
		assert_int_equal(swnic_frame_encode_req(1, &r, CAP, buf), DOCA_ERROR_INVALID_VALUE);
	}
	for (op = SWNIC_REQ_ATOMIC_CS; op <= SWNIC_REQ_MASKED_FA; op++) {
		for (i = 0; i < sizeof(bad_sizes); i++) {
			struct swnic_req r = sample_req(op);

			n = build_req_frame(&r, 1, buf);
			buf[25] = bad_sizes[i];
			put32be(buf + 68, 0);
			assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
			assert_non_null(strstr(why, "atomic size"));
		}
		/* both legal sizes pass the frame (which size an op takes is the responder's call) */
		for (i = 4; i <= 8; i += 4) {
			struct swnic_req r = sample_req(op);

			n = build_req_frame(&r, 1, buf);
			buf[25] = (uint8_t)i;
			put32be(buf + 68, (uint32_t)i);
			assert_int_equal(parse(buf, n, why), DOCA_SUCCESS);
			put32be(buf + 68, 3); /* an atomic length other than 0 or the size */
			assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
		}
	}
	/* an atomic size on a non-atomic op */
	n = good_write(buf);
	buf[25] = 8;
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	/* 24-bit fields */
	n = good_write(buf);
	buf[28] = 1; /* src_qpn bit 24 */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	n = good_write(buf);
	buf[32] = 1; /* dst_qpn */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
	n = good_write(buf);
	buf[36] = 1; /* psn */
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
}

static void frame_rejects_bad_responses(void **state)
{
	struct swnic_resp resp = {.status = SWNIC_RESP_ACK, .read_len = 16};
	struct swnic_req read = sample_req(SWNIC_REQ_READ);
	struct swnic_req write = sample_req(SWNIC_REQ_WRITE);
	struct swnic_frame_prefix p;
	struct swnic_resp out;
	uint8_t buf[SWNIC_FRAME_RESP_HDR_LEN + 16];
	uint8_t req_buf[256];
	char why[SWNIC_FRAME_WHY_LEN];

	(void)state;
	read.len = 8;
	assert_int_equal(swnic_frame_encode_resp(3, &resp, CAP, buf), DOCA_SUCCESS);
	assert_int_equal(swnic_frame_decode_resp(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &p, &out, why, sizeof(why)),
			 DOCA_SUCCESS);
	/* more read data than the READ asked for */
	assert_int_equal(swnic_frame_check_resp(&read, 3, &p, &out, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "16 bytes"));
	read.len = 16;
	assert_int_equal(swnic_frame_check_resp(&read, 3, &p, &out, why, sizeof(why)), DOCA_SUCCESS);
	/* the answer to another request */
	assert_int_equal(swnic_frame_check_resp(&read, 4, &p, &out, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	/* read data in answer to a write */
	assert_int_equal(swnic_frame_check_resp(&write, 3, &p, &out, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	/* unknown status */
	buf[24] = SWNIC_RESP_NO_QP + 1;
	assert_int_equal(swnic_frame_decode_resp(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &p, &out, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	buf[24] = 0;
	/* read_len and payload_len disagree */
	buf[31] = 15;
	assert_int_equal(swnic_frame_decode_resp(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &p, &out, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	buf[31] = 16;
	buf[26] = 1; /* reserved */
	assert_int_equal(swnic_frame_decode_resp(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &p, &out, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	buf[26] = 0;
	/* a response where a request is expected, and the reverse */
	assert_int_equal(swnic_frame_decode_req(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &p, &read, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	good_write(req_buf);
	assert_int_equal(swnic_frame_decode_resp(req_buf, SWNIC_FRAME_REQ_HDR_LEN, CAP, &p, &out, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	/* the encoder refuses an unknown status */
	resp.status = 9;
	assert_int_equal(swnic_frame_encode_resp(3, &resp, CAP, buf), DOCA_ERROR_INVALID_VALUE);
}

/*
 * Deterministic fuzz: corrupt valid frames byte by byte and at random. Whatever a decoder
 * accepts must encode back to the very same header bytes (nothing is silently dropped).
 */
static void frame_fuzz_accepts_only_canonical(void **state)
{
	uint8_t buf[256], again[SWNIC_FRAME_REQ_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];
	unsigned seed = 12345;
	size_t n, pos;
	int round, accepted = 0, rejected = 0;

	(void)state;
	for (round = 0; round < 20000; round++) {
		struct swnic_frame f;
		uint8_t op = (uint8_t)(SWNIC_REQ_WRITE + round % 9);
		struct swnic_req r = sample_req(op);

		n = build_req_frame(&r, (uint64_t)round, buf);
		seed = seed * 1103515245u + 12345u;
		pos = (seed >> 8) % SWNIC_FRAME_REQ_HDR_LEN;
		seed = seed * 1103515245u + 12345u;
		buf[pos] ^= (uint8_t)((seed >> 16) | 1);
		if (swnic_frame_parse(buf, n, CAP, &f, why, sizeof(why)) != DOCA_SUCCESS) {
			rejected++;
			continue;
		}
		accepted++;
		assert_int_equal(swnic_frame_encode_req(f.prefix.request_id, &f.req, CAP, again), DOCA_SUCCESS);
		assert_memory_equal(again, buf, SWNIC_FRAME_REQ_HDR_LEN);
	}
	/* Both outcomes occur, or the fuzz tests nothing. */
	assert_true(accepted > 1000);
	assert_true(rejected > 1000);
}

/* The closing flag: on a response it decodes; on any other frame it is an undefined flag. */
static void frame_closing_flag_responses_only(void **state)
{
	struct swnic_resp resp = {.status = SWNIC_RESP_NAK_REMOTE_ACCESS};
	struct swnic_req r = sample_req(SWNIC_REQ_WRITE);
	uint8_t buf[SWNIC_FRAME_REQ_HDR_LEN + 4096];
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_frame f;
	size_t n;

	(void)state;
	assert_int_equal(swnic_frame_encode_resp(3, &resp, CAP, buf), DOCA_SUCCESS);
	swnic_frame_mark_closing(buf);
	assert_int_equal(buf[6], 0);
	assert_int_equal(buf[7], SWNIC_FRAME_FLAG_CLOSING);
	assert_int_equal(swnic_frame_parse(buf, SWNIC_FRAME_RESP_HDR_LEN, CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
	assert_int_equal(f.prefix.flags, SWNIC_FRAME_FLAG_CLOSING);
	assert_int_equal(f.resp.status, SWNIC_RESP_NAK_REMOTE_ACCESS);
	buf[7] = 0x02; /* undefined */
	assert_int_equal(parse(buf, SWNIC_FRAME_RESP_HDR_LEN, why), DOCA_ERROR_INVALID_VALUE);

	n = build_req_frame(&r, 4, buf);
	buf[7] = SWNIC_FRAME_FLAG_CLOSING;
	assert_int_equal(parse(buf, n, why), DOCA_ERROR_INVALID_VALUE);
}

/* Hello and auth frames: exact bytes, round trip, and every defect refused. */
static void frame_handshake_exact_bytes_and_defects(void **state)
{
	uint8_t buf[SWNIC_FRAME_HELLO_HDR_LEN], mac[SWNIC_FRAME_MAC_LEN];
	struct swnic_frame_hello h, back;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_frame f;
	size_t i;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.secret = true;
	for (i = 0; i < SWNIC_FRAME_NONCE_LEN; i++) {
		h.nonce[i] = (uint8_t)i;
		h.mac[i] = (uint8_t)(0xa0 + i);
	}
	swnic_frame_encode_hello(&h, buf);
	assert_memory_equal(buf, "OGDF\x02\x03\x00\x00\x00\x60\x00\x00\x00\x00\x00\x00", 16);
	for (i = 16; i < 24; i++)
		assert_int_equal(buf[i], 0); /* request id */
	assert_int_equal(buf[24], SWNIC_FRAME_HELLO_FLAG_SECRET);
	for (i = 25; i < 32; i++)
		assert_int_equal(buf[i], 0);
	assert_memory_equal(buf + 32, h.nonce, SWNIC_FRAME_NONCE_LEN);
	assert_memory_equal(buf + 64, h.mac, SWNIC_FRAME_MAC_LEN);
	assert_int_equal(swnic_frame_decode_hello(buf, sizeof(buf), &back, why, sizeof(why)), DOCA_SUCCESS);
	assert_true(back.secret);
	assert_memory_equal(back.nonce, h.nonce, SWNIC_FRAME_NONCE_LEN);
	assert_memory_equal(back.mac, h.mac, SWNIC_FRAME_MAC_LEN);
	assert_int_equal(parse(buf, sizeof(buf), why), DOCA_SUCCESS);

	buf[24] = 0x02; /* undefined flag */
	assert_int_equal(swnic_frame_decode_hello(buf, sizeof(buf), &back, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	buf[24] = SWNIC_FRAME_HELLO_FLAG_SECRET;
	buf[30] = 1; /* reserved */
	assert_int_equal(swnic_frame_decode_hello(buf, sizeof(buf), &back, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	buf[30] = 0;
	buf[23] = 1; /* request id */
	assert_int_equal(swnic_frame_decode_hello(buf, sizeof(buf), &back, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	buf[23] = 0;
	buf[15] = 1; /* payload */
	assert_int_equal(parse(buf, sizeof(buf), why), DOCA_ERROR_TOO_BIG);
	buf[15] = 0;
	buf[9] = SWNIC_FRAME_AUTH_HDR_LEN; /* a hello with the auth's length */
	assert_int_equal(parse(buf, sizeof(buf), why), DOCA_ERROR_INVALID_VALUE);
	buf[9] = SWNIC_FRAME_HELLO_HDR_LEN;
	assert_int_equal(swnic_frame_decode_hello(buf, SWNIC_FRAME_HELLO_HDR_LEN - 1, &back, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_frame_decode_auth(buf, sizeof(buf), mac, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	buf[4] = 1; /* version 1 */
	assert_int_equal(swnic_frame_decode_hello(buf, sizeof(buf), &back, why, sizeof(why)),
			 DOCA_ERROR_UNSUPPORTED_VERSION);

	swnic_frame_encode_auth(h.mac, buf);
	assert_memory_equal(buf, "OGDF\x02\x04\x00\x00\x00\x38", 10);
	assert_memory_equal(buf + 24, h.mac, SWNIC_FRAME_MAC_LEN);
	memset(mac, 0, sizeof(mac));
	assert_int_equal(swnic_frame_decode_auth(buf, SWNIC_FRAME_AUTH_HDR_LEN, mac, why, sizeof(why)), DOCA_SUCCESS);
	assert_memory_equal(mac, h.mac, SWNIC_FRAME_MAC_LEN);
	memset(&f, 0, sizeof(f));
	assert_int_equal(swnic_frame_parse(buf, SWNIC_FRAME_AUTH_HDR_LEN, CAP, &f, why, sizeof(why)), DOCA_SUCCESS);
	assert_memory_equal(f.auth_mac, h.mac, SWNIC_FRAME_MAC_LEN);
	assert_int_equal(parse(buf, SWNIC_FRAME_AUTH_HDR_LEN + 1, why), DOCA_ERROR_INVALID_VALUE); /* trailing byte */
	assert_int_equal(swnic_frame_decode_hello(buf, SWNIC_FRAME_AUTH_HDR_LEN, &back, why, sizeof(why)),
			 DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gid_encode_exact_bytes),
		cmocka_unit_test(gid_round_trip_extremes),
		cmocka_unit_test(gid_foreign_is_not_connected),
		cmocka_unit_test(frame_req_exact_bytes),
		cmocka_unit_test(frame_resp_exact_bytes),
		cmocka_unit_test(frame_req_round_trip_every_op),
		cmocka_unit_test(frame_req_solicited_flag),
		cmocka_unit_test(frame_resp_round_trip),
		cmocka_unit_test(frame_rejects_header_defects),
		cmocka_unit_test(frame_rejects_truncation_and_trailing_bytes),
		cmocka_unit_test(frame_rejects_lengths_over_cap),
		cmocka_unit_test(frame_rejects_bad_op_and_atomic_size),
		cmocka_unit_test(frame_rejects_bad_responses),
		cmocka_unit_test(frame_fuzz_accepts_only_canonical),
		cmocka_unit_test(frame_handshake_exact_bytes_and_defects),
		cmocka_unit_test(frame_closing_flag_responses_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
