/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fabric frames: how a struct swnic_req / swnic_resp travels over TCP between processes.
 *
 * Every frame is a fixed header followed by its payload; every integer is big-endian.
 *
 *   Common prefix (24 B)
 *     0  magic        "OGDF" (0x4f474446)
 *     4  version      SWNIC_FRAME_VERSION (2)
 *     5  type         1 = request, 2 = response, 3 = hello, 4 = auth
 *     6  flags        bit 0 (responses only): the server closes the connection after
 *                     this response (SWNIC_FRAME_FLAG_CLOSING); other bits 0
 *     8  header_len   bytes of the whole header: 112 request, 40 response, 96 hello, 56 auth
 *     10 reserved     0
 *     12 payload_len  bytes after the header
 *     16 request_id   chosen by the requester, echoed by the response
 *   Request (header_len 112)
 *     24 op (enum swnic_req_op)   25 atomic_size   26 flags (bit 0: solicited event, SEND /
 *     SEND_IMM / WRITE_IMM only; other bits 0)   27 reserved (0)
 *     28 src_qpn   32 dst_qpn   36 psn (24 bits each)   40 src_gid (16 B)
 *     56 raddr (8 B)   64 rkey   68 len   72 imm (the 4 bytes exactly as in the WQE)   76 reserved (0)
 *     80 swap_add   88 compare   96 swap_mask   104 compare_mask (8 B each)
 *     payload: len bytes for WRITE / WRITE_IMM / SEND / SEND_IMM, none otherwise
 *   Response (header_len 40)
 *     24 status (enum swnic_resp_status)   25 reserved (0, 3 B)   28 read_len   32 atomic_orig (8 B)
 *     payload: read_len bytes (the data of a READ), none otherwise
 *   Hello (header_len 96; request_id 0, no payload): the first frame each way on a connection
 *     24 flags (bit 0: this side has a shared secret; other bits 0)   25 reserved (0, 7 B)
 *     32 nonce (32 B, random)   64 mac (32 B): the server's proof (swnic_fabric_auth.c) when
 *     both sides have a secret, 0 otherwise
 *   Auth (header_len 56; request_id 0, no payload): the client's proof, after the hellos
 *     24 mac (32 B)
 *
 * Decoders validate every field (see swnic_frame_decode_*); a frame that fails is never
 * executed. They do not log: they describe the defect in why, and the caller, which knows
 * the peer, logs one line and closes the connection.
 */
#ifndef OGDA_SWNIC_FABRIC_FRAME_H_
#define OGDA_SWNIC_FABRIC_FRAME_H_

#include "doca_error.h"
#include "swnic/swnic.h"

#include <stddef.h>
#include <stdint.h>

#define SWNIC_FRAME_MAGIC 0x4f474446u /* "OGDF" */
#define SWNIC_FRAME_VERSION 2u /* 2: the hello / auth handshake */
#define SWNIC_FRAME_PREFIX_LEN 24u
#define SWNIC_FRAME_REQ_HDR_LEN 112u
#define SWNIC_FRAME_RESP_HDR_LEN 40u
#define SWNIC_FRAME_HELLO_HDR_LEN 96u
#define SWNIC_FRAME_AUTH_HDR_LEN 56u
#define SWNIC_FRAME_NONCE_LEN 32u
#define SWNIC_FRAME_MAC_LEN 32u
#define SWNIC_FRAME_HELLO_FLAG_SECRET 0x01u /* hello byte 24: the sender has a shared secret */
#define SWNIC_FRAME_MAX_HDR_LEN SWNIC_FRAME_REQ_HDR_LEN
#define SWNIC_FRAME_WHY_LEN 128u
#define SWNIC_FRAME_REQ_FLAG_SOLICITED 0x01u /* request byte 26: the WQE had SE */
#define SWNIC_FRAME_FLAG_CLOSING 0x0001u /* prefix flags of a response: the connection ends after it */

enum swnic_frame_type {
	SWNIC_FRAME_REQ = 1,
	SWNIC_FRAME_RESP = 2,
	SWNIC_FRAME_HELLO = 3,
	SWNIC_FRAME_AUTH = 4,
};

/* A hello frame's content. */
struct swnic_frame_hello {
	bool secret;                          /* the sender has a shared secret */
	uint8_t nonce[SWNIC_FRAME_NONCE_LEN];
	uint8_t mac[SWNIC_FRAME_MAC_LEN];
};

struct swnic_frame_prefix {
	uint8_t version;
	uint8_t type;          /* enum swnic_frame_type */
	uint16_t flags;        /* SWNIC_FRAME_FLAG_CLOSING on a response, else 0 */
	uint16_t header_len;
	uint32_t payload_len;
	uint64_t request_id;
};

