/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Writes the seed corpus of every fuzz target (fuzz/corpus/<target>/seed-*), built with the
 * project's own encoders so that each seed is an input the code under test accepts: the
 * fuzzer starts from deep paths instead of discovering the formats byte by byte.
 *
 *   build-fuzz/bin/fuzz_seeds fuzz/corpus      (scripts/fuzz.sh --seeds does this)
 *
 * The committed files are this program's output; inputs that once crashed a target are
 * kept beside them as crash-* (docs/fuzzing.md).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "opengda_mlx5.h"
#include "prm/prm_cq.h"
#include "prm/prm_hca_cap.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_qp.h"
#include "prm/prm_rmp.h"
#include "sample_oob.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_fabric_frame.h"
#include "swnic/swnic_qpn_alloc.h"

/* Where fuzz_swnic_cmd's pre-made objects live and its first CQ / QP / RMP land. */
#define ARENA_CQ0 0x0000u
#define ARENA_CQ1 0x1000u
#define ARENA_QP 0x2000u
/* fuzz_swnic_cmd restarts a counting random source per input: its first QP gets the lowest QPN. */
#define FUZZ_FIRST_QPN SWNIC_QPN_MIN
#define ARENA_RMP 0x4000u
#define ARENA_DBR 0x8000u

static const char *root;
static int failures;

static void write_seed(const char *target, const char *name, const void *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, target);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "fuzz_seeds: mkdir %s: %s\n", path, strerror(errno));
		failures++;
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/seed-%s", root, target, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "fuzz_seeds: writing %s failed\n", path);
		failures++;
	}
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

/* ---- fuzz_swnic_cmd: command programs ---- */

struct program {
	uint8_t bytes[8192];
	size_t len;
};

static void program_add(struct program *p, const void *in, uint16_t inlen, uint16_t outlen)
{
	if (p->len + 4u + inlen > sizeof(p->bytes)) {
		fprintf(stderr, "fuzz_seeds: command program too long\n");
		failures++;
		return;
	}
	put_be16(p->bytes + p->len, inlen);
	put_be16(p->bytes + p->len + 2, outlen);
	memcpy(p->bytes + p->len + 4, in, inlen);
	p->len += 4u + inlen;
}

static void add_cq(struct program *p, uint64_t offset, uint64_t dbr)
{
	struct prm_create_cq_params c;
	uint8_t in[PRM_CREATE_CQ_IN_SIZE];

	memset(&c, 0, sizeof(c));
	c.cqc.log_cq_size = 4;
	c.cqc.uar_page = SWNIC_UAR_BASE;
	c.cqc.c_eqn = SWNIC_EQN;
	c.cqc.dbr_umem_valid = 1;
	c.cqc.dbr_umem_id = SWNIC_UMEM_BASE;
	c.cqc.dbr_addr = dbr;
	c.cq_umem_valid = 1;
	c.cq_umem_id = SWNIC_UMEM_BASE;
	c.cq_umem_offset = offset;
	prm_create_cq_in_build(&c, in, sizeof(in));
	program_add(p, in, sizeof(in), PRM_CQ_SMALL_CMD_SIZE);
}

static void add_transition(struct program *p, uint16_t opcode, uint32_t qpn)
{
	static const uint8_t peer_gid[16] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 1, 0, 0, 0, 1, 0x12, 0x34, 127, 0, 0, 1};
	struct prm_modify_qp_params m;
	struct prm_qpc_params *q = &m.qpc;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE];

	memset(&m, 0, sizeof(m));
	memset(in, 0, sizeof(in));
	m.opcode = opcode;
	m.qpn = qpn;
	if (opcode == PRM_CMD_RST2INIT_QP) {
		q->pm_state = PRM_QP_PM_MIGRATED;
		q->primary_address_path.vhca_port_num = SWNIC_PORT_NUM;
		q->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_8B;
		q->rre = q->rwe = q->rae = 1;
	} else if (opcode == PRM_CMD_INIT2RTR_QP) {
		q->mtu = PRM_QP_MTU_4096;
		q->log_msg_max = 30;
		q->remote_qpn = 0x2a5;
		memcpy(q->primary_address_path.rgid_rip, peer_gid, 16);
		q->primary_address_path.udp_sport = 0xc000;
		q->primary_address_path.hop_limit = 64;
		q->log_rra_max = 4;
		q->min_rnr_nak = 12;
	} else if (opcode == PRM_CMD_RTR2RTS_QP) {
		q->retry_count = q->rnr_retry = 7;
		q->primary_address_path.ack_timeout = 14;
		q->log_sra_max = 4;
	}
	prm_modify_qp_in_build(&m, in, sizeof(in));
	program_add(p, in, (uint16_t)prm_qp_layout_for_opcode(opcode, false)->size, PRM_QP_CMD_SHORT_SIZE);
}

