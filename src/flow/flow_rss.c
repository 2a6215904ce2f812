/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSS forwarding: fwd.rss (queue ids, outer hash fields, hash function) -> one TIR per port and
 * distinct request, shared by every pipe and entry that asks for it and destroyed with the last
 * of them. Several queues: CREATE_RQT over their RQ numbers (padded to a power of two by
 * repeating the list, as mlx5 drivers do) and an indirect CREATE_TIR with Toeplitz hashing; one
 * queue: a direct TIR. Queue ids are those of started receive queues
 * (doca_eth_rxq_apply_queue_id(), looked up with ogda_eth_rxq_find_rqn()).
 */
#include "flow/flow_priv.h"

#include "core/log.h"
#include "doca_core/core_priv.h"
#include "eth/eth_queue_ids.h"

#include <stdlib.h>
#include <string.h>

#define V4_BITS (DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV4_SRC | DOCA_FLOW_RSS_IPV4_DST)
#define V6_BITS (DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_IPV6_SRC | DOCA_FLOW_RSS_IPV6_DST)
#define UDP_BITS (DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_UDP_SRC | DOCA_FLOW_RSS_UDP_DST)
#define TCP_BITS (DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_TCP_SRC | DOCA_FLOW_RSS_TCP_DST)
#define KNOWN_BITS (V4_BITS | V6_BITS | UDP_BITS | TCP_BITS)

