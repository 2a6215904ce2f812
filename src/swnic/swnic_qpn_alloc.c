/* SPDX-License-Identifier: BSD-3-Clause */
#include "swnic/swnic_qpn_alloc.h"

#include "core/log.h"
#include "swnic/swnic_random.h"

#include <stdlib.h>
#include <string.h>

#define QPN_SPACE (SWNIC_QPN_MULTICAST - SWNIC_QPN_MIN) /* QPNs that may be handed out */

void swnic_qpn_table_init(struct swnic_qpn_table *t, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	/* At most half the QPN space: a random draw then finds a free QPN in 2 tries on average. */
	t->max = max < QPN_SPACE / 2 ? max : QPN_SPACE / 2;
}

void swnic_qpn_table_fini(struct swnic_qpn_table *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* Home slot of qpn: a multiplicative hash, so consecutive QPNs do not cluster. */
static uint32_t home(const struct swnic_qpn_table *t, uint32_t qpn)
{
	return (uint32_t)(((uint64_t)qpn * 0x9e3779b1u) >> 7) & (t->cap - 1u);
}

static uint32_t find(const struct swnic_qpn_table *t, uint32_t qpn)
{
	uint32_t i = home(t, qpn);

	while (t->slots[i].qpn != 0 && t->slots[i].qpn != qpn)
		i = (i + 1u) & (t->cap - 1u);
	return i;
}

static doca_error_t grow(struct swnic_qpn_table *t)
{
	struct swnic_qpn_table n = *t;
	uint32_t i;

	n.cap = t->cap ? t->cap * 2u : 64u;
	n.slots = calloc(n.cap, sizeof(*n.slots));
	if (n.slots == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (i = 0; i < t->cap; i++) {
		if (t->slots[i].qpn != 0)
			n.slots[find(&n, t->slots[i].qpn)] = t->slots[i];
	}
	free(t->slots);
	*t = n;
	return DOCA_SUCCESS;
}

doca_error_t swnic_qpn_table_insert(struct swnic_qpn_table *t, void *obj, uint32_t *qpn)
{
	uint32_t q, i;

	if (t == NULL || obj == NULL || qpn == NULL) {
		OGDA_LOG_ERR("NULL argument");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->count >= t->max)
		return DOCA_ERROR_FULL;
	if ((t->count + 1u) * 2u > t->cap) {
		doca_error_t err = grow(t);

		if (err != DOCA_SUCCESS)
			return err;
	}
	/* At most half the space is taken, so this ends after 2 draws on average. */
	do {
		q = SWNIC_QPN_MIN + swnic_random_u32() % QPN_SPACE;
		i = find(t, q);
	} while (t->slots[i].qpn != 0);
	t->slots[i].qpn = q;
	t->slots[i].obj = obj;
	t->count++;
	*qpn = q;
	return DOCA_SUCCESS;
}

void *swnic_qpn_table_lookup(const struct swnic_qpn_table *t, uint32_t qpn)
{
	uint32_t i;

	if (t->cap == 0 || qpn == 0)
		return NULL;
	i = find(t, qpn);
	return t->slots[i].qpn == qpn ? t->slots[i].obj : NULL;
}

void *swnic_qpn_table_remove(struct swnic_qpn_table *t, uint32_t qpn)
{
	uint32_t i, j;
	void *obj;

	if (t->cap == 0 || qpn == 0)
		return NULL;
	i = find(t, qpn);
	if (t->slots[i].qpn != qpn)
		return NULL;
	obj = t->slots[i].obj;
	/* Backward shift: move later entries of the run into the hole when their home allows. */
	for (j = (i + 1u) & (t->cap - 1u); t->slots[j].qpn != 0; j = (j + 1u) & (t->cap - 1u)) {
		uint32_t h = home(t, t->slots[j].qpn);

		/* j's entry may move to i when its home is not in the cyclic range (i, j]. */
		if (((j - h) & (t->cap - 1u)) >= ((j - i) & (t->cap - 1u))) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].qpn = 0;
	t->slots[i].obj = NULL;
	t->count--;
	return obj;
}
