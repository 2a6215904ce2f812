/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_fabric_frame.h"

#include "core/bytes.h"
#include "core/log.h"

#include <endian.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SWNIC_QPN_MASK 0xffffffu

/* Offsets inside the header (see the table in swnic_fabric_frame.h). */
enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_TYPE = 5,
	OFF_FLAGS = 6,
	OFF_HDR_LEN = 8,
	OFF_RSVD0 = 10,
	OFF_PAYLOAD_LEN = 12,
	OFF_REQ_ID = 16,
	/* request */
	OFF_OP = 24,
	OFF_ATOMIC_SIZE = 25,
	OFF_REQ_FLAGS = 26,
	OFF_REQ_RSVD1 = 27,
	OFF_SRC_QPN = 28,
	OFF_DST_QPN = 32,
	OFF_PSN = 36,
	OFF_SRC_GID = 40,
	OFF_RADDR = 56,
	OFF_RKEY = 64,
	OFF_LEN = 68,
	OFF_IMM = 72,
	OFF_REQ_RSVD2 = 76,
	OFF_SWAP_ADD = 80,
	OFF_COMPARE = 88,
	OFF_SWAP_MASK = 96,
	OFF_COMPARE_MASK = 104,
	/* response */
	OFF_STATUS = 24,
	OFF_RESP_RSVD = 25,
	OFF_READ_LEN = 28,
	OFF_ATOMIC_ORIG = 32,
	/* hello */
	OFF_HELLO_FLAGS = 24,
	OFF_HELLO_RSVD = 25,
	OFF_NONCE = 32,
	OFF_HELLO_MAC = 64,
	/* auth */
	OFF_AUTH_MAC = 24,
};







__attribute__((format(printf, 4, 5))) static doca_error_t fail(doca_error_t err, char *why, size_t cap,
							       const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && cap > 0) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return err;
}

static bool op_is_atomic(uint8_t op)
{
	return op >= SWNIC_REQ_ATOMIC_CS && op <= SWNIC_REQ_MASKED_FA;
}

static bool op_has_payload(uint8_t op)
{
	return op >= SWNIC_REQ_WRITE && op <= SWNIC_REQ_SEND_IMM;
}

/* Ops that may carry the solicited-event bit: those that complete at the responder. */
static bool op_may_solicit(uint8_t op)
{
	return op == SWNIC_REQ_WRITE_IMM || op == SWNIC_REQ_SEND || op == SWNIC_REQ_SEND_IMM;
}

uint32_t swnic_req_payload_len(const struct swnic_req *req)
{
	return (req != NULL && op_has_payload(req->op)) ? req->len : 0;
}

/* Field checks shared by the encoder and the decoder; has_payload_ptr is false when decoding. */
static doca_error_t check_req_fields(const struct swnic_req *req, uint64_t max_msg, bool need_payload_ptr, char *why,
				     size_t cap)
{
	if (req->op < SWNIC_REQ_WRITE || req->op > SWNIC_REQ_MASKED_FA)
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "unknown request op %u", req->op);
	if (req->src_qpn > SWNIC_QPN_MASK || req->dst_qpn > SWNIC_QPN_MASK)
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "QPN over 24 bits (src 0x%x, dst 0x%x)", req->src_qpn,
			    req->dst_qpn);
	if (req->psn > SWNIC_QPN_MASK)
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "PSN 0x%x over 24 bits", req->psn);
	if (req->solicited && !op_may_solicit(req->op))
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "solicited event on op %u (only SEND, SEND_IMM, WRITE_IMM)",
			    req->op);
	if (op_is_atomic(req->op)) {
		/* Whether this op may use this size is the responder's verdict (INVALID_REQ NAK). */
		if (req->atomic_size != 4 && req->atomic_size != 8)
			return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "atomic size %u (4 or 8) on op %u",
				    req->atomic_size, req->op);
		if (req->len != 0 && req->len != req->atomic_size)
			return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "atomic length %u for a %u-byte atomic",
				    req->len, req->atomic_size);
		return DOCA_SUCCESS;
	}
	if (req->atomic_size != 0)
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "atomic size %u on non-atomic op %u", req->atomic_size,
			    req->op);
	if (req->len > max_msg)
		return fail(DOCA_ERROR_TOO_BIG, why, cap, "message length %u over the limit %llu", req->len,
			    (unsigned long long)max_msg);
	if (need_payload_ptr && op_has_payload(req->op) && req->len > 0 && req->payload == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, cap, "op %u with %u bytes but no payload", req->op,
			    req->len);
	return DOCA_SUCCESS;
}

