/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_slots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_PROBE 256u

uint64_t ex_slots(const struct ex_ctx *x)
{
	return (uint64_t)x->blocks * x->threads;
}

uint64_t ex_slots_buf_bytes(const struct ex_ctx *x)
{
	return ex_slots(x) * x->cfg.max_size;
}

uint64_t ex_slots_aux_bytes(const struct ex_ctx *x)
{
	return x->server ? 0 : ex_slots(x) * sizeof(struct ex_thread_result);
}

int ex_slots_fill(struct ex_ctx *x, const struct ex_step *s)
{
	const uint64_t n = ex_slots(x);
	uint8_t *src;
	uint64_t t;
	int rc = 0;

	/* The NIC only reads these slots: the warm-up pass of the row wrote the same bytes already. */
	if (s->timed)
		return 0;
	src = malloc(s->size);
	if (src == NULL)
		return ex_fail(x, "out of memory");
	for (t = 0; t < n && rc == 0; t++) {
		ex_pattern_fill(x, src, s->size, ex_pattern_id(s->row, (uint32_t)t));
		if (t == n - 1)
			ex_test_corrupt(src, s->size);
		rc = ex_buf_write(x, &x->buf, t * s->size, src, s->size);
	}
	free(src);
	return rc;
}

int ex_slots_clear(struct ex_ctx *x, const struct ex_step *s)
{
	return ex_buf_fill(x, &x->buf, 0, 0, ex_slots(x) * s->size);
}

int ex_slots_check(struct ex_ctx *x, const struct ex_step *s, const char *side)
{
	return ex_slots_check_range(x, s, side, x->buf.len);
}

int ex_slots_check_range(struct ex_ctx *x, const struct ex_step *s, const char *side, uint64_t end)
{
	const uint64_t used = ex_slots(x) * s->size;
	uint64_t rest = end - used, t;
	uint8_t *tmp = malloc(s->size), probe[TAIL_PROBE];
	int rc = 0;

	if (tmp == NULL)
		return ex_fail(x, "out of memory");
	for (t = 0; t < ex_slots(x) && rc == 0; t++) {
		char what[96];

		snprintf(what, sizeof(what), "%s slot %llu", side, (unsigned long long)t);
		rc = ex_buf_read(x, &x->buf, t * s->size, tmp, s->size);
		if (rc == 0)
			rc = ex_pattern_check(x, tmp, s->size, ex_pattern_id(s->row, (uint32_t)t), what);
	}
	free(tmp);
	if (rc != 0 || rest == 0)
		return rc;
	rest = rest < sizeof(probe) ? rest : sizeof(probe);
	if (ex_buf_read(x, &x->buf, used, probe, rest) != 0)
		return -1;
	for (uint64_t i = 0; i < rest; i++)
		if (probe[i] != 0)
			return ex_fail(x, "%s: byte %llu past the last slot was written (0x%02x)", side,
				       (unsigned long long)(used + i), probe[i]);
	return 0;
}

int ex_results_collect(struct ex_ctx *x, uint64_t n, uint32_t per_thread, const char *op, uint64_t *done)
{
	struct ex_thread_result *res = calloc(n, sizeof(*res));
	uint64_t t;
	int rc = 0;

	*done = 0;
	if (res == NULL)
		return ex_fail(x, "out of memory");
	if (ex_buf_read(x, &x->aux, 0, res, n * sizeof(*res)) != 0) {
		free(res);
		return -1;
	}
	for (t = 0; t < n && rc == 0; t++) {
		if (res[t].rc != 0)
			rc = ex_fail(x, "thread %llu: %s %u of %u failed: %s", (unsigned long long)t, op,
				     res[t].done + 1, per_thread, ex_dev_error_str(res[t].rc));
		*done += res[t].done;
	}
	if (rc == 0 && *done != x->cfg.iters)
		rc = ex_fail(x, "%llu of %u %ss completed", (unsigned long long)*done, x->cfg.iters, op);
	free(res);
	return rc;
}

int ex_slots_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r, enum ex_op_kind kind,
		 ex_host_fn host_fn, ex_cuda_launch_fn launch)
{
	const uint64_t n = ex_slots(x);
	struct ex_slot_args a;
	uint64_t done = 0;

	if (ex_buf_fill(x, &x->aux, 0, 0, x->aux.len) != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp = x->dqp;
	a.local = ex_laddr(x, 0);
	a.remote = ex_raddr(x, 0);
	a.size = s->size;
	a.msgs_per_thread = (uint32_t)(x->cfg.iters / n);
	a.kind = kind;
	a.scope = x->cfg.scope;
	a.sharing = ex_sharing(x, x->blocks, x->threads);
	a.res = (struct ex_thread_result *)x->aux.dev;
	if (ex_launch(x, x->blocks, x->threads, host_fn, launch, &a, &r->ns) != 0 ||
	    ex_results_collect(x, n, a.msgs_per_thread, kind == EX_OP_READ ? "get" : "put", &done) != 0)
		return -1;
	r->iters = done;
	r->threads = (uint32_t)n;
	return 0;
}
