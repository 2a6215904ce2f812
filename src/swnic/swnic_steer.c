/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive steering: the state, and the walk of a frame through the flow tables (swnic_steer.h). */
#include "swnic/swnic_steer.h"

#include "core/log.h"

#include <stdlib.h>
#include <string.h>

/* Number spaces of the steering objects (the model's log_max_* limits). */
#define RQN_BASE 0x800u
#define RQ_MAX (1u << 16)
#define RQTN_BASE 0x40u
#define RQT_MAX (1u << 12)
#define TIRN_BASE 0x80u
#define TIR_MAX (1u << 14)
#define FT_BASE 0x1u
#define FT_MAX (1u << 12)
#define FG_BASE 0x1u
#define FG_MAX (1u << 16)
#define COUNTER_BASE 0x10u
#define COUNTER_MAX (1u << 16)

doca_error_t swnic_steer_create(struct swnic *nic, struct swnic_steer **out)
{
	struct swnic_steer *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		OGDA_LOG_ERR("%s: no memory for the receive steering state", nic->name);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_rwlock_init(&s->lock, NULL);
	swnic_table_init(&s->rqs, RQN_BASE, RQ_MAX);
	swnic_table_init(&s->rqts, RQTN_BASE, RQT_MAX);
	swnic_table_init(&s->tirs, TIRN_BASE, TIR_MAX);
	swnic_table_init(&s->fts, FT_BASE, FT_MAX);
	swnic_table_init(&s->fgs, FG_BASE, FG_MAX);
	swnic_table_init(&s->counters, COUNTER_BASE, COUNTER_MAX);
	*out = s;
	return DOCA_SUCCESS;
}

/* Frees what a table still holds (objects the user never destroyed); their memory only. */
static void table_free_all(struct swnic_table *t, void (*release)(void *))
{
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		if (t->slots[i] != NULL) {
			if (release != NULL)
				release(t->slots[i]);
			free(t->slots[i]);
			t->slots[i] = NULL;
		}
	}
	swnic_table_fini(t);
}

static void ft_release(void *p)
{
	free(((struct swnic_ft *)p)->fte);
}

static void rq_release(void *p)
{
	pthread_mutex_destroy(&((struct swnic_eth_rq *)p)->rq.lock);
}

void swnic_steer_destroy(struct swnic_steer *s)
{
	if (s == NULL)
		return;
	table_free_all(&s->fts, ft_release);
	table_free_all(&s->fgs, NULL);
	table_free_all(&s->tirs, NULL);
	table_free_all(&s->rqts, NULL);
	table_free_all(&s->rqs, rq_release);
	table_free_all(&s->counters, NULL);
	pthread_rwlock_destroy(&s->lock);
	free(s);
}

bool swnic_steer_match(const uint8_t pkt[SWNIC_MATCH_BYTES], const uint8_t mask[SWNIC_MATCH_BYTES],
		       const uint8_t value[SWNIC_MATCH_BYTES])
{
	uint32_t i;

	for (i = 0; i < SWNIC_MATCH_BYTES; i++)
		if (((pkt[i] ^ value[i]) & mask[i]) != 0)
			return false;
	return true;
}

/* The first entry of ft, in flow index order, whose group's criteria match the frame. */
static struct swnic_fte *ft_lookup(const struct swnic_ft *ft, const uint8_t img[SWNIC_MATCH_BYTES])
{
	uint32_t i, n = 1u << ft->log_size;

	for (i = 0; i < n; i++) {
		struct swnic_fte *e = &ft->fte[i];

		if (e->used && swnic_steer_match(img, e->fg->mask, e->value))
			return e;
	}
	return NULL;
}

/* Places the frame in the RQ a TIR picks; true when placed. */
static bool tir_deliver(const struct swnic_tir *tir, const uint8_t *frame, uint32_t len, const struct swnic_pkt_info *pi,
			uint32_t flow_tag)
{
	struct swnic_rx_meta m = {.pi = pi, .flow_tag = flow_tag, .rss_hash = 0};
	struct swnic_eth_rq *rq;

	if (tir->disp == PRM_TIR_DISP_DIRECT) {
		rq = tir->rq;
	} else {
		if (tir->rqt == NULL || tir->rqt->n == 0)
			return false;
		if (tir->toeplitz)
			m.rss_hash = swnic_rss_hash(pi, tir->key, tir->l3_type, tir->l4_type, tir->fields, tir->symmetric);
		rq = tir->rqt->rq[m.rss_hash % tir->rqt->n];
	}
	return rq != NULL && swnic_eth_rq_receive(rq, frame, len, &m);
}

void swnic_steer_rx(struct swnic *nic, const uint8_t *frame, uint32_t len)
{
	struct swnic_steer *s = nic->steer;
	struct swnic_pkt_info pi;
	uint8_t img[SWNIC_MATCH_BYTES];
	const struct swnic_ft *ft;
	uint32_t depth;

	if (s == NULL)
		return;
	atomic_fetch_add(&s->rx_frames, 1);
	swnic_pkt_parse(frame, len, &pi);
	swnic_pkt_match_image(&pi, img);
	pthread_rwlock_rdlock(&s->lock);
	ft = s->root;
	for (depth = 0; ft != NULL && depth < SWNIC_FT_MAX_DEPTH; depth++) {
		const struct swnic_ft *next = NULL;
		struct swnic_fte *e = ft_lookup(ft, img);
		uint32_t i;

		if (e == NULL) {
			ft = ft->miss_action == PRM_FLOW_TABLE_MISS_GOTO_TBL ? ft->miss : NULL;
			continue;
		}
		if ((e->action & PRM_FLOW_ACTION_COUNT) && e->counter != NULL) {
			atomic_fetch_add(&e->counter->packets, 1);
			atomic_fetch_add(&e->counter->bytes, len);
		}
		if (e->action & PRM_FLOW_ACTION_DROP) {
			atomic_fetch_add(&s->rx_dropped, 1);
			pthread_rwlock_unlock(&s->lock);
			return;
		}
		if (e->action & PRM_FLOW_ACTION_FWD_DEST) {
			for (i = 0; i < e->ndest; i++) {
				if (e->dest[i].kind == PRM_FLOW_DEST_TIR) {
					if (tir_deliver(e->dest[i].tir, frame, len, &pi, e->flow_tag))
						atomic_fetch_add(&s->rx_delivered, 1);
					else
						atomic_fetch_add(&s->rx_queue_drops, 1);
				} else if (next == NULL) {
					next = e->dest[i].ft;
				}
			}
		}
		if (next == NULL) {
			pthread_rwlock_unlock(&s->lock);
			return;
		}
		ft = next;
	}
	atomic_fetch_add(&s->rx_missed, 1);
	pthread_rwlock_unlock(&s->lock);
}

void swnic_steer_get_stats(struct swnic *nic, struct swnic_steer_stats *st)
{
	struct swnic_steer *s;

	if (nic == NULL || st == NULL)
		return;
	memset(st, 0, sizeof(*st));
	s = nic->steer;
	if (s == NULL)
		return;
	st->rx_frames = atomic_load(&s->rx_frames);
	st->rx_delivered = atomic_load(&s->rx_delivered);
	st->rx_missed = atomic_load(&s->rx_missed);
	st->rx_dropped = atomic_load(&s->rx_dropped);
	st->rx_queue_drops = atomic_load(&s->rx_queue_drops);
	st->rx_errors = atomic_load(&s->rx_errors);
}