doca_error_t swnic_req_check(const struct swnic_req *req, uint64_t max_msg, char *why, size_t why_cap)
{
	if (req == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL request");
	return check_req_fields(req, max_msg, true, why, why_cap);
}

static void put_prefix(uint8_t *hdr, uint8_t type, uint16_t hdr_len, uint32_t payload_len, uint64_t request_id)
{
	ogda_store_be32(hdr + OFF_MAGIC, SWNIC_FRAME_MAGIC);
	hdr[OFF_VERSION] = SWNIC_FRAME_VERSION;
	hdr[OFF_TYPE] = type;
	ogda_store_be16(hdr + OFF_FLAGS, 0);
	ogda_store_be16(hdr + OFF_HDR_LEN, hdr_len);
	ogda_store_be16(hdr + OFF_RSVD0, 0);
	ogda_store_be32(hdr + OFF_PAYLOAD_LEN, payload_len);
	ogda_store_be64(hdr + OFF_REQ_ID, request_id);
}

doca_error_t swnic_frame_encode_req(uint64_t request_id, const struct swnic_req *req, uint64_t max_msg,
				    uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN])
{
	char why[SWNIC_FRAME_WHY_LEN];
	doca_error_t err;

	if (hdr == NULL) {
		OGDA_LOG_ERR("fabric frame: NULL header buffer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = swnic_req_check(req, max_msg, why, sizeof(why));
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("fabric frame: cannot encode request: %s", why);
		return err;
	}
	memset(hdr, 0, SWNIC_FRAME_REQ_HDR_LEN);
	put_prefix(hdr, SWNIC_FRAME_REQ, SWNIC_FRAME_REQ_HDR_LEN, swnic_req_payload_len(req), request_id);
	hdr[OFF_OP] = req->op;
	hdr[OFF_ATOMIC_SIZE] = req->atomic_size;
	hdr[OFF_REQ_FLAGS] = req->solicited ? SWNIC_FRAME_REQ_FLAG_SOLICITED : 0u;
	ogda_store_be32(hdr + OFF_SRC_QPN, req->src_qpn);
	ogda_store_be32(hdr + OFF_DST_QPN, req->dst_qpn);
	ogda_store_be32(hdr + OFF_PSN, req->psn);
	memcpy(hdr + OFF_SRC_GID, req->src_gid, 16);
	ogda_store_be64(hdr + OFF_RADDR, req->raddr);
	ogda_store_be32(hdr + OFF_RKEY, req->rkey);
	ogda_store_be32(hdr + OFF_LEN, req->len);
	/* The immediate is already in network order in memory: carry its bytes untouched. */
	memcpy(hdr + OFF_IMM, &req->imm, 4);
	ogda_store_be64(hdr + OFF_SWAP_ADD, req->swap_add);
	ogda_store_be64(hdr + OFF_COMPARE, req->compare);
	ogda_store_be64(hdr + OFF_SWAP_MASK, req->swap_mask);
	ogda_store_be64(hdr + OFF_COMPARE_MASK, req->compare_mask);
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_encode_resp(uint64_t request_id, const struct swnic_resp *resp, uint64_t max_msg,
				     uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN])
{
	if (hdr == NULL || resp == NULL || resp->status > SWNIC_RESP_NO_QP || resp->read_len > max_msg) {
		OGDA_LOG_ERR("fabric frame: cannot encode response (hdr %p, resp %p, status %d, read_len %lld)",
			     (void *)hdr, (const void *)resp, resp ? resp->status : -1,
			     resp ? (long long)resp->read_len : -1LL);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(hdr, 0, SWNIC_FRAME_RESP_HDR_LEN);
	put_prefix(hdr, SWNIC_FRAME_RESP, SWNIC_FRAME_RESP_HDR_LEN, resp->read_len, request_id);
	hdr[OFF_STATUS] = resp->status;
	ogda_store_be32(hdr + OFF_READ_LEN, resp->read_len);
	ogda_store_be64(hdr + OFF_ATOMIC_ORIG, resp->atomic_orig);
	return DOCA_SUCCESS;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != 0)
			return false;
	}
	return true;
}

doca_error_t swnic_frame_decode_prefix(const uint8_t *buf, size_t len, uint64_t max_msg,
				       struct swnic_frame_prefix *prefix, char *why, size_t why_cap)
{
	uint32_t magic;
	uint16_t expect_len, flags;

