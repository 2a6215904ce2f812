/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CONTROL pipes: the NIC tries a table's groups in flow index order, so an entry's flow index
 * is its priority rank (lower priority value first; equal priorities in the order they were
 * added). A new entry takes a free index between its neighbours in that order; when there is
 * none, the entries on one side move by one index (each move writes the new FTE before
 * deleting the old one, so the entry never stops matching) until a gap opens.
 */
#include "flow/flow_priv.h"

#include "core/log.h"

#include <string.h>

/* The entry's rank among pipe->order: after every entry of lower or equal priority. */
static uint32_t rank_of(const struct doca_flow_pipe *p, const struct doca_flow_pipe_entry *e)
{
	uint32_t k = 0;

	while (k < p->nr_live && p->order[k]->priority <= e->priority)
		k++;
	return k;
}

/* Opens a free index between order[k-1] and order[k] by moving entries; *index is it. */
static doca_error_t make_room(struct doca_flow_pipe *p, uint32_t k, uint32_t *index)
{
	uint32_t n = p->nr_live, j, i;
	doca_error_t err;

	/* Right: the first gap at or after k; entries k .. j move up by one, the last first. */
	for (j = k; j < n; j++) {
		uint32_t limit = j + 1 < n ? p->order[j + 1]->index : p->slots;

		if (p->order[j]->index + 1 < limit)
			break;
	}
	if (j < n) {
		*index = p->order[k]->index;
		for (i = j + 1; i-- > k;) {
			err = flow_entry_move(p->order[i], p->order[i]->index + 1);
			if (err != DOCA_SUCCESS)
				return err;
		}
		return DOCA_SUCCESS;
	}
	/* Left: the last gap before k; entries j .. k-1 move down by one, the first first. */
	for (j = k; j-- > 0;) {
		uint32_t floor = j > 0 ? p->order[j - 1]->index + 1 : 0;

		if (p->order[j]->index > floor)
			break;
		if (j == 0) {
			j = n; /* no gap */
			break;
		}
	}
	if (k == 0 || j >= n) {
		OGDA_LOG_ERR("pipe \"%s\": no free flow index left for the entry", p->name);
		return DOCA_ERROR_FULL;
	}
	*index = p->order[k - 1]->index;
	for (i = j; i < k; i++) {
		err = flow_entry_move(p->order[i], p->order[i]->index - 1);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

doca_error_t flow_order_insert(struct doca_flow_pipe *p, struct doca_flow_pipe_entry *e)
{
	uint32_t n = p->nr_live, k = rank_of(p, e), index;
	uint32_t prev, next;
	doca_error_t err;

	/* prev and next are one past the neighbours' indices (0: none before). */
	prev = k > 0 ? p->order[k - 1]->index + 1 : 0;
	next = k < n ? p->order[k]->index : p->slots;
	if (next > prev)
		index = k == n ? prev : prev + (next - prev) / 2; /* append densely, insert in the middle */
	else {
		err = make_room(p, k, &index);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = flow_entry_plug(e, index);
	if (err != DOCA_SUCCESS)
		return err;
	memmove(&p->order[k + 1], &p->order[k], (n - k) * sizeof(p->order[0]));
	p->order[k] = e;
	return DOCA_SUCCESS;
}

void flow_order_remove(struct doca_flow_pipe *p, struct doca_flow_pipe_entry *e)
{
	uint32_t k;

	for (k = 0; k < p->nr_live; k++) {
		if (p->order[k] == e) {
			memmove(&p->order[k], &p->order[k + 1], (p->nr_live - k - 1) * sizeof(p->order[0]));
			return;
		}
	}
}
