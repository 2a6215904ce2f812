/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_inventory (doca_buf_inventory.h): a fixed array of doca_buf descriptors and a free
 * list through them. Every descriptor is allocated at create, so taking a buffer never
 * allocates and a buffer given back (doca_buf_dec_refcount to 0, buf.c) can still be recognised
 * as free: a later dec_refcount on it answers BAD_STATE instead of corrupting the list. The free
 * list is locked: buffers may be taken and given back from several threads.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#include <pthread.h>
#include <stdlib.h>

struct doca_buf_inventory {
	pthread_mutex_t lock; /* guards free, nfree and every element's refcount / next while free */
	struct doca_buf *elems;
	uint32_t num;
	uint32_t nfree;
	struct doca_buf *free;
	bool started;
};

doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_create, (num_elements, inventory));
	struct doca_buf_inventory *inv;

	if (inventory == NULL || num_elements == 0 || num_elements > UINT32_MAX) {
		OGDA_LOG_ERR("inventory must not be NULL and num_elements must be 1..%u (got %zu)", UINT32_MAX,
			     num_elements);
		return DOCA_ERROR_INVALID_VALUE;
	}
	inv = calloc(1, sizeof(*inv));
	if (inv != NULL)
		inv->elems = calloc(num_elements, sizeof(*inv->elems));
	if (inv == NULL || inv->elems == NULL) {
		OGDA_LOG_ERR("out of memory for an inventory of %zu buffers", num_elements);
		free(inv);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&inv->lock, NULL);
	inv->num = (uint32_t)num_elements;
	inv->nfree = inv->num;
	/* Lowest first: buffers are handed out in address order, which keeps tests predictable. */
	for (uint32_t i = inv->num; i-- > 0;) {
		inv->elems[i].inv = inv;
		inv->elems[i].next = inv->free;
		inv->free = &inv->elems[i];
	}
	*inventory = inv;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_destroy, (inventory));
	uint32_t out;

	if (inventory == NULL) {
		OGDA_LOG_ERR("inventory must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&inventory->lock);
	out = inventory->num - inventory->nfree;
	pthread_mutex_unlock(&inventory->lock);
	if (out != 0) {
		OGDA_LOG_ERR("%u of the inventory's buffers are still in use: doca_buf_dec_refcount() them first", out);
		return DOCA_ERROR_IN_USE;
	}
	pthread_mutex_destroy(&inventory->lock);
	free(inventory->elems);
	free(inventory);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_start, (inventory));
	if (inventory == NULL) {
		OGDA_LOG_ERR("inventory must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inventory->started) {
		OGDA_LOG_ERR("the inventory is started already");
		return DOCA_ERROR_BAD_STATE;
	}
	inventory->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_stop, (inventory));
	if (inventory == NULL) {
		OGDA_LOG_ERR("inventory must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!inventory->started) {
		OGDA_LOG_ERR("the inventory is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	inventory->started = false;
	return DOCA_SUCCESS;
}

/* Whether [p, p + n) lies inside [base, base + len) (no wrap-around either way). */
static bool inside(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;

	return a >= b && a - b <= len && n <= len - (a - b);
}

doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
						void *addr, size_t len, void *data, size_t data_len, struct doca_buf **buf)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_buf_get_by_args, (inventory, mmap, addr, len, data, data_len, buf));
	uint8_t *base;
	size_t mlen;
	struct doca_buf *b;

	if (inventory == NULL || mmap == NULL || addr == NULL || data == NULL || buf == NULL) {
		OGDA_LOG_ERR("inventory, mmap, addr, data and buf must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!inventory->started) {
		OGDA_LOG_ERR("the inventory is not started (doca_buf_inventory_start)");
		return DOCA_ERROR_BAD_STATE;
	}
	if (core_mmap_started_range(mmap, &base, &mlen) != DOCA_SUCCESS) {
		OGDA_LOG_ERR("the mmap is not started: buffers point into started mmaps only");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!inside(addr, len, base, mlen)) {
		OGDA_LOG_ERR("%zu bytes at %p are not inside the mmap's %zu bytes at %p", len, addr, mlen, (void *)base);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!inside(data, data_len, addr, len)) {
		OGDA_LOG_ERR("the data segment (%zu bytes at %p) is not inside the buffer (%zu bytes at %p)", data_len,
			     data, len, addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&inventory->lock);
	b = inventory->free;
	if (b != NULL) {
		inventory->free = b->next;
		inventory->nfree--;
		b->refcount = 1;
	}
	pthread_mutex_unlock(&inventory->lock);
	if (b == NULL) {
		OGDA_LOG_ERR("the inventory's %u buffers are all in use", inventory->num);
		return DOCA_ERROR_NO_MEMORY;
	}
	b->mmap = mmap;
	b->head = addr;
	b->len = len;
	b->data = data;
	b->data_len = data_len;
	b->next = NULL;
	core_mmap_hold(mmap);
	*buf = b;
	return DOCA_SUCCESS;
}

void core_buf_inventory_put(struct doca_buf *buf)
{
	struct doca_buf_inventory *inv = buf->inv;

	core_mmap_release(buf->mmap);
	buf->mmap = NULL;
	pthread_mutex_lock(&inv->lock);
	buf->next = inv->free;
	inv->free = buf;
	inv->nfree++;
	pthread_mutex_unlock(&inv->lock);
}

doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
						 uint32_t *num_of_elements)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_get_num_elements, (inventory, num_of_elements));
	if (inventory == NULL || num_of_elements == NULL) {
		OGDA_LOG_ERR("inventory and num_of_elements must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_of_elements = inventory->num;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements)
{
	OGDA_SDK_FORWARD(doca_buf_inventory_get_num_free_elements, (inventory, num_of_free_elements));
	struct doca_buf_inventory *inv = (struct doca_buf_inventory *)(uintptr_t)inventory; /* lock only */

	if (inventory == NULL || num_of_free_elements == NULL) {
		OGDA_LOG_ERR("inventory and num_of_free_elements must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&inv->lock);
	*num_of_free_elements = inv->nfree;
	pthread_mutex_unlock(&inv->lock);
	return DOCA_SUCCESS;
}
