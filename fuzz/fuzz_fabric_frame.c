/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software NIC's fabric frame decoder (swnic_fabric_frame.c): the bytes a remote peer
 * sends over TCP. The input is one whole frame. Beyond "no crash, no out-of-bounds read",
 * a frame the decoder accepts must satisfy the checks the sender side applies, and must
 * encode back to the same header bytes (the decoder rejects every reserved bit, so the
 * header is canonical): requests, responses (with their closing flag) and the handshake's
 * hello and auth frames.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_input.h"
#include "swnic/swnic_fabric_frame.h"

/* A small maximum message, so that the TOO_BIG paths are reached by short inputs. */
#define FUZZ_MAX_MSG 4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_request(const uint8_t *buf, const struct swnic_frame *f)
{
	uint8_t hdr[SWNIC_FRAME_REQ_HDR_LEN];
	char why[SWNIC_FRAME_WHY_LEN];

	FUZZ_CHECK(swnic_req_check(&f->req, FUZZ_MAX_MSG, why, sizeof(why)) == DOCA_SUCCESS);
	FUZZ_CHECK(f->prefix.payload_len == swnic_req_payload_len(&f->req));
	FUZZ_CHECK(swnic_frame_encode_req(f->prefix.request_id, &f->req, FUZZ_MAX_MSG, hdr) == DOCA_SUCCESS);
	FUZZ_CHECK(memcmp(hdr, buf, sizeof(hdr)) == 0);
}

static void check_response(const uint8_t *buf, const struct swnic_frame *f)
{
	uint8_t hdr[SWNIC_FRAME_RESP_HDR_LEN];

	FUZZ_CHECK(f->prefix.payload_len == f->resp.read_len);
	FUZZ_CHECK(swnic_frame_encode_resp(f->prefix.request_id, &f->resp, FUZZ_MAX_MSG, hdr) == DOCA_SUCCESS);
	if (f->prefix.flags & SWNIC_FRAME_FLAG_CLOSING)
		swnic_frame_mark_closing(hdr);
	FUZZ_CHECK(memcmp(hdr, buf, sizeof(hdr)) == 0);
}

/* Handshake frames carry no payload and encode back to the same bytes. */
static void check_handshake(const uint8_t *buf, const struct swnic_frame *f)
{
	uint8_t hello[SWNIC_FRAME_HELLO_HDR_LEN], auth[SWNIC_FRAME_AUTH_HDR_LEN];

	FUZZ_CHECK(f->prefix.payload_len == 0);
	if (f->prefix.type == SWNIC_FRAME_HELLO) {
		swnic_frame_encode_hello(&f->hello, hello);
		FUZZ_CHECK(memcmp(hello, buf, sizeof(hello)) == 0);
	} else {
		FUZZ_CHECK(f->prefix.type == SWNIC_FRAME_AUTH);
		swnic_frame_encode_auth(f->auth_mac, auth);
		FUZZ_CHECK(memcmp(auth, buf, sizeof(auth)) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cursor c = {data, size};
	struct swnic_frame_prefix prefix;
	char why[SWNIC_FRAME_WHY_LEN];
	struct swnic_frame frame;
	size_t len;
	uint8_t *buf = fuzz_take(&c, size, &len);
	doca_error_t err;

	/* The stream reader decodes the prefix first, from exactly the bytes it has. */
	(void)swnic_frame_decode_prefix(buf, len, FUZZ_MAX_MSG, &prefix, why, sizeof(why));
	memset(&frame, 0, sizeof(frame));
	err = swnic_frame_parse(buf, len, FUZZ_MAX_MSG, &frame, why, sizeof(why));
	if (err == DOCA_SUCCESS) {
		FUZZ_CHECK(len == (size_t)frame.prefix.header_len + frame.prefix.payload_len);
		if (frame.prefix.type == SWNIC_FRAME_REQ)
			check_request(buf, &frame);
		else if (frame.prefix.type == SWNIC_FRAME_RESP)
			check_response(buf, &frame);
		else
			check_handshake(buf, &frame);
	} else {
		FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL && why[0] != '\0');
	}
	free(buf);
	return 0;
}
