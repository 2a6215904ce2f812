/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared receive queues, as libmlx5 runs them: a LINKED_LIST RMP (DOCA Verbs CREATE_RMP on the
 * software NIC) whose WQEs start with a next segment. The free WQEs form a chain from head to
 * tail; ibv_post_srq_recv fills the WQE at head, moves head along the chain and publishes the
 * producer counter in the doorbell record; the NIC consumes WQEs along the same chain; a
 * completion names the WQE it consumed (wqe_counter = its index), which ibv_poll_cq maps back
 * to the caller's wr_id and links after tail. One WQE always stays out of use (head == tail is
 * "full"), so the NIC never follows a link that is being rewritten. max_wr is one less than
 * the ring.
 */
#include "rdmacore_front/front.h"

#include "core/bytes.h"
#include "core/log.h"
#include "opengda_mlx5.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SEG 16u
#define NEXT_INDEX_OFF 2u /* BE16 next_wqe_index in the next segment */

static uint8_t *wqe_at(const struct front_srq *s, uint32_t idx)
{
	return s->ring + (size_t)idx * s->stride;
}

static void set_next(struct front_srq *s, uint32_t idx, uint32_t next)
{
	ogda_store_be16(wqe_at(s, idx) + NEXT_INDEX_OFF, (uint16_t)next);
}

static uint32_t get_next(const struct front_srq *s, uint32_t idx)
{
	return ogda_load_be16(wqe_at(s, idx) + NEXT_INDEX_OFF) & (s->nwqe - 1u);
}

FRONT_EXPORT struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *init)
{
	struct doca_verbs_srq_init_attr *a = NULL;
	struct front_srq *s;
	doca_error_t err;

	if (pd == NULL || init == NULL || init->attr.max_wr == 0) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = doca_verbs_srq_init_attr_create(&a);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_srq_init_attr_set_srq_wr(a, init->attr.max_wr + 1); /* + the one kept free */
	if (err == DOCA_SUCCESS)
		err = doca_verbs_srq_init_attr_set_receive_max_sges(a, init->attr.max_sge > 0 ? init->attr.max_sge : 1);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_srq_init_attr_set_type(a, DOCA_VERBS_SRQ_TYPE_LINKED_LIST);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_srq_init_attr_set_pd(a, ((struct front_pd *)pd)->dpd);
	if (err == DOCA_SUCCESS)
		err = doca_verbs_srq_create(front_ctx(pd->context)->dctx, a, &s->dsrq);
	if (a != NULL)
		(void)doca_verbs_srq_init_attr_destroy(a);
	if (err == DOCA_SUCCESS) {
		s->nwqe = s->dsrq->nwqe;
		s->wrid = calloc(s->nwqe, sizeof(*s->wrid));
		if (s->wrid == NULL)
			err = DOCA_ERROR_NO_MEMORY;
	}
	if (err != DOCA_SUCCESS) {
		if (s->dsrq != NULL)
			(void)doca_verbs_srq_destroy(s->dsrq);
		free(s);
		errno = front_errno(err);
		return NULL;
	}
	s->ring = s->dsrq->ring;
	s->stride = s->dsrq->stride;
	s->dbr = s->dsrq->dbr;
	s->max_sge = s->dsrq->init.receive_max_sges;
	for (uint32_t i = 0; i < s->nwqe; i++)
		set_next(s, i, (i + 1u) & (s->nwqe - 1u));
	s->head = 0; /* the NIC starts at WQE 0 too (CREATE_RMP) */
	s->tail = s->nwqe - 1u;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->ibv.mutex, NULL);
	pthread_cond_init(&s->ibv.cond, NULL);
	s->ibv.context = pd->context;
	s->ibv.srq_context = init->srq_context;
	s->ibv.pd = pd;
	s->ibv.handle = s->dsrq->srqn;
	init->attr.max_wr = s->nwqe - 1u;
	init->attr.max_sge = s->max_sge;
	front_track(pd->context, &s->link, FRONT_SRQ, &s->ibv);
	return &s->ibv;
}