static void cmd_seeds(void)
{
	static const uint16_t caps[] = {PRM_HCA_CAP_GENERAL, PRM_HCA_CAP_ROCE, PRM_HCA_CAP_ATOMIC,
					PRM_HCA_CAP_GENERAL_2};
	struct prm_query_hca_cap_params hq = {0};
	struct prm_create_qp_params qp;
	struct prm_create_rmp_params rmp;
	struct prm_modify_rmp_params mr;
	struct program p;
	uint8_t in[PRM_QP_CMD_WITH_QPC_SIZE];
	size_t i;

	/* Capabilities and a PD / UAR pair allocated and freed. */
	memset(&p, 0, sizeof(p));
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		hq.cap_type = caps[i];
		prm_query_hca_cap_in_build(&hq, in, PRM_QUERY_HCA_CAP_IN_SIZE);
		program_add(&p, in, PRM_QUERY_HCA_CAP_IN_SIZE, PRM_QUERY_HCA_CAP_OUT_SIZE);
	}
	prm_alloc_pd_in_build(0, in, PRM_PD_UAR_CMD_SIZE);
	program_add(&p, in, PRM_PD_UAR_CMD_SIZE, PRM_PD_UAR_CMD_SIZE);
	prm_dealloc_pd_in_build(0, SWNIC_PD_BASE + 1, in, PRM_PD_UAR_CMD_SIZE);
	program_add(&p, in, PRM_PD_UAR_CMD_SIZE, PRM_PD_UAR_CMD_SIZE);
	prm_alloc_uar_in_build(0, in, PRM_PD_UAR_CMD_SIZE);
	program_add(&p, in, PRM_PD_UAR_CMD_SIZE, PRM_PD_UAR_CMD_SIZE);
	write_seed("fuzz_swnic_cmd", "caps-pd-uar", p.bytes, p.len);

	/* Two CQs, an RC QP taken to RTS, queried, then everything destroyed. */
	memset(&p, 0, sizeof(p));
	add_cq(&p, ARENA_CQ0, ARENA_DBR);
	add_cq(&p, ARENA_CQ1, ARENA_DBR + 64);
	memset(&qp, 0, sizeof(qp));
	qp.qpc.st = PRM_QP_ST_RC;
	qp.qpc.pm_state = PRM_QP_PM_MIGRATED;
	qp.qpc.pd = SWNIC_PD_BASE;
	qp.qpc.log_rq_size = 4;
	qp.qpc.log_sq_size = 6;
	qp.qpc.ts_format = PRM_QP_TS_DEFAULT;
	qp.qpc.uar_page = SWNIC_UAR_BASE;
	qp.qpc.cqn_snd = SWNIC_CQ_BASE;
	qp.qpc.cqn_rcv = SWNIC_CQ_BASE + 1;
	qp.qpc.rq_type = PRM_QP_RQ_REGULAR;
	qp.qpc.dbr_umem_valid = 1;
	qp.qpc.dbr_umem_id = SWNIC_UMEM_BASE;
	qp.qpc.dbr_addr = ARENA_DBR + 128;
	qp.wq_umem_valid = 1;
	qp.wq_umem_id = SWNIC_UMEM_BASE;
	qp.wq_umem_offset = ARENA_QP;
	prm_create_qp_in_build(&qp, in, sizeof(in));
	program_add(&p, in, sizeof(in), PRM_QP_CMD_SHORT_SIZE);
	add_transition(&p, PRM_CMD_RST2INIT_QP, FUZZ_FIRST_QPN);
	add_transition(&p, PRM_CMD_INIT2RTR_QP, FUZZ_FIRST_QPN);
	add_transition(&p, PRM_CMD_RTR2RTS_QP, FUZZ_FIRST_QPN);
	prm_query_qp_in_build(0, FUZZ_FIRST_QPN, in, PRM_QP_CMD_SHORT_SIZE);
	program_add(&p, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_WITH_QPC_SIZE);
	write_seed("fuzz_swnic_cmd", "qp-to-rts", p.bytes, p.len);
	add_transition(&p, PRM_CMD_2ERR_QP, FUZZ_FIRST_QPN);
	prm_destroy_qp_in_build(0, FUZZ_FIRST_QPN, in, PRM_QP_CMD_SHORT_SIZE);
	program_add(&p, in, PRM_QP_CMD_SHORT_SIZE, PRM_QP_CMD_SHORT_SIZE);
	prm_query_cq_in_build(0, SWNIC_CQ_BASE, in, PRM_CQ_SMALL_CMD_SIZE);
	program_add(&p, in, PRM_CQ_SMALL_CMD_SIZE, PRM_QUERY_CQ_OUT_SIZE);
	prm_destroy_cq_in_build(0, SWNIC_CQ_BASE, in, PRM_CQ_SMALL_CMD_SIZE);
	program_add(&p, in, PRM_CQ_SMALL_CMD_SIZE, PRM_CQ_SMALL_CMD_SIZE);
	write_seed("fuzz_swnic_cmd", "qp-lifecycle", p.bytes, p.len);

	/* An RMP (SRQ) created, queried, modified and destroyed. */
	memset(&p, 0, sizeof(p));
	memset(&rmp, 0, sizeof(rmp));
	rmp.rmpc.state = PRM_RMP_STATE_RDY;
	rmp.rmpc.wq.wq_type = PRM_WQ_TYPE_CYCLIC;
	rmp.rmpc.wq.pd = SWNIC_PD_BASE;
	rmp.rmpc.wq.log_wq_stride = 6;
	rmp.rmpc.wq.log_wq_sz = 4;
	rmp.rmpc.wq.dbr_umem_valid = 1;
	rmp.rmpc.wq.dbr_umem_id = SWNIC_UMEM_BASE;
	rmp.rmpc.wq.dbr_addr = ARENA_DBR + 192;
	rmp.rmpc.wq.wq_umem_valid = 1;
	rmp.rmpc.wq.wq_umem_id = SWNIC_UMEM_BASE;
	rmp.rmpc.wq.wq_umem_offset = ARENA_RMP;
	prm_create_rmp_in_build(&rmp, in, PRM_RMP_CMD_SIZE);
	program_add(&p, in, PRM_RMP_CMD_SIZE, PRM_RMP_SMALL_CMD_SIZE);
	prm_query_rmp_in_build(0, SWNIC_SRQ_BASE, in, PRM_RMP_SMALL_CMD_SIZE);
	program_add(&p, in, PRM_RMP_SMALL_CMD_SIZE, PRM_RMP_CMD_SIZE);
	memset(&mr, 0, sizeof(mr));
	mr.rmpn = SWNIC_SRQ_BASE;
	mr.rmp_state = PRM_RMP_STATE_RDY;
	mr.rmpc.state = PRM_RMP_STATE_ERR;
	prm_modify_rmp_in_build(&mr, in, PRM_RMP_CMD_SIZE);
	program_add(&p, in, PRM_RMP_CMD_SIZE, PRM_RMP_SMALL_CMD_SIZE);
	prm_destroy_rmp_in_build(0, SWNIC_SRQ_BASE, in, PRM_RMP_SMALL_CMD_SIZE);
	program_add(&p, in, PRM_RMP_SMALL_CMD_SIZE, PRM_RMP_SMALL_CMD_SIZE);
	write_seed("fuzz_swnic_cmd", "rmp", p.bytes, p.len);
}

