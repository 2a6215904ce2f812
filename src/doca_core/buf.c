/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf (doca_buf.h): a descriptor taken from a doca_buf_inventory (buf_inventory.c owns the
 * array and the free list). Reference counting and the data segment. A buffer whose count is 0
 * is back in its inventory: every call but the getters refuses it, so a double release shows up
 * as DOCA_ERROR_BAD_STATE instead of a corrupt free list.
 */
#include "doca_core/core_priv.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

/* The first check of every function that changes a buffer: it exists and is in use. */
static doca_error_t check_live(const struct doca_buf *buf, const char *func)
{
	if (buf == NULL) {
		OGDA_LOG_ERR("%s: buf must not be NULL", func);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->refcount == 0) {
		OGDA_LOG_ERR("%s: the buffer was given back to its inventory (reference count 0)", func);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	OGDA_SDK_FORWARD(doca_buf_inc_refcount, (buf, refcount));
	doca_error_t err = check_live(buf, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (buf->refcount == UINT16_MAX) {
		OGDA_LOG_ERR("the buffer has %u references, the most a count holds", UINT16_MAX);
		return DOCA_ERROR_TOO_BIG;
	}
	if (refcount != NULL)
		*refcount = buf->refcount;
	buf->refcount++;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	OGDA_SDK_FORWARD(doca_buf_dec_refcount, (buf, refcount));
	doca_error_t err = check_live(buf, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (refcount != NULL)
		*refcount = buf->refcount;
	if (--buf->refcount == 0) {
		/* A lent buffer goes back to the library that lent it (a receive queue reposts it). */
		if (buf->owner_put != NULL)
			buf->owner_put(buf);
		else
			core_buf_inventory_put(buf);
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	OGDA_SDK_FORWARD(doca_buf_get_refcount, (buf, refcount));
	if (buf == NULL || refcount == NULL) {
		OGDA_LOG_ERR("buf and refcount must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	OGDA_SDK_FORWARD(doca_buf_get_len, (buf, len));
	if (buf == NULL || len == NULL) {
		OGDA_LOG_ERR("buf and len must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*len = buf->len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	OGDA_SDK_FORWARD(doca_buf_get_head, (buf, head));
	if (buf == NULL || head == NULL) {
		OGDA_LOG_ERR("buf and head must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*head = buf->head;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	OGDA_SDK_FORWARD(doca_buf_get_data_len, (buf, data_len));
	if (buf == NULL || data_len == NULL) {
		OGDA_LOG_ERR("buf and data_len must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*data_len = buf->data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	OGDA_SDK_FORWARD(doca_buf_get_data, (buf, data));
	if (buf == NULL || data == NULL) {
		OGDA_LOG_ERR("buf and data must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*data = buf->data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	OGDA_SDK_FORWARD(doca_buf_set_data, (buf, data, data_len));
	doca_error_t err = check_live(buf, __func__);
	uintptr_t d = (uintptr_t)data, h;

	if (err != DOCA_SUCCESS)
		return err;
	h = (uintptr_t)buf->head;
	/* DOCA leaves a segment outside the buffer undefined; a task would then write past it. */
	if (data == NULL || d < h || d - h > buf->len || data_len > buf->len - (d - h)) {
		OGDA_LOG_ERR("a data segment of %zu bytes at %p is not inside the buffer (%zu bytes at %p)", data_len,
			     data, buf->len, (void *)buf->head);
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	doca_error_t err;
	size_t room;

	/* Not in every SDK's libdoca_common: in SDK mode the same change through forwarded calls. */
	if (ogda_sdk_in_use()) {
		void *data = NULL;

		err = doca_buf_get_data(buf, &data);
		return err != DOCA_SUCCESS ? err : doca_buf_set_data(buf, data, data_len);
	}
	err = check_live(buf, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	room = buf->len - (size_t)(buf->data - buf->head);
	if (data_len > room) {
		OGDA_LOG_ERR("a data length of %zu bytes ends past the buffer (%zu bytes from the data start)", data_len,
			     room);
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_reset_data_len(struct doca_buf *buf)
{
	OGDA_SDK_FORWARD(doca_buf_reset_data_len, (buf));
	doca_error_t err = check_live(buf, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	buf->data_len = 0;
	return DOCA_SUCCESS;
}
