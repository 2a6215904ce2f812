/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QP table: QPNs drawn at random from the 24-bit space, so that a peer which reaches
 * the fabric cannot name a live QP by counting up from a known base. A QPN is never one
 * in use, never below SWNIC_QPN_MIN (0 and 1 are the special QPs of IB, and the model's
 * other object numbers live down there) and never 0xffffff (the multicast QPN). Lookups
 * are O(1) on average (open addressing, linear probing, deletion by backward shift, load
 * kept at or under one half). Not locked: the owner (struct swnic) guards it with its
 * rwlock.
 */
#ifndef OGDA_SWNIC_QPN_ALLOC_H_
#define OGDA_SWNIC_QPN_ALLOC_H_

#include "doca_error.h"

#include <stdint.h>

#define SWNIC_QPN_MIN 0x200u       /* smallest QPN handed out */
#define SWNIC_QPN_MULTICAST 0xffffffu

struct swnic_qpn_slot {
	uint32_t qpn;                  /* 0: empty */
	void *obj;
};

/** QPN -> QP object; iterate over slots[0 .. cap) and skip those with qpn 0. */
struct swnic_qpn_table {
	struct swnic_qpn_slot *slots;
	uint32_t cap;                  /* power of two, 0 before the first insert */
	uint32_t max;                  /* most entries ever allowed (the model's log_max_qp) */
	uint32_t count;                /* entries in use */
};

/** @brief An empty table of at most max entries (no allocation yet). */
void swnic_qpn_table_init(struct swnic_qpn_table *t, uint32_t max);
/** @brief Frees the slots (not the objects). */
void swnic_qpn_table_fini(struct swnic_qpn_table *t);
/**
 * @brief Stores obj under a fresh random QPN.
 * @return DOCA_SUCCESS, DOCA_ERROR_INVALID_VALUE (NULL argument), DOCA_ERROR_FULL at
 *         t->max entries, DOCA_ERROR_NO_MEMORY when the table cannot grow.
 */
doca_error_t swnic_qpn_table_insert(struct swnic_qpn_table *t, void *obj, uint32_t *qpn);
/** @brief The object stored under qpn, NULL when none is. */
void *swnic_qpn_table_lookup(const struct swnic_qpn_table *t, uint32_t qpn);
/** @brief Removes qpn; returns the object that was stored, or NULL when none was. */
void *swnic_qpn_table_remove(struct swnic_qpn_table *t, uint32_t qpn);

#endif /* OGDA_SWNIC_QPN_ALLOC_H_ */
