/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Id-indexed object table: ids are base + slot, slots are reused lowest-first, lookups are
 * O(1). Not locked: the owner (struct swnic) guards every table with its rwlock.
 */
#ifndef OGDA_SWNIC_TABLE_H_
#define OGDA_SWNIC_TABLE_H_

#include "doca_error.h"

#include <stdint.h>

struct swnic_table {
	void **slots;
	uint32_t cap;       /* slots allocated */
	uint32_t max;       /* most slots ever allowed (the model's log_max_* limit) */
	uint32_t base;      /* id of slot 0 */
	uint32_t count;     /* slots in use */
};

void swnic_table_init(struct swnic_table *t, uint32_t base, uint32_t max);
void swnic_table_fini(struct swnic_table *t);
/* Stores obj in the lowest free slot; DOCA_ERROR_FULL at t->max, DOCA_ERROR_NO_MEMORY on ENOMEM. */
doca_error_t swnic_table_insert(struct swnic_table *t, void *obj, uint32_t *id);
/* NULL when id is not in use. */
void *swnic_table_lookup(const struct swnic_table *t, uint32_t id);
/* Returns the object that was stored, or NULL when id was not in use. */
void *swnic_table_remove(struct swnic_table *t, uint32_t id);

#endif /* OGDA_SWNIC_TABLE_H_ */
