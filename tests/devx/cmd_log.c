/* SPDX-License-Identifier: BSD-3-Clause */
#include "cmd_log.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prm/prm_cmd.h"
#include "prm/prm_destroy.h"

void cmd_log_init(struct cmd_log *log)
{
	memset(log, 0, sizeof(*log));
	pthread_mutex_init(&log->lock, NULL);
}

void cmd_log_clear(struct cmd_log *log)
{
	pthread_mutex_lock(&log->lock);
	for (size_t i = 0; i < log->n; i++)
		free(log->e[i].bytes);
	log->n = 0;
	pthread_mutex_unlock(&log->lock);
}

void cmd_log_fini(struct cmd_log *log)
{
	cmd_log_clear(log);
	free(log->e);
	log->e = NULL;
	log->cap = 0;
	pthread_mutex_destroy(&log->lock);
}

void cmd_log_add(struct cmd_log *log, enum cmd_log_kind kind, const void *bytes, size_t len, uint64_t arg0,
		 uint64_t arg1)
{
	struct cmd_log_entry *e;

	pthread_mutex_lock(&log->lock);
	if (log->n == log->cap) {
		size_t cap = log->cap == 0 ? 64 : log->cap * 2;
		struct cmd_log_entry *grown = realloc(log->e, cap * sizeof(*grown));

		assert_non_null(grown);
		log->e = grown;
		log->cap = cap;
	}
	e = &log->e[log->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->arg0 = arg0;
	e->arg1 = arg1;
	if (bytes != NULL && len > 0) {
		e->bytes = malloc(len);
		assert_non_null(e->bytes);
		memcpy(e->bytes, bytes, len);
		e->len = len;
	}
	pthread_mutex_unlock(&log->lock);
}

uint16_t cmd_log_opcode(const struct cmd_log_entry *e)
{
	if (e->bytes == NULL || e->len < 2)
		return 0;
	return (uint16_t)(e->bytes[0] << 8 | e->bytes[1]);
}

size_t cmd_log_count(const struct cmd_log *log, enum cmd_log_kind kind, uint16_t opcode)
{
	size_t n = 0;

	for (size_t i = 0; i < log->n; i++)
		if (log->e[i].kind == kind && (opcode == 0 || cmd_log_opcode(&log->e[i]) == opcode))
			n++;
	return n;
}

const char *cmd_log_kind_name(enum cmd_log_kind kind)
{
	static const char *const names[] = {
		[CMD_GENERAL] = "GENERAL",   [CMD_CREATE] = "CREATE",       [CMD_MODIFY] = "MODIFY",
		[CMD_QUERY] = "QUERY",       [CMD_DESTROY] = "DESTROY",     [CMD_PD_ALLOC] = "PD_ALLOC",
		[CMD_PD_FREE] = "PD_FREE",   [CMD_UMEM_REG] = "UMEM_REG",   [CMD_UMEM_DEREG] = "UMEM_DEREG",
		[CMD_UAR_ALLOC] = "UAR_ALLOC", [CMD_UAR_FREE] = "UAR_FREE", [CMD_MR_REG] = "MR_REG",
		[CMD_MR_DEREG] = "MR_DEREG", [CMD_RESOLVE] = "RESOLVE", [CMD_RESULT] = "RESULT",
		[CMD_RX_ROOT] = "RX_ROOT",
	};

	return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static void describe(const struct cmd_log_entry *e, char *buf, size_t len)
{
	bool cmd = e->kind <= CMD_QUERY && e->bytes != NULL;

	snprintf(buf, len, "%s %s (%zu bytes) arg0 0x%llx arg1 0x%llx", cmd_log_kind_name(e->kind),
		 cmd ? prm_cmd_opcode_name(cmd_log_opcode(e)) : "-", e->len, (unsigned long long)e->arg0,
		 (unsigned long long)e->arg1);
}

void cmd_log_dump(const struct cmd_log *log, const char *title)
{
	char d[160];

	fprintf(stderr, "%s: %zu entries\n", title, log->n);
	for (size_t i = 0; i < log->n; i++) {
		describe(&log->e[i], d, sizeof(d));
		fprintf(stderr, "  %3zu %s\n", i, d);
	}
}

void cmd_log_assert_equal(const struct cmd_log *a, const struct cmd_log *b)
{
	char da[160], db[160];
	size_t n = a->n < b->n ? a->n : b->n;

	for (size_t i = 0; i < n; i++) {
		const struct cmd_log_entry *x = &a->e[i], *y = &b->e[i];

		describe(x, da, sizeof(da));
		describe(y, db, sizeof(db));
		if (x->kind != y->kind || x->len != y->len || x->arg0 != y->arg0 || x->arg1 != y->arg1) {
			cmd_log_dump(a, "first log");
			cmd_log_dump(b, "second log");
			fail_msg("entry %zu differs: %s vs %s", i, da, db);
		}
		for (size_t k = 0; k < x->len; k++)
			if (x->bytes[k] != y->bytes[k])
				fail_msg("entry %zu (%s) differs at byte 0x%zx: 0x%02x vs 0x%02x", i, da, k, x->bytes[k],
					 y->bytes[k]);
	}
	if (a->n != b->n) {
		cmd_log_dump(a, "first log");
		cmd_log_dump(b, "second log");
		fail_msg("the logs hold %zu and %zu entries (first %zu equal)", a->n, b->n, n);
	}
}

int cmd_log_created_id(const void *in, size_t inlen, const void *out, size_t outlen, uint32_t *id)
{
	return prm_created_obj_id(in, inlen, out, outlen, id) == DOCA_SUCCESS ? 0 : -1;
}

static void copy_kept(const struct cmd_log *from, struct cmd_log *to, uint32_t skip)
{
	for (size_t i = 0; i < from->n; i++) {
		const struct cmd_log_entry *e = &from->e[i];

		if ((skip & (1u << e->kind)) == 0)
			cmd_log_add(to, e->kind, e->bytes, e->len, e->arg0, e->arg1);
	}
}

void cmd_log_assert_equal_skipping(const struct cmd_log *a, const struct cmd_log *b, uint32_t skip)
{
	struct cmd_log ka, kb;

	cmd_log_init(&ka);
	cmd_log_init(&kb);
	copy_kept(a, &ka, skip);
	copy_kept(b, &kb, skip);
	cmd_log_assert_equal(&ka, &kb);
	cmd_log_fini(&ka);
	cmd_log_fini(&kb);
}
