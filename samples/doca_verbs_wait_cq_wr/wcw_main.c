/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_wait_cq_wr: chains two sends with a cross-channel WAIT.
 *
 *   1. QP2 and QP4 post receives into buffer 2 and buffer 3.
 *   2. QP3 gets a WAIT on QP1's CQ (its first CQE) and a SEND of buffer 2, rung at once.
 *   3. After WCW_HOLD_CHECK_MS, QP3's send must still be held: no CQE, buffer 3 untouched.
 *   4. QP1 sends buffer 1 (through the bridge).
 *   5. QP3's completion arrives, and QP1's CQE is already in QP1's CQ at that moment.
 *   6. Buffer 2 and buffer 3 both equal buffer 1.
 */
#include <stdio.h>
#include <string.h>

#include "sample_args.h"
#include "sample_pattern.h"
#include "sample_util.h"
#include "wcw.h"

enum opt_id { OPT_DEVICE, OPT_GID_INDEX, OPT_IPV6, OPT_TIMEOUT, OPT_LOG_LEVEL, OPT_HELP, OPT_VERSION };

static const struct sample_opt options[] = {
	{OPT_DEVICE, "-d", "--device-name", "<IB device name>", "device to use (default: the first, see OPENGDA_DEVICE)"},
	{OPT_GID_INDEX, "-gi", "--gid-index", "<index>", "GID index (default 0)"},
	{OPT_IPV6, NULL, "--ipv6", NULL, "use the IPv6 address type (RoCE; the GID index must hold an IPv6 GID)"},
	{OPT_TIMEOUT, "-t", "--timeout", "<seconds>", "bound on every completion wait (default 10)"},
	{OPT_LOG_LEVEL, "-l", "--log-level", "<level>", "library log level: 10..70 as DOCA, or syslog 0..7"},
	{OPT_HELP, "-h", "--help", NULL, "print this help"},
	{OPT_VERSION, "-v", "--version", NULL, "print the version"},
};

#define NOPTS (sizeof(options) / sizeof(options[0]))

static int handle(int id, const char *opt, const char *value, void *arg)
{
	struct wcw_config *cfg = arg;
	uint64_t v;

	switch (id) {
	case OPT_DEVICE:
		cfg->device = value;
		return 0;
	case OPT_GID_INDEX:
		if (sample_parse_u64(opt, value, 0, 255, 0, &v) != 0)
			return -1;
		cfg->gid_index = (uint32_t)v;
		return 0;
	case OPT_IPV6:
		cfg->ipv6 = true;
		return 0;
	case OPT_TIMEOUT:
		if (sample_parse_u64(opt, value, 1, 3600, 0, &v) != 0)
			return -1;
		cfg->timeout_ms = (int)v * 1000;
		return 0;
	case OPT_LOG_LEVEL:
		return sample_apply_log_level(opt, value);
	case OPT_HELP:
		cfg->help = true;
		return 0;
	case OPT_VERSION:
		cfg->version = true;
		return 0;
	default:
		return -1;
	}
}

static int post_recv(struct wcw *w, int qp, int buf)
{
	struct ibv_sge sge = {.addr = (uint64_t)(uintptr_t)w->buf[buf], .length = WCW_BUF_SIZE, .lkey = w->lkey[buf]};
	struct ibv_recv_wr wr, *bad = NULL;
	int rc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uint64_t)buf;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	rc = doca_verbs_bridge_post_recv(w->qp[qp], &wr, &bad);
	if (rc != 0) {
		sample_err("QP%d: doca_verbs_bridge_post_recv returned %d (%s)", qp + 1, rc, strerror(rc));
		return -1;
	}
	return 0;
}

/* QP1: SEND of buffer 1 through the bridge. */
static int qp1_send(struct wcw *w)
{
	struct ibv_sge sge = {.addr = (uint64_t)(uintptr_t)w->buf[0], .length = WCW_BUF_SIZE, .lkey = w->lkey[0]};
	struct ibv_send_wr wr, *bad = NULL;
	int rc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 1;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	rc = doca_verbs_bridge_post_send(w->qp[0], &wr, &bad);
	if (rc != 0) {
		sample_err("QP1: doca_verbs_bridge_post_send returned %d (%s)", rc, strerror(rc));
		return -1;
	}
	return 0;
}

/* A receive completion of the whole buffer. */
static int expect_recv(struct wcw *w, int qp)
{
	struct ibv_wc wc;
	char what[32];

	snprintf(what, sizeof(what), "QP%d receive", qp + 1);
	if (sample_poll_one(w->cq[qp], w->cfg->timeout_ms, what, &wc) != 0)
		return -1;
	if (wc.opcode != IBV_WC_RECV || wc.byte_len != WCW_BUF_SIZE) {
		sample_err("%s: opcode %d with %u bytes, RECV of %u bytes expected", what, (int)wc.opcode, wc.byte_len,
			   WCW_BUF_SIZE);
		return -1;
	}
	return 0;
}

static int buffers_equal(const struct wcw *w, int a, int b)
{
	size_t i;

	for (i = 0; i < WCW_BUF_SIZE; i++) {
		if (w->buf[a][i] != w->buf[b][i]) {
			sample_err("buffer %d differs from buffer %d at byte %zu (0x%02x, 0x%02x)", b + 1, a + 1, i,
				   w->buf[b][i], w->buf[a][i]);
			return 0;
		}
	}
	return 1;
}