/* ---- fuzz_fabric_frame: one request of each shape, a READ response, the handshake ---- */

/* The connection handshake: a hello with and without a secret, and an auth frame. */
static void handshake_seeds(void)
{
	uint8_t hello[SWNIC_FRAME_HELLO_HDR_LEN], auth[SWNIC_FRAME_AUTH_HDR_LEN];
	struct swnic_frame_hello h;
	uint8_t mac[SWNIC_FRAME_MAC_LEN];

	memset(&h, 0, sizeof(h));
	memset(h.nonce, 0x5a, sizeof(h.nonce));
	swnic_frame_encode_hello(&h, hello);
	write_seed("fuzz_fabric_frame", "hello", hello, sizeof(hello));
	h.secret = true;
	memset(h.mac, 0xa5, sizeof(h.mac));
	swnic_frame_encode_hello(&h, hello);
	write_seed("fuzz_fabric_frame", "hello-secret", hello, sizeof(hello));
	memset(mac, 0x3c, sizeof(mac));
	swnic_frame_encode_auth(mac, auth);
	write_seed("fuzz_fabric_frame", "auth", auth, sizeof(auth));
}

static void frame_seeds(void)
{
	static const uint8_t ops[] = {SWNIC_REQ_WRITE, SWNIC_REQ_SEND_IMM, SWNIC_REQ_READ, SWNIC_REQ_ATOMIC_CS};
	static const char *const names[] = {"req-write", "req-send-imm", "req-read", "req-atomic-cs"};
	uint8_t frame[SWNIC_FRAME_REQ_HDR_LEN + 16];
	uint8_t payload[16] = "0123456789abcdef";
	struct swnic_resp resp;
	struct swnic_req req;
	size_t i;

	for (i = 0; i < sizeof(ops); i++) {
		memset(&req, 0, sizeof(req));
		req.op = ops[i];
		req.src_qpn = 0x201;
		req.dst_qpn = 0x2a5;
		req.psn = 0x100;
		req.raddr = 0x10000;
		req.rkey = 0x205;
		if (req.op == SWNIC_REQ_ATOMIC_CS) {
			req.atomic_size = 8;
			req.len = 8;
			req.swap_add = 7;
		} else {
			req.len = sizeof(payload);
		}
		req.payload = swnic_req_payload_len(&req) > 0 ? payload : NULL;
		if (swnic_frame_encode_req(i + 1, &req, 4096, frame) != DOCA_SUCCESS) {
			failures++;
			continue;
		}
		memcpy(frame + SWNIC_FRAME_REQ_HDR_LEN, payload, swnic_req_payload_len(&req));
		write_seed("fuzz_fabric_frame", names[i], frame, SWNIC_FRAME_REQ_HDR_LEN + swnic_req_payload_len(&req));
	}
	memset(&resp, 0, sizeof(resp));
	resp.status = SWNIC_RESP_ACK;
	resp.read_len = sizeof(payload);
	if (swnic_frame_encode_resp(3, &resp, 4096, frame) != DOCA_SUCCESS)
		failures++;
	memcpy(frame + SWNIC_FRAME_RESP_HDR_LEN, payload, sizeof(payload));
	write_seed("fuzz_fabric_frame", "resp-read", frame, SWNIC_FRAME_RESP_HDR_LEN + sizeof(payload));
	swnic_frame_mark_closing(frame);
	write_seed("fuzz_fabric_frame", "resp-read-closing", frame, SWNIC_FRAME_RESP_HDR_LEN + sizeof(payload));
	handshake_seeds();
}

