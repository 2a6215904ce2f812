/* SPDX-License-Identifier: BSD-3-Clause */
/* ex_main(): the run of a GPUNetIO Verbs example, server or client (ex_run.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_proto.h"
#include "ex_report.h"
#include "ex_run.h"
#include "ex_setup.h"
#include "sample_oob.h"
#include "sample_pattern.h"
#include "sample_util.h"

static int wait_ms(const struct ex_ctx *x)
{
	return (int)x->cfg.timeout_s * 1000;
}

/*
 * A wait that spans the peer's work of one pass: a pass of many messages may take much longer
 * than one device wait, whose bound is --timeout. A peer that dies closes the connection, which
 * ends the wait at once; this bound is for a peer that stops answering without closing it.
 */
static int step_wait_ms(const struct ex_ctx *x)
{
	const int64_t ms = (int64_t)wait_ms(x) * 30;

	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

static void apply_geometry(struct ex_ctx *x)
{
	const struct ex_spec *spec = x->ops->spec;

	x->blocks = x->cfg.blocks ? x->cfg.blocks : x->cuda ? spec->gpu_blocks : spec->host_blocks;
	x->threads = x->cfg.threads ? x->cfg.threads : x->cuda ? spec->gpu_threads : spec->host_threads;
	/* Warp scope posts for whole warps: host threads default to one, so a kernel peer can follow. */
	if (!x->cfg.threads && x->cfg.scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP && x->threads % 32u != 0)
		x->threads = (x->threads + 31u) / 32u * 32u;
}

static uint32_t row_count(const struct ex_ctx *x)
{
	uint32_t n = x->ops->nrows != NULL ? x->ops->nrows(x) : ex_config_nsizes(&x->cfg);

	return n > EX_MAX_ROWS ? EX_MAX_ROWS : n;
}

static uint64_t row_size(const struct ex_ctx *x, uint32_t row)
{
	return x->ops->row_size != NULL ? x->ops->row_size(x, row) : ex_config_size(&x->cfg, row);
}

/* Run parameters: the client's, checked against any the server was given itself. */
static int adopt_hello(struct ex_ctx *x, const struct ex_hello *h)
{
	const struct ex_spec *spec = x->ops->spec;
	struct ex_config *c = &x->cfg;

	if (h->example_id != spec->id) {
		sample_err("the client runs another example (id %u); this server is %s (id %u)", h->example_id,
			   spec->name, spec->id);
		return -1;
	}
#define EX_MUST_MATCH(bit, field, value, what)                                                              \
	do {                                                                                                \
		if ((c->explicit_run & (bit)) && (uint64_t)(field) != (uint64_t)(value)) {                  \
			sample_err("the client runs with %s %" PRIu64 ", this server was given %" PRIu64, what,   \
				   (uint64_t)(value), (uint64_t)(field));                                   \
			return -1;                                                                          \
		}                                                                                           \
	} while (0)
	EX_MUST_MATCH(EX_RUN_SIZES, c->min_size, h->min_size, "min size");
	EX_MUST_MATCH(EX_RUN_SIZES, c->max_size, h->max_size, "max size");
	EX_MUST_MATCH(EX_RUN_ITERS, c->iters, h->iters, "iterations");
	EX_MUST_MATCH(EX_RUN_BLOCKS, c->blocks, h->blocks, "blocks");
	EX_MUST_MATCH(EX_RUN_THREADS, c->threads, h->threads, "threads per block");
	EX_MUST_MATCH(EX_RUN_SCOPE, c->scope, h->scope, "scope");
#undef EX_MUST_MATCH
	/* ex_recv_hello() checked the bounds every example shares; this example's own: */
	if (h->threads > spec->max_threads) {
		sample_err("the client runs %u threads per block; %s takes at most %" PRIu64, h->threads, spec->name,
			   spec->max_threads);
		return -1;
	}
	c->min_size = h->min_size;
	c->max_size = h->max_size;
	c->iters = h->iters;
	c->blocks = h->blocks;
	c->threads = h->threads;
	c->scope = (enum doca_gpu_dev_verbs_exec_scope)h->scope;
	x->seed = h->seed;
	apply_geometry(x);
	return 0;
}

static int alloc_buffers(struct ex_ctx *x)
{
	uint64_t aux = x->ops->aux_bytes != NULL ? x->ops->aux_bytes(x) : 0;

	if (ex_buf_alloc(x, x->ops->buf_bytes(x), true, &x->buf) != 0)
		return -1;
	return aux == 0 ? 0 : ex_buf_alloc(x, aux, false, &x->aux);
}

static int check_run(struct ex_ctx *x)
{
	const struct ex_spec *spec = x->ops->spec;

	x->nrows = row_count(x);
	if (x->cuda && x->cfg.scope == DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP && x->threads % 32u != 0) {
		sample_err("warp scope in CUDA kernels posts for whole warps: %u threads per block is not a multiple "
			   "of 32 (run the client with -t 32 or more)",
			   x->threads);
		return -1;
	}
	if (spec->iters_split && x->cfg.iters % (x->blocks * x->threads) != 0) {
		sample_err("-i %u: the %u x %u threads share the messages evenly, so -i must be a multiple of %u",
			   x->cfg.iters, x->blocks, x->threads, x->blocks * x->threads);
		return -1;
	}
	return x->ops->check_config != NULL ? x->ops->check_config(x) : 0;
}

/* ---- server ------------------------------------------------------------------------------------ */

static int server_connect(struct ex_ctx *x)
{
	struct ex_setup mine, peer;
	struct ex_hello h;
	uint16_t port = 0;
	int lfd = -1, rc;

	if (sample_oob_listen(x->cfg.port, &lfd, &port) != 0)
		return -1;
	/* Printed in JSON mode too: scripts read the port from it (the JSON object follows it). */
	sample_info("listening on port %u", port);
	rc = sample_oob_accept(lfd, wait_ms(x) * 6, &x->oob_fd);
	sample_oob_close(&lfd);
	if (rc != 0 || ex_recv_hello(x->oob_fd, &h, wait_ms(x)) != 0 || adopt_hello(x, &h) != 0 || check_run(x) != 0 ||
	    alloc_buffers(x) != 0)
		return -1;
	ex_setup_local(x, &mine);
	if (ex_send_setup(x->oob_fd, &mine, wait_ms(x)) != 0 || ex_recv_setup(x->oob_fd, &peer, wait_ms(x)) != 0 ||
	    ex_qp_connect(x, &peer) != 0)
		return -1;
	return ex_companion_exchange(x, x->oob_fd, wait_ms(x), true);
}

static int server_pass(struct ex_ctx *x, uint32_t row, bool timed)
{
	struct ex_step s = {row, row_size(x, row), timed};
	struct ex_step_msg m, done;
	int rc;

	memset(&m, 0, sizeof(m));
	if (ex_recv_step(x->oob_fd, EX_MSG_STEP_BEGIN, row, timed, &m, step_wait_ms(x)) != 0)
		return -1;
	x->fail[0] = '\0';
	if (x->ops->server_begin != NULL && x->ops->server_begin(x, &s) != 0)
		return -1;
	m.row = row;
	m.timed = timed;
	if (ex_send_step(x->oob_fd, EX_MSG_STEP_READY, &m, wait_ms(x)) != 0 ||
	    ex_recv_step(x->oob_fd, EX_MSG_STEP_DONE, row, timed, &done, step_wait_ms(x)) != 0)
		return -1;
	if (done.status != 0) {
		sample_err("the client's pass over %" PRIu64 "-byte messages failed: %s", s.size, done.text);
		x->peer_failed = true;
		return -1;
	}
	rc = x->ops->server_end(x, &s);
	memset(&m, 0, sizeof(m));
	m.row = row;
	m.timed = timed;
	m.status = rc == 0 ? 0 : 1;
	m.iters = x->checked_bytes;
	snprintf(m.text, sizeof(m.text), "%.255s", rc == 0 ? "" : x->fail[0] ? x->fail : sample_first_error());
	if (rc != 0)
		sample_err("validation failed for %" PRIu64 "-byte messages: %s", s.size, m.text);
	if (ex_send_step(x->oob_fd, EX_MSG_STEP_RESULT, &m, wait_ms(x)) != 0 || rc != 0)
		return -1;
	if (timed) {
		struct ex_row *r = &x->rows[row];

		r->size = s.size;
		r->iters = done.iters;
		r->threads = done.threads;
		r->ns = done.ns;
		r->done = true;
		ex_row_compute(x->ops, r);
		if (!x->cfg.json)
			ex_report_row(x, row);
	}
	return 0;
}

static int run_server(struct ex_ctx *x)
{
	uint32_t row;

	if (server_connect(x) != 0)
		return -1;
	if (!x->cfg.json) {
		ex_report_header(x);
		ex_report_table_head(x);
	}
	for (row = 0; row < x->nrows; row++)
		if (server_pass(x, row, false) != 0 || server_pass(x, row, true) != 0)
			return -1;
	return ex_recv_bye(x->oob_fd, step_wait_ms(x));
}

/* ---- client ------------------------------------------------------------------------------------ */

static int client_connect(struct ex_ctx *x)
{
	struct ex_setup mine, peer;
	struct ex_hello h;

	if (check_run(x) != 0 || alloc_buffers(x) != 0)
		return -1;
	if (sample_oob_connect(x->cfg.server_ip, x->cfg.port, wait_ms(x), &x->oob_fd) != 0)
		return -1;
	memset(&h, 0, sizeof(h));
	h.proto = EX_PROTO_VERSION;
	h.example_id = x->ops->spec->id;
	h.min_size = x->cfg.min_size;
	h.max_size = x->cfg.max_size;
	h.iters = x->cfg.iters;
	h.blocks = x->blocks;
	h.threads = x->threads;
	h.scope = (uint8_t)x->cfg.scope;
	h.seed = x->seed;
	if (ex_send_hello(x->oob_fd, &h, wait_ms(x)) != 0 || ex_recv_setup(x->oob_fd, &peer, wait_ms(x)) != 0)
		return -1;
	ex_setup_local(x, &mine);
	if (ex_send_setup(x->oob_fd, &mine, wait_ms(x)) != 0 || ex_qp_connect(x, &peer) != 0)
		return -1;
	return ex_companion_exchange(x, x->oob_fd, wait_ms(x), false);
}

static int client_pass(struct ex_ctx *x, uint32_t row, bool timed, uint64_t *server_checked)
{
	struct ex_step s = {row, row_size(x, row), timed};
	struct ex_step_msg m, res;
	struct ex_row r;
	int rc;

	memset(&m, 0, sizeof(m));
	m.row = row;
	m.timed = timed;
	if (ex_send_step(x->oob_fd, EX_MSG_STEP_BEGIN, &m, wait_ms(x)) != 0 ||
	    ex_recv_step(x->oob_fd, EX_MSG_STEP_READY, row, timed, &res, step_wait_ms(x)) != 0)
		return -1;
	memset(&r, 0, sizeof(r));
	r.size = s.size;
	x->fail[0] = '\0';
	rc = x->ops->client_run(x, &s, &r);
	m.status = rc == 0 ? 0 : 1;
	m.iters = r.iters;
	m.threads = r.threads;
	m.ns = r.ns;
	snprintf(m.text, sizeof(m.text), "%.255s", rc == 0 ? "" : x->fail[0] ? x->fail : sample_first_error());
	if (rc != 0 && x->fail[0] != '\0')
		sample_err("%" PRIu64 "-byte messages: %s", s.size, x->fail);
	if (ex_send_step(x->oob_fd, EX_MSG_STEP_DONE, &m, wait_ms(x)) != 0 || rc != 0)
		return -1;
	if (ex_recv_step(x->oob_fd, EX_MSG_STEP_RESULT, row, timed, &res, step_wait_ms(x)) != 0)
		return -1;
	if (res.status != 0) {
		sample_err("the server found the %" PRIu64 "-byte messages wrong: %s", s.size, res.text);
		x->peer_failed = true;
		return -1;
	}
	*server_checked = res.iters;
	if (timed) {
		r.done = true;
		ex_row_compute(x->ops, &r);
		x->rows[row] = r;
		if (!x->cfg.json)
			ex_report_row(x, row);
	}
	return 0;
}

static int run_client(struct ex_ctx *x, uint64_t *server_checked)
{
	uint32_t row;

	x->seed = sample_pattern_new_seed();
	if (client_connect(x) != 0)
		return -1;
	if (!x->cfg.json) {
		ex_report_header(x);
		ex_report_table_head(x);
	}
	for (row = 0; row < x->nrows; row++)
		if (client_pass(x, row, false, server_checked) != 0 || client_pass(x, row, true, server_checked) != 0)
			return -1;
	return ex_send_bye(x->oob_fd, wait_ms(x));
}

/* ---- both -------------------------------------------------------------------------------------- */

static void final_report(struct ex_ctx *x, int rc, uint64_t server_checked)
{
	const char *err = rc == 0 ? NULL : x->fail[0] ? x->fail : sample_first_error();

	if (x->cfg.json) {
		ex_report_json(x, rc == 0, err);
		return;
	}
	if (x->qp != NULL && x->nrows > 0)
		ex_report_table_end(x);
	if (rc != 0) {
		printf("Validation failed: %s\n", err);
	} else if (x->server) {
		printf("Validation successful: %" PRIu64 " bytes checked, every one as the client meant it\n",
		       x->checked_bytes);
	} else if (x->checked_bytes == 0) {
		printf("Validation successful: the server checked %" PRIu64 " bytes\n", server_checked);
	} else {
		printf("Validation successful: the server checked %" PRIu64 " bytes, this client %" PRIu64 "\n",
		       server_checked, x->checked_bytes);
	}
	fflush(stdout);
}

int ex_main(const struct ex_ops *ops, int argc, char **argv)
{
	struct ex_ctx *x = calloc(1, sizeof(*x));
	uint64_t server_checked = 0;
	int rc;

	sample_set_prog(ops->spec->name);
	if (x == NULL) {
		sample_err("out of memory");
		return SAMPLE_EXIT_FAILURE;
	}
	x->ops = ops;
	x->oob_fd = -1;
	rc = ex_config_parse(ops->spec, argc, argv, &x->cfg);
	if (rc != 0) {
		free(x);
		return rc > 0 ? SAMPLE_EXIT_SUCCESS : SAMPLE_EXIT_USAGE;
	}
	x->server = x->cfg.server_ip == NULL;
	rc = ex_exec_open(x);
	if (rc == 0) {
		apply_geometry(x);
		/* The geometry is known only now (defaults depend on the executor): still a usage error. */
		if (!x->server && ex_config_check_run_bytes(x->blocks, x->threads, x->cfg.max_size) != 0) {
			ex_teardown(x);
			free(x);
			return SAMPLE_EXIT_USAGE;
		}
		rc = ex_qp_open(x);
	}
	if (rc == 0)
		rc = x->server ? run_server(x) : run_client(x, &server_checked);
	if (rc != 0 && !x->peer_failed)
		ex_send_error(x->oob_fd, x->fail[0] ? x->fail : sample_first_error());
	final_report(x, rc, server_checked);
	sample_oob_close(&x->oob_fd);
	ex_teardown(x);
	free(x);
	return rc == 0 ? SAMPLE_EXIT_SUCCESS : SAMPLE_EXIT_FAILURE;
}