/* QP3's WQEs are posted and rung; QP1's send is not posted yet: QP3 must be held by its WAIT. */
static int check_still_held(struct wcw *w, struct wcw_cq *cq3)
{
	size_t i;

	sample_sleep_us(WCW_HOLD_CHECK_MS * 1000u);
	if (wcw_cq_peek(cq3)) {
		sample_err("QP3 completed before QP1 sent anything: the WAIT did not hold its send");
		return -1;
	}
	for (i = 0; i < WCW_BUF_SIZE; i++) {
		if (w->buf[2][i] != 0xa5) {
			sample_err("buffer 3 changed before QP1 sent anything: the WAIT did not hold QP3's send");
			return -1;
		}
	}
	return 0;
}

static int run_chain(struct wcw *w)
{
	struct opengda_mlx5_cqe_fields f;
	struct ibv_wc wc;
	struct wcw_sq sq3;
	struct wcw_cq cq1_view, cq3;
	uint32_t cqn1 = 0;

	sample_pattern_fill(w->buf[0], WCW_BUF_SIZE, sample_pattern_new_seed(), 0);
	memset(w->buf[1], 0x00, WCW_BUF_SIZE);
	memset(w->buf[2], 0xa5, WCW_BUF_SIZE);
	if (post_recv(w, 1, 1) != 0 || post_recv(w, 3, 2) != 0)
		return -1;
	if (wcw_sq_open(w->qp[2], &sq3) != 0 || wcw_cq_open(w->cq[2], &cq3) != 0 || wcw_cq_open(w->cq[0], &cq1_view) != 0)
		return -1;
	cqn1 = cq1_view.cqn;
	/* WAIT for CQE 0 of QP1's CQ, then send buffer 2 to QP4: one doorbell for both. */
	if (wcw_sq_post_wait_cq(&sq3, cqn1, 0) != 0 ||
	    wcw_sq_post_send(&sq3, (uint64_t)(uintptr_t)w->buf[1], w->lkey[1], WCW_BUF_SIZE) != 0)
		return -1;
	wcw_sq_ring(&sq3);
	if (check_still_held(w, &cq3) != 0)
		return -1;
	if (qp1_send(w) != 0)
		return -1;
	if (wcw_cq_poll(&cq3, w->cfg->timeout_ms, "QP3 send", &f) != 0)
		return -1;
	/* QP1's CQE must already be in its CQ when QP3's send has completed. */
	if (!wcw_cq_peek(&cq1_view)) {
		sample_err("QP3's send completed while QP1's CQ was still empty: the chain ran out of order");
		return -1;
	}
	if (f.opcode != OPENGDA_MLX5_CQE_REQ || f.wqe_opcode != OPENGDA_MLX5_OPCODE_SEND || f.wqe_counter != 1 ||
	    f.qpn != sq3.sq.qpn) {
		sample_err("QP3 send: CQE opcode %u for WQE opcode 0x%x index %u of QP 0x%x; the SEND at index 1 of "
			   "QP 0x%x expected",
			   f.opcode, f.wqe_opcode, f.wqe_counter, f.qpn, sq3.sq.qpn);
		return -1;
	}
	if (sample_poll_one(w->cq[0], w->cfg->timeout_ms, "QP1 send", &wc) != 0)
		return -1;
	if (wc.opcode != IBV_WC_SEND || wc.wr_id != 1) {
		sample_err("QP1 send: opcode %d wr_id %llu, SEND 1 expected", (int)wc.opcode, (unsigned long long)wc.wr_id);
		return -1;
	}
	if (expect_recv(w, 1) != 0 || expect_recv(w, 3) != 0)
		return -1;
	if (!buffers_equal(w, 0, 1) || !buffers_equal(w, 0, 2))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct wcw_config cfg;
	struct wcw w;
	int rc;

	sample_set_prog("doca_verbs_wait_cq_wr");
	memset(&cfg, 0, sizeof(cfg));
	cfg.timeout_ms = WCW_DEFAULT_TIMEOUT_S * 1000;
	if (sample_args_parse(argc, argv, options, NOPTS, handle, &cfg) != 0)
		return SAMPLE_EXIT_USAGE;
	if (cfg.help) {
		sample_args_usage(stdout, "[options]", options, NOPTS);
		printf("\nExit status: 0 success, 1 failure (error, timeout, wrong order or data), 2 bad usage.\n");
		return SAMPLE_EXIT_SUCCESS;
	}
	if (cfg.version) {
		sample_print_version();
		return SAMPLE_EXIT_SUCCESS;
	}
	rc = wcw_setup(&w, &cfg);
	if (rc == 0) {
		sample_info("device %s: QP1 -> QP2 and QP3 -> QP4 connected; QP3 waits on QP1's CQ", w.dev.name);
		rc = run_chain(&w);
	}
	wcw_teardown(&w);
	if (rc != 0) {
		sample_info("FAILED: %s", sample_first_error());
		return SAMPLE_EXIT_FAILURE;
	}
	sample_info("QP3's send waited for QP1's completion; buffer 3 equals buffer 1: success");
	return SAMPLE_EXIT_SUCCESS;
}