/* A whole frame parsed from one buffer (swnic_frame_parse). */
struct swnic_frame {
	struct swnic_frame_prefix prefix;
	struct swnic_req req;      /* type REQ; req.payload points into the parsed buffer */
	struct swnic_resp resp;    /* type RESP */
	struct swnic_frame_hello hello; /* type HELLO */
	uint8_t auth_mac[SWNIC_FRAME_MAC_LEN]; /* type AUTH */
	const uint8_t *payload;    /* prefix.payload_len bytes, NULL when there are none */
};

/* Bytes of payload a request carries: len for WRITE(_IMM) / SEND(_IMM), 0 otherwise. */
uint32_t swnic_req_payload_len(const struct swnic_req *req);

/*
 * Checks a request as both ends see it: op known, atomic size 4 or 8 for atomics (which
 * sizes an op takes is the responder's verdict) and 0 for the rest, QPNs and PSN within
 * 24 bits, solicited only on SEND / SEND_IMM / WRITE_IMM, len <= max_msg (for atomics 0 or
 * their size), payload present when len > 0. DOCA_ERROR_INVALID_VALUE or
 * DOCA_ERROR_TOO_BIG (len over max_msg), with the reason in why.
 */
doca_error_t swnic_req_check(const struct swnic_req *req, uint64_t max_msg, char *why, size_t why_cap);

/* Writes the request header (SWNIC_FRAME_REQ_HDR_LEN bytes); the payload follows it unchanged. */
doca_error_t swnic_frame_encode_req(uint64_t request_id, const struct swnic_req *req, uint64_t max_msg,
				    uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN]);
/* Writes the response header (SWNIC_FRAME_RESP_HDR_LEN bytes); read_len bytes of read data follow. */
doca_error_t swnic_frame_encode_resp(uint64_t request_id, const struct swnic_resp *resp, uint64_t max_msg,
				     uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN]);
/* Marks an encoded response header: the server closes the connection after it. */
void swnic_frame_mark_closing(uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN]);

/*
 * Validates the common prefix in buf[0 .. len): length, magic, version
 * (DOCA_ERROR_UNSUPPORTED_VERSION), type, flags (CLOSING on responses only), reserved bits, header_len for the type,
 * payload_len <= max_msg (DOCA_ERROR_TOO_BIG). Everything else: DOCA_ERROR_INVALID_VALUE.
 */
doca_error_t swnic_frame_decode_prefix(const uint8_t *buf, size_t len, uint64_t max_msg,
				       struct swnic_frame_prefix *prefix, char *why, size_t why_cap);
/* Validates a whole request header (prefix included) and the request it carries; payload = NULL. */
doca_error_t swnic_frame_decode_req(const uint8_t *buf, size_t len, uint64_t max_msg,
				    struct swnic_frame_prefix *prefix, struct swnic_req *req, char *why, size_t why_cap);
/* Validates a whole response header: status known, reserved 0, payload_len == read_len. */
doca_error_t swnic_frame_decode_resp(const uint8_t *buf, size_t len, uint64_t max_msg,
				     struct swnic_frame_prefix *prefix, struct swnic_resp *resp, char *why,
				     size_t why_cap);
/* Writes a hello header (SWNIC_FRAME_HELLO_HDR_LEN bytes). */
void swnic_frame_encode_hello(const struct swnic_frame_hello *hello, uint8_t hdr[SWNIC_FRAME_HELLO_HDR_LEN]);
/* Writes an auth header (SWNIC_FRAME_AUTH_HDR_LEN bytes). */
void swnic_frame_encode_auth(const uint8_t mac[SWNIC_FRAME_MAC_LEN], uint8_t hdr[SWNIC_FRAME_AUTH_HDR_LEN]);
/* Validates a whole hello header: prefix, no payload, request id 0, flags and reserved bytes. */
doca_error_t swnic_frame_decode_hello(const uint8_t *buf, size_t len, struct swnic_frame_hello *hello, char *why,
				      size_t why_cap);
/* Validates a whole auth header: prefix, no payload, request id 0. */
doca_error_t swnic_frame_decode_auth(const uint8_t *buf, size_t len, uint8_t mac[SWNIC_FRAME_MAC_LEN], char *why,
				     size_t why_cap);

/*
 * Checks that a decoded response answers req: same request id, read_len <= req->len for a
 * READ and 0 for everything else.
 */
doca_error_t swnic_frame_check_resp(const struct swnic_req *req, uint64_t request_id,
				    const struct swnic_frame_prefix *prefix, const struct swnic_resp *resp, char *why,
				    size_t why_cap);

/*
 * Parses exactly one frame occupying buf[0 .. len) (header + payload, nothing more): the
 * decoders above, plus truncation and trailing bytes. For tests and fuzzing.
 */
doca_error_t swnic_frame_parse(const uint8_t *buf, size_t len, uint64_t max_msg, struct swnic_frame *frame, char *why,
			       size_t why_cap);

#endif /* OGDA_SWNIC_FABRIC_FRAME_H_ */
