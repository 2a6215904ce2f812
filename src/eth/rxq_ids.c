/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue ids of started receive queues (eth_queue_ids.h): a small process-wide list, looked up
 * when DOCA Flow builds an RSS forward. Few queues exist and lookups happen at rule creation,
 * so a locked array is enough.
 */
#include "eth/eth_queue_ids.h"

#include "core/log.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define IDS_MAX 1024u

struct id_entry {
	const struct doca_dev *dev;
	uint16_t queue_id;
	uint32_t rqn;
	bool used;
};

static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct id_entry ids[IDS_MAX];

static struct id_entry *find_locked(const struct doca_dev *dev, uint16_t queue_id)
{
	size_t i;

	for (i = 0; i < IDS_MAX; i++)
		if (ids[i].used && ids[i].dev == dev && ids[i].queue_id == queue_id)
			return &ids[i];
	return NULL;
}

doca_error_t ogda_eth_rxq_find_rqn(const struct doca_dev *dev, uint16_t queue_id, uint32_t *rqn)
{
	struct id_entry *e;

	if (dev == NULL || rqn == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&ids_lock);
	e = find_locked(dev, queue_id);
	if (e != NULL)
		*rqn = e->rqn;
	pthread_mutex_unlock(&ids_lock);
	return e != NULL ? DOCA_SUCCESS : DOCA_ERROR_NOT_FOUND;
}

doca_error_t ogda_eth_rxq_ids_add(const struct doca_dev *dev, uint16_t queue_id, uint32_t rqn)
{
	doca_error_t err = DOCA_ERROR_FULL;
	size_t i;

	if (dev == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&ids_lock);
	if (find_locked(dev, queue_id) != NULL) {
		err = DOCA_ERROR_ALREADY_EXIST;
	} else {
		for (i = 0; i < IDS_MAX; i++) {
			if (!ids[i].used) {
				ids[i] = (struct id_entry){.dev = dev, .queue_id = queue_id, .rqn = rqn, .used = true};
				err = DOCA_SUCCESS;
				break;
			}
		}
	}
	pthread_mutex_unlock(&ids_lock);
	if (err == DOCA_ERROR_ALREADY_EXIST)
		OGDA_LOG_ERR("eth_rxq: queue id %u is taken by another started queue of this device", (unsigned)queue_id);
	else if (err == DOCA_ERROR_FULL)
		OGDA_LOG_ERR("eth_rxq: more than %u started receive queues have ids", IDS_MAX);
	return err;
}

void ogda_eth_rxq_ids_remove(const struct doca_dev *dev, uint16_t queue_id)
{
	struct id_entry *e;

	pthread_mutex_lock(&ids_lock);
	e = find_locked(dev, queue_id);
	if (e != NULL)
		e->used = false;
	pthread_mutex_unlock(&ids_lock);
}