/* ---- fuzz_wqe: byte 0 log ring size, bytes 1-2 index, then the ring ---- */

static size_t wqe_ctrl(uint8_t *w, uint8_t opcode, uint8_t opmod, uint8_t ds)
{
	put_be32(w, ((uint32_t)opmod << 24) | opcode);
	put_be32(w + 4, (0x201u << 8) | ds);
	w[11] = 0x08; /* CE: always complete */
	return 16;
}

static void wqe_seeds(void)
{
	uint8_t s[3 + 256];
	uint8_t *w = s + 3;

	/* RDMA WRITE: ctrl, raddr, one pointer segment; ring of 4 WQEBBs, index 0. */
	memset(s, 0, sizeof(s));
	s[0] = 2;
	wqe_ctrl(w, OPENGDA_MLX5_OPCODE_RDMA_WRITE, 0, 3);
	put_be64(w + 16, 0x10000);
	put_be32(w + 24, 0x205);
	put_be32(w + 32, 64);
	put_be32(w + 36, 0x206);
	put_be64(w + 40, 0x20000);
	write_seed("fuzz_wqe", "write", s, 3 + 48);

	/* SEND with 20 inline bytes (two data DS). */
	memset(s, 0, sizeof(s));
	s[0] = 2;
	wqe_ctrl(w, OPENGDA_MLX5_OPCODE_SEND, 0, 3);
	put_be32(w + 16, 0x80000000u | 20u);
	memcpy(w + 20, "inline payload bytes", 20);
	write_seed("fuzz_wqe", "send-inline", s, 3 + 48);

	/* Masked 8-byte compare and swap: ctrl, raddr, 32 B operands, a pointer segment. */
	memset(s, 0, sizeof(s));
	s[0] = 2;
	wqe_ctrl(w, OPENGDA_MLX5_OPCODE_ATOMIC_MASKED_CS, 3, 5);
	put_be64(w + 16, 0x10000);
	put_be32(w + 24, 0x205);
	put_be64(w + 32, 1);
	put_be64(w + 40, 0);
	put_be64(w + 48, ~0ull);
	put_be64(w + 56, ~0ull);
	put_be32(w + 64, 8);
	put_be32(w + 68, 0x206);
	put_be64(w + 72, 0x20000);
	write_seed("fuzz_wqe", "masked-cs", s, 3 + 80);

	/* A READ in the last slot of a 2-WQEBB ring, wrapping to slot 0. */
	memset(s, 0, sizeof(s));
	s[0] = 1;
	s[2] = 1; /* index 1 */
	wqe_ctrl(w + 64, OPENGDA_MLX5_OPCODE_RDMA_READ, 0, 5);
	put_be64(w + 64 + 16, 0x10000);
	put_be32(w + 64 + 24, 0x205);
	put_be32(w + 64 + 32, 64);
	put_be32(w + 64 + 36, 0x206);
	put_be64(w + 64 + 40, 0x20000);
	write_seed("fuzz_wqe", "read-wrap", s, 3 + 128);
}