doca_error_t flow_rss_key_from_cfg(const struct doca_flow_resource_rss_cfg *rss, struct flow_rss_key *key,
				   const char *who)
{
	uint32_t f = rss->outer_flags;
	int i;

	memset(key, 0, sizeof(*key));
	if (rss->queues_array == NULL || rss->nr_queues < 1 || rss->nr_queues > (int)FLOW_RSS_QUEUES_MAX) {
		OGDA_LOG_ERR("%s: RSS needs 1 .. %u queue ids in rss.queues_array (got %d%s)", who, FLOW_RSS_QUEUES_MAX,
			     rss->nr_queues, rss->queues_array == NULL ? ", queues_array NULL" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rss->inner_flags != 0) {
		OGDA_LOG_ERR("%s: RSS on inner headers (rss.inner_flags 0x%x) is not supported", who, rss->inner_flags);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (rss->rss_hash_func != DOCA_FLOW_RSS_HASH_FUNCTION_TOEPLITZ &&
	    rss->rss_hash_func != DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ) {
		OGDA_LOG_ERR("%s: rss.rss_hash_func %d is not a hash function", who, (int)rss->rss_hash_func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((f & ~(uint32_t)KNOWN_BITS) != 0) {
		OGDA_LOG_ERR("%s: RSS fields 0x%x are not supported (IPv4/IPv6 addresses, TCP/UDP ports)", who,
			     f & ~(uint32_t)KNOWN_BITS);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((f & V4_BITS) != 0 && (f & V6_BITS) != 0) {
		OGDA_LOG_ERR("%s: RSS over IPv4 and IPv6 fields at once is not supported (the NIC hashes one L3 type "
			     "per TIR: use one pipe per family)", who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((f & UDP_BITS) != 0 && (f & TCP_BITS) != 0) {
		OGDA_LOG_ERR("%s: RSS over UDP and TCP ports at once is not supported (one L4 type per TIR)", who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((f & (UDP_BITS | TCP_BITS)) != 0 && (f & (V4_BITS | V6_BITS)) == 0) {
		OGDA_LOG_ERR("%s: RSS over ports needs an L3 type too (DOCA_FLOW_RSS_IPV4 or _IPV6, or one address)",
			     who);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	for (i = 0; i < rss->nr_queues; i++)
		key->queues[i] = rss->queues_array[i];
	key->nr_queues = (uint16_t)rss->nr_queues;
	if (key->nr_queues == 1)
		return DOCA_SUCCESS; /* a direct TIR: nothing to hash */
	key->l3 = (f & V4_BITS) != 0 ? 4 : (f & V6_BITS) != 0 ? 6 : 0;
	key->l4 = (f & UDP_BITS) != 0 ? DOCA_FLOW_PROTO_UDP : (f & TCP_BITS) != 0 ? DOCA_FLOW_PROTO_TCP : 0;
	if ((f & (DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_IPV4_SRC | DOCA_FLOW_RSS_IPV6_SRC)) != 0)
		key->fields |= FLOW_HASH_SRC_IP;
	if ((f & (DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_IPV4_DST | DOCA_FLOW_RSS_IPV6_DST)) != 0)
		key->fields |= FLOW_HASH_DST_IP;
	if ((f & (DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_UDP_SRC | DOCA_FLOW_RSS_TCP_SRC)) != 0)
		key->fields |= FLOW_HASH_L4_SPORT;
	if ((f & (DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_UDP_DST | DOCA_FLOW_RSS_TCP_DST)) != 0)
		key->fields |= FLOW_HASH_L4_DPORT;
	key->symmetric = rss->rss_hash_func == DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ;
	return DOCA_SUCCESS;
}

static doca_error_t create(struct doca_flow_port *port, struct flow_rss *r, const char *who)
{
	uint32_t rqn[FLOW_RSS_QUEUES_MAX], list[FLOW_RSS_QUEUES_MAX];
	uint32_t i, n = r->key.nr_queues, size = 1;
	doca_error_t err;

	for (i = 0; i < n; i++) {
		err = ogda_eth_rxq_find_rqn(port->dev, r->key.queues[i], &rqn[i]);
		if (err != DOCA_SUCCESS) {
			OGDA_LOG_ERR("%s: RSS queue id %u: no started receive queue of %s has it "
				     "(doca_eth_rxq_apply_queue_id() after doca_ctx_start())", who,
				     (unsigned)r->key.queues[i], core_dev_name(port->dev));
			return err == DOCA_ERROR_INVALID_VALUE ? err : DOCA_ERROR_NOT_FOUND;
		}
	}
	if (n == 1)
		return flow_hw_tir_create(port, &r->key, rqn[0], 0, &r->tir, &r->tirn);
	while (size < n)
		size <<= 1;
	for (i = 0; i < size; i++)
		list[i] = rqn[i % n];
	err = flow_hw_rqt_create(port, list, size, &r->rqt, &r->rqtn);
	if (err == DOCA_SUCCESS)
		err = flow_hw_tir_create(port, &r->key, 0, r->rqtn, &r->tir, &r->tirn);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, &r->rqt, "RQT");
	return err;
}

doca_error_t flow_rss_get(struct doca_flow_port *port, const struct flow_rss_key *key, struct flow_rss **rss,
			  const char *who)
{
	struct flow_rss *r;
	doca_error_t err;

	for (r = port->rss; r != NULL; r = r->next) {
		if (memcmp(&r->key, key, sizeof(*key)) == 0) {
			r->refs++;
			*rss = r;
			return DOCA_SUCCESS;
		}
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		OGDA_LOG_ERR("%s: out of memory", who);
		return DOCA_ERROR_NO_MEMORY;
	}
	r->key = *key;
	err = create(port, r, who);
	if (err != DOCA_SUCCESS) {
		free(r);
		return err;
	}
	r->refs = 1;
	r->next = port->rss;
	port->rss = r;
	*rss = r;
	OGDA_LOG_DBG("%s: RSS over %u queue(s): TIR 0x%x, RQT 0x%x", who, (unsigned)key->nr_queues, r->tirn, r->rqtn);
	return DOCA_SUCCESS;
}

void flow_rss_put(struct doca_flow_port *port, struct flow_rss *rss)
{
	struct flow_rss **pp;

	if (rss == NULL || --rss->refs > 0)
		return;
	flow_hw_destroy(port, &rss->tir, "TIR");
	flow_hw_destroy(port, &rss->rqt, "RQT");
	for (pp = &port->rss; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == rss) {
			*pp = rss->next;
			break;
		}
	}
	free(rss);
}