FRONT_EXPORT int ibv_destroy_srq(struct ibv_srq *srq)
{
	struct front_srq *s = (struct front_srq *)srq;
	doca_error_t err;

	if (s == NULL)
		return front_fail(EINVAL);
	err = doca_verbs_srq_destroy(s->dsrq);
	if (err != DOCA_SUCCESS)
		return front_fail(front_errno(err));
	front_untrack(srq->context, &s->link);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->ibv.mutex);
	pthread_cond_destroy(&s->ibv.cond);
	free(s->wrid);
	free(s);
	return 0;
}

/* Limits (srq_limit events) and resizing are not modelled. */
FRONT_EXPORT int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)
{
	if (srq == NULL || srq_attr == NULL)
		return front_fail(EINVAL);
	if (srq_attr_mask != 0) {
		OGDA_LOG_ERR("%s: ibv_modify_srq mask 0x%x: SRQ limits and resizing are not supported by the software "
			     "NIC front end",
			     srq->context->device->name, srq_attr_mask);
		return front_fail(EOPNOTSUPP);
	}
	return 0;
}

FRONT_EXPORT int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	const struct front_srq *s = (const struct front_srq *)srq;

	if (s == NULL || srq_attr == NULL)
		return front_fail(EINVAL);
	srq_attr->max_wr = s->nwqe - 1u;
	srq_attr->max_sge = s->max_sge;
	srq_attr->srq_limit = 0;
	return 0;
}

int front_get_srq_num_op(struct ibv_srq *srq, uint32_t *srq_num)
{
	if (srq == NULL || srq_num == NULL)
		return EINVAL;
	*srq_num = ((struct front_srq *)srq)->dsrq->srqn;
	return 0;
}

/* Fills WQE idx with wr's scatter list (INVALID_LKEY ends a short one). */
static void write_wqe(struct front_srq *s, uint32_t idx, const struct ibv_recv_wr *wr)
{
	uint8_t *seg = wqe_at(s, idx) + SEG;
	int i;

	for (i = 0; i < wr->num_sge; i++, seg += SEG) {
		ogda_store_be32(seg, wr->sg_list[i].length);
		ogda_store_be32(seg + 4, wr->sg_list[i].lkey);
		ogda_store_be64(seg + 8, wr->sg_list[i].addr);
	}
	if ((uint32_t)i < s->max_sge) {
		ogda_store_be32(seg, 0);
		ogda_store_be32(seg + 4, OPENGDA_MLX5_INVALID_LKEY);
		ogda_store_be64(seg + 8, 0);
	}
}

int front_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct front_srq *s = (struct front_srq *)srq;
	int ret = 0;

	if (s == NULL || bad_wr == NULL)
		return EINVAL;
	pthread_mutex_lock(&s->lock);
	for (; wr != NULL; wr = wr->next) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > s->max_sge || (wr->num_sge > 0 && wr->sg_list == NULL)) {
			ret = EINVAL;
			break;
		}
		if (s->head == s->tail) {
			ret = ENOMEM; /* full */
			break;
		}
		write_wqe(s, s->head, wr);
		s->wrid[s->head] = wr->wr_id;
		s->head = get_next(s, s->head);
		s->counter++;
	}
	if (ret != 0)
		*bad_wr = wr;
	/* WQEs before the counter: the NIC reads them once it sees it. */
	__atomic_store_n(&s->dbr[OPENGDA_MLX5_RCV_DBR], htobe32(s->counter), __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void front_srq_complete(struct front_srq *s, struct ibv_wc *wc)
{
	uint32_t idx = (uint32_t)wc->wr_id & (s->nwqe - 1u);

	pthread_mutex_lock(&s->lock);
	wc->wr_id = s->wrid[idx];
	set_next(s, s->tail, idx); /* the consumed WQE goes back at the end of the free chain */
	s->tail = idx;
	pthread_mutex_unlock(&s->lock);
}