/* ---- fuzz_oob: selector, row, flag, then sample_oob frames ---- */

/* Writes fuzz_oob seed <name>: the receiver, what it expects (row, arg) and one frame. */
static void oob_seed(const char *name, uint8_t selector, uint32_t row, uint8_t arg, uint16_t type,
		     const uint8_t *payload, uint32_t len)
{
	uint8_t s[6 + SAMPLE_OOB_HDR_SIZE + 512];

	if (len > 512) {
		failures++;
		return;
	}
	s[0] = selector;
	put_be32(s + 1, row);
	s[5] = arg;
	put_be32(s + 6, SAMPLE_OOB_MAGIC);
	put_be16(s + 10, SAMPLE_OOB_VERSION);
	put_be16(s + 12, type);
	put_be32(s + 14, len);
	if (len > 0)
		memcpy(s + 6 + SAMPLE_OOB_HDR_SIZE, payload, len);
	write_seed("fuzz_oob", name, s, 6 + SAMPLE_OOB_HDR_SIZE + len);
}

static void oob_seeds(void)
{
	uint8_t pl[512];

	/* ex hello: protocol 1, example 1, sizes 8..4096, 100 iterations, 1x32 threads. */
	memset(pl, 0, sizeof(pl));
	put_be16(pl, 1);
	put_be16(pl + 2, 1);
	put_be64(pl + 4, 8);
	put_be64(pl + 12, 4096);
	put_be32(pl + 20, 100);
	put_be32(pl + 24, 1);
	put_be32(pl + 28, 32);
	oob_seed("ex-hello", 0, 0, 0, 0x100, pl, 45);

	/* ex setup: QP 0x201, PSN 0, MTU 4096, a 4 KiB buffer. */
	memset(pl, 0, sizeof(pl));
	put_be32(pl, 0x201);
	pl[26] = 5;
	put_be64(pl + 27, 0x10000);
	put_be32(pl + 35, 0x205);
	put_be64(pl + 39, 4096);
	oob_seed("ex-setup", 1, 0, 0, 0x101, pl, 47);

	/* ex step done for row 2 (timed), and an ERROR from the peer where it was expected. */
	memset(pl, 0, sizeof(pl));
	put_be32(pl, 2);
	pl[4] = 1;
	put_be64(pl + 9, 1000);
	put_be32(pl + 17, 32);
	memcpy(pl + 29, "ok", 2);
	oob_seed("ex-step-done", 2, 2, 1, 0x104, pl, 4 + 1 + 4 + 8 + 4 + 8 + 256);
	oob_seed("ex-step-error", 2, 2, 1, 0x107, (const uint8_t *)"the peer gave up", 16);

	/* ex bye. */
	oob_seed("ex-bye", 3, 0, 0, 0x106, NULL, 0);

	/* sc hello matching fuzz_oob's configuration (WRITE x16 of 64 bytes, RC, Ethernet). */
	memset(pl, 0, sizeof(pl));
	put_be64(pl, 0x10000);
	put_be32(pl + 8, 4096);
	put_be32(pl + 12, 0x205);
	put_be32(pl + 16, 0x201);
	pl[42] = 5;
	pl[44] = 1;
	put_be32(pl + 48, 64);
	put_be32(pl + 52, 16);
	oob_seed("sc-hello", 4, 0, 0, 1, pl, 64);

	/* sc done: a failure with a reason. */
	memset(pl, 0, sizeof(pl));
	put_be32(pl, 1);
	memcpy(pl + 8, "data mismatch at byte 7", 23);
	oob_seed("sc-done", 5, 0, 0, 3, pl, 256);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <corpus directory>\n", argv[0]);
		return 2;
	}
	root = argv[1];
	if (mkdir(root, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "fuzz_seeds: mkdir %s: %s\n", root, strerror(errno));
		return 1;
	}
	cmd_seeds();
	frame_seeds();
	wqe_seeds();
	oob_seeds();
	return failures == 0 ? 0 : 1;
}