	if (buf == NULL || prefix == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	if (len < SWNIC_FRAME_PREFIX_LEN)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "truncated header: %zu of %u bytes", len,
			    SWNIC_FRAME_PREFIX_LEN);
	magic = ogda_load_be32(buf + OFF_MAGIC);
	if (magic != SWNIC_FRAME_MAGIC)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "bad magic 0x%08x (not a software NIC peer)", magic);
	if (buf[OFF_VERSION] != SWNIC_FRAME_VERSION)
		return fail(DOCA_ERROR_UNSUPPORTED_VERSION, why, why_cap,
			    "frame version %u, this build speaks version %u only (peer built from another release)",
			    buf[OFF_VERSION], SWNIC_FRAME_VERSION);
	switch (buf[OFF_TYPE]) {
	case SWNIC_FRAME_REQ:
		expect_len = SWNIC_FRAME_REQ_HDR_LEN;
		break;
	case SWNIC_FRAME_RESP:
		expect_len = SWNIC_FRAME_RESP_HDR_LEN;
		break;
	case SWNIC_FRAME_HELLO:
		expect_len = SWNIC_FRAME_HELLO_HDR_LEN;
		break;
	case SWNIC_FRAME_AUTH:
		expect_len = SWNIC_FRAME_AUTH_HDR_LEN;
		break;
	default:
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "unknown frame type %u", buf[OFF_TYPE]);
	}
	flags = ogda_load_be16(buf + OFF_FLAGS);
	if ((flags & ~(buf[OFF_TYPE] == SWNIC_FRAME_RESP ? SWNIC_FRAME_FLAG_CLOSING : 0u)) != 0 ||
	    ogda_load_be16(buf + OFF_RSVD0) != 0)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "undefined flags 0x%04x / reserved 0x%04x",
			    ogda_load_be16(buf + OFF_FLAGS), ogda_load_be16(buf + OFF_RSVD0));
	if (ogda_load_be16(buf + OFF_HDR_LEN) != expect_len)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "header length %u, expected %u for type %u",
			    ogda_load_be16(buf + OFF_HDR_LEN), expect_len, buf[OFF_TYPE]);
	if (ogda_load_be32(buf + OFF_PAYLOAD_LEN) > max_msg)
		return fail(DOCA_ERROR_TOO_BIG, why, why_cap, "payload length %u over the limit %llu",
			    ogda_load_be32(buf + OFF_PAYLOAD_LEN), (unsigned long long)max_msg);
	prefix->version = buf[OFF_VERSION];
	prefix->flags = flags;
	prefix->type = buf[OFF_TYPE];
	prefix->header_len = expect_len;
	prefix->payload_len = ogda_load_be32(buf + OFF_PAYLOAD_LEN);
	prefix->request_id = ogda_load_be64(buf + OFF_REQ_ID);
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_decode_req(const uint8_t *buf, size_t len, uint64_t max_msg,
				    struct swnic_frame_prefix *prefix, struct swnic_req *req, char *why, size_t why_cap)
{
	struct swnic_frame_prefix p;
	struct swnic_req r;
	doca_error_t err;

