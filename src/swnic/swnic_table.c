/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_table.h"

#include <stdlib.h>
#include <string.h>

void swnic_table_init(struct swnic_table *t, uint32_t base, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->base = base;
	t->max = max;
}

void swnic_table_fini(struct swnic_table *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

doca_error_t swnic_table_insert(struct swnic_table *t, void *obj, uint32_t *id)
{
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		if (t->slots[i] == NULL)
			break;
	}
	if (i == t->cap) {
		uint32_t ncap = t->cap ? t->cap * 2 : 16;
		void **n;

		if (i >= t->max)
			return DOCA_ERROR_FULL;
		if (ncap > t->max)
			ncap = t->max;
		n = realloc(t->slots, (size_t)ncap * sizeof(*n));
		if (n == NULL)
			return DOCA_ERROR_NO_MEMORY;
		memset(n + t->cap, 0, (size_t)(ncap - t->cap) * sizeof(*n));
		t->slots = n;
		t->cap = ncap;
	}
	t->slots[i] = obj;
	t->count++;
	*id = t->base + i;
	return DOCA_SUCCESS;
}

void *swnic_table_lookup(const struct swnic_table *t, uint32_t id)
{
	uint32_t i = id - t->base;

	if (id < t->base || i >= t->cap)
		return NULL;
	return t->slots[i];
}

void *swnic_table_remove(struct swnic_table *t, uint32_t id)
{
	void *obj = swnic_table_lookup(t, id);

	if (obj != NULL) {
		t->slots[id - t->base] = NULL;
		t->count--;
	}
	return obj;
}