	if (req == NULL || prefix == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	err = swnic_frame_decode_prefix(buf, len, max_msg, &p, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	if (p.type != SWNIC_FRAME_REQ)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "frame type %u where a request was expected",
			    p.type);
	if (len < SWNIC_FRAME_REQ_HDR_LEN)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "truncated request header: %zu of %u bytes", len,
			    SWNIC_FRAME_REQ_HDR_LEN);
	if ((buf[OFF_REQ_FLAGS] & ~SWNIC_FRAME_REQ_FLAG_SOLICITED) != 0 || buf[OFF_REQ_RSVD1] != 0 ||
	    ogda_load_be32(buf + OFF_REQ_RSVD2) != 0)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "undefined request flags or reserved fields not zero");
	memset(&r, 0, sizeof(r));
	r.op = buf[OFF_OP];
	r.atomic_size = buf[OFF_ATOMIC_SIZE];
	r.solicited = (buf[OFF_REQ_FLAGS] & SWNIC_FRAME_REQ_FLAG_SOLICITED) != 0;
	r.src_qpn = ogda_load_be32(buf + OFF_SRC_QPN);
	r.dst_qpn = ogda_load_be32(buf + OFF_DST_QPN);
	r.psn = ogda_load_be32(buf + OFF_PSN);
	memcpy(r.src_gid, buf + OFF_SRC_GID, 16);
	r.raddr = ogda_load_be64(buf + OFF_RADDR);
	r.rkey = ogda_load_be32(buf + OFF_RKEY);
	r.len = ogda_load_be32(buf + OFF_LEN);
	memcpy(&r.imm, buf + OFF_IMM, 4);
	r.swap_add = ogda_load_be64(buf + OFF_SWAP_ADD);
	r.compare = ogda_load_be64(buf + OFF_COMPARE);
	r.swap_mask = ogda_load_be64(buf + OFF_SWAP_MASK);
	r.compare_mask = ogda_load_be64(buf + OFF_COMPARE_MASK);
	err = check_req_fields(&r, max_msg, false, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	if (p.payload_len != swnic_req_payload_len(&r))
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "payload length %u does not match op %u length %u",
			    p.payload_len, r.op, r.len);
	*prefix = p;
	*req = r;
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_decode_resp(const uint8_t *buf, size_t len, uint64_t max_msg,
				     struct swnic_frame_prefix *prefix, struct swnic_resp *resp, char *why,
				     size_t why_cap)
{
	struct swnic_frame_prefix p;
	doca_error_t err;
	uint32_t read_len;

	if (resp == NULL || prefix == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	err = swnic_frame_decode_prefix(buf, len, max_msg, &p, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	if (p.type != SWNIC_FRAME_RESP)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "frame type %u where a response was expected",
			    p.type);
	if (len < SWNIC_FRAME_RESP_HDR_LEN)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "truncated response header: %zu of %u bytes", len,
			    SWNIC_FRAME_RESP_HDR_LEN);
	if (buf[OFF_STATUS] > SWNIC_RESP_NO_QP)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "unknown response status %u", buf[OFF_STATUS]);
	if (!all_zero(buf + OFF_RESP_RSVD, 3))
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "reserved response fields not zero");
	read_len = ogda_load_be32(buf + OFF_READ_LEN);
	if (read_len != p.payload_len)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "read length %u but payload length %u", read_len,
			    p.payload_len);
	*prefix = p;
	memset(resp, 0, sizeof(*resp));
	resp->status = buf[OFF_STATUS];
	resp->read_len = read_len;
	resp->atomic_orig = ogda_load_be64(buf + OFF_ATOMIC_ORIG);
	return DOCA_SUCCESS;
}

void swnic_frame_mark_closing(uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN])
{
	ogda_store_be16(hdr + OFF_FLAGS, ogda_load_be16(hdr + OFF_FLAGS) | SWNIC_FRAME_FLAG_CLOSING);
}

void swnic_frame_encode_hello(const struct swnic_frame_hello *hello, uint8_t hdr[SWNIC_FRAME_HELLO_HDR_LEN])
{
	memset(hdr, 0, SWNIC_FRAME_HELLO_HDR_LEN);
	put_prefix(hdr, SWNIC_FRAME_HELLO, SWNIC_FRAME_HELLO_HDR_LEN, 0, 0);
	hdr[OFF_HELLO_FLAGS] = hello->secret ? SWNIC_FRAME_HELLO_FLAG_SECRET : 0u;
	memcpy(hdr + OFF_NONCE, hello->nonce, SWNIC_FRAME_NONCE_LEN);
	memcpy(hdr + OFF_HELLO_MAC, hello->mac, SWNIC_FRAME_MAC_LEN);
}

void swnic_frame_encode_auth(const uint8_t mac[SWNIC_FRAME_MAC_LEN], uint8_t hdr[SWNIC_FRAME_AUTH_HDR_LEN])
{
	memset(hdr, 0, SWNIC_FRAME_AUTH_HDR_LEN);
	put_prefix(hdr, SWNIC_FRAME_AUTH, SWNIC_FRAME_AUTH_HDR_LEN, 0, 0);
	memcpy(hdr + OFF_AUTH_MAC, mac, SWNIC_FRAME_MAC_LEN);
}

/* The prefix of a handshake frame of type type and length hdr_len: no payload, request id 0. */
static doca_error_t decode_handshake_prefix(const uint8_t *buf, size_t len, uint8_t type, uint16_t hdr_len, char *why,
					   size_t why_cap)
{
	struct swnic_frame_prefix p;
	doca_error_t err;

	err = swnic_frame_decode_prefix(buf, len, 0, &p, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	if (p.type != type)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "frame type %u where a %s was expected", p.type,
			    type == SWNIC_FRAME_HELLO ? "hello" : "auth");
	if (len < hdr_len)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "truncated handshake header: %zu of %u bytes", len,
			    hdr_len);
	if (p.request_id != 0)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "handshake frame with request id %llu",
			    (unsigned long long)p.request_id);
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_decode_hello(const uint8_t *buf, size_t len, struct swnic_frame_hello *hello, char *why,
				      size_t why_cap)
{
	doca_error_t err;

	if (buf == NULL || hello == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	/* max_msg 0 in the prefix check: a handshake frame carries no payload. */
	err = decode_handshake_prefix(buf, len, SWNIC_FRAME_HELLO, SWNIC_FRAME_HELLO_HDR_LEN, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	if ((buf[OFF_HELLO_FLAGS] & ~SWNIC_FRAME_HELLO_FLAG_SECRET) != 0 || !all_zero(buf + OFF_HELLO_RSVD, 7))
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "undefined hello flags or reserved bytes not zero");
	memset(hello, 0, sizeof(*hello));
	hello->secret = (buf[OFF_HELLO_FLAGS] & SWNIC_FRAME_HELLO_FLAG_SECRET) != 0;
	memcpy(hello->nonce, buf + OFF_NONCE, SWNIC_FRAME_NONCE_LEN);
	memcpy(hello->mac, buf + OFF_HELLO_MAC, SWNIC_FRAME_MAC_LEN);
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_decode_auth(const uint8_t *buf, size_t len, uint8_t mac[SWNIC_FRAME_MAC_LEN], char *why,
				     size_t why_cap)
{
	doca_error_t err;

	if (buf == NULL || mac == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	err = decode_handshake_prefix(buf, len, SWNIC_FRAME_AUTH, SWNIC_FRAME_AUTH_HDR_LEN, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(mac, buf + OFF_AUTH_MAC, SWNIC_FRAME_MAC_LEN);
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_check_resp(const struct swnic_req *req, uint64_t request_id,
				    const struct swnic_frame_prefix *prefix, const struct swnic_resp *resp, char *why,
				    size_t why_cap)
{
	if (req == NULL || prefix == NULL || resp == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	if (prefix->request_id != request_id)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "response to request %llu, expected %llu",
			    (unsigned long long)prefix->request_id, (unsigned long long)request_id);
	if (req->op == SWNIC_REQ_READ) {
		if (resp->read_len > req->len)
			return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "read returned %u bytes, %u were asked",
				    resp->read_len, req->len);
	} else if (resp->read_len != 0) {
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "%u bytes of read data in answer to op %u",
			    resp->read_len, req->op);
	}
	return DOCA_SUCCESS;
}

doca_error_t swnic_frame_parse(const uint8_t *buf, size_t len, uint64_t max_msg, struct swnic_frame *frame, char *why,
			       size_t why_cap)
{
	struct swnic_frame f;
	doca_error_t err;

	if (frame == NULL)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "NULL argument");
	memset(&f, 0, sizeof(f));
	err = swnic_frame_decode_prefix(buf, len, max_msg, &f.prefix, why, why_cap);
	if (err != DOCA_SUCCESS)
		return err;
	switch (f.prefix.type) {
	case SWNIC_FRAME_REQ:
		err = swnic_frame_decode_req(buf, len, max_msg, &f.prefix, &f.req, why, why_cap);
		break;
	case SWNIC_FRAME_RESP:
		err = swnic_frame_decode_resp(buf, len, max_msg, &f.prefix, &f.resp, why, why_cap);
		break;
	case SWNIC_FRAME_HELLO:
		err = swnic_frame_decode_hello(buf, len, &f.hello, why, why_cap);
		break;
	default:
		err = swnic_frame_decode_auth(buf, len, f.auth_mac, why, why_cap);
		break;
	}
	if (err != DOCA_SUCCESS)
		return err;
	if (len - f.prefix.header_len < f.prefix.payload_len)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "truncated payload: %zu of %u bytes",
			    len - f.prefix.header_len, f.prefix.payload_len);
	if (len - f.prefix.header_len > f.prefix.payload_len)
		return fail(DOCA_ERROR_INVALID_VALUE, why, why_cap, "%zu bytes after the payload",
			    len - f.prefix.header_len - f.prefix.payload_len);
	if (f.prefix.payload_len > 0) {
		f.payload = buf + f.prefix.header_len;
		if (f.prefix.type == SWNIC_FRAME_REQ)
			f.req.payload = f.payload;
	}
	*frame = f;
	return DOCA_SUCCESS;
}
