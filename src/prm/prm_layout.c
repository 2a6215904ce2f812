/* SPDX-License-Identifier: BSD-3-Clause */
#include "prm/prm_layout.h"

#include "core/log.h"

#include <string.h>

void prm_bits_set(void *buf, uint32_t bit_off, uint32_t width, uint64_t value)
{
	uint8_t *p = buf;
	uint32_t i;

	/* Walk from the least significant bit of the field (its last bit in memory order). */
	for (i = 0; i < width; i++) {
		uint32_t bit = bit_off + width - 1u - i;
		uint8_t mask = (uint8_t)(0x80u >> (bit & 7u));

		if ((value >> i) & 1u)
			p[bit >> 3] |= mask;
		else
			p[bit >> 3] &= (uint8_t)~mask;
	}
}

uint64_t prm_bits_get(const void *buf, uint32_t bit_off, uint32_t width)
{
	const uint8_t *p = buf;
	uint64_t value = 0;
	uint32_t i;

	for (i = 0; i < width; i++) {
		uint32_t bit = bit_off + i;

		value = (value << 1) | ((p[bit >> 3] >> (7u - (bit & 7u))) & 1u);
	}
	return value;
}

static const struct prm_field *field_find(const struct prm_layout *layout, const char *name, size_t name_len)
{
	size_t i;

	for (i = 0; i < layout->nfields; i++) {
		const struct prm_field *f = &layout->fields[i];

		if (strlen(f->name) == name_len && memcmp(f->name, name, name_len) == 0)
			return f;
	}
	return NULL;
}

/* Resolves, allowing the path to end on an embedded layout (used for byte copies). */
static doca_error_t resolve_any(const struct prm_layout *layout, const char *path, struct prm_loc *loc,
				const struct prm_field **last)
{
	const struct prm_layout *cur = layout;
	const char *seg = path;
	uint32_t base = 0;

	if (layout == NULL || path == NULL || loc == NULL) {
		OGDA_LOG_ERR("layout, path and loc must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (;;) {
		const char *dot = strchr(seg, '.');
		size_t len = dot ? (size_t)(dot - seg) : strlen(seg);
		const struct prm_field *f = cur ? field_find(cur, seg, len) : NULL;

		if (f == NULL) {
			OGDA_LOG_ERR("%s has no field '%s'", layout->name, path);
			return DOCA_ERROR_NOT_FOUND;
		}
		base += f->bit_off;
		if (dot == NULL) {
			loc->bit_off = base;
			loc->width = f->width;
			*last = f;
			return DOCA_SUCCESS;
		}
		cur = f->sub;
		seg = dot + 1;
	}
}

doca_error_t prm_resolve(const struct prm_layout *layout, const char *path, struct prm_loc *loc)
{
	const struct prm_field *f = NULL;
	doca_error_t err = resolve_any(layout, path, loc, &f);

	if (err != DOCA_SUCCESS)
		return err;
	if (f->sub != NULL || f->width == 0 || f->width > 64) {
		OGDA_LOG_ERR("%s.%s is a %u-bit block, not a scalar field", layout->name, path, f->width);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t check_buf(const struct prm_layout *layout, const void *buf, size_t buf_len)
{
	if (buf == NULL) {
		OGDA_LOG_ERR("%s: buffer must not be NULL", layout ? layout->name : "(null layout)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (layout != NULL && buf_len < layout->size) {
		OGDA_LOG_ERR("%s needs %zu bytes, buffer has %zu", layout->name, layout->size, buf_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t prm_set(const struct prm_layout *layout, void *buf, size_t buf_len, const char *path, uint64_t value)
{
	struct prm_loc loc;
	doca_error_t err = check_buf(layout, buf, buf_len);

	if (err == DOCA_SUCCESS)
		err = prm_resolve(layout, path, &loc);
	if (err != DOCA_SUCCESS)
		return err;
	if (loc.width < 64 && (value >> loc.width) != 0) {
		OGDA_LOG_ERR("%s.%s is %u bits wide; value 0x%llx does not fit", layout->name, path, loc.width,
			     (unsigned long long)value);
		return DOCA_ERROR_INVALID_VALUE;
	}
	prm_bits_set(buf, loc.bit_off, loc.width, value);
	return DOCA_SUCCESS;
}

doca_error_t prm_get(const struct prm_layout *layout, const void *buf, size_t buf_len, const char *path,
		     uint64_t *value)
{
	struct prm_loc loc;
	doca_error_t err = check_buf(layout, buf, buf_len);

	if (err == DOCA_SUCCESS && value == NULL) {
		OGDA_LOG_ERR("%s: value must not be NULL", layout->name);
		err = DOCA_ERROR_INVALID_VALUE;
	}
	if (err == DOCA_SUCCESS)
		err = prm_resolve(layout, path, &loc);
	if (err != DOCA_SUCCESS)
		return err;
	*value = prm_bits_get(buf, loc.bit_off, loc.width);
	return DOCA_SUCCESS;
}

void prm_writer_init(struct prm_writer *w, const struct prm_layout *layout, void *buf, size_t len)
{
	w->layout = layout;
	w->buf = buf;
	w->len = len;
	w->err = check_buf(layout, buf, len);
	if (w->err == DOCA_SUCCESS && layout == NULL) {
		OGDA_LOG_ERR("layout must not be NULL");
		w->err = DOCA_ERROR_INVALID_VALUE;
	}
	if (w->err == DOCA_SUCCESS)
		memset(buf, 0, layout->size);
}

void prm_w(struct prm_writer *w, const char *path, uint64_t value)
{
	if (w->err == DOCA_SUCCESS)
		w->err = prm_set(w->layout, w->buf, w->len, path, value);
}

void prm_reader_init(struct prm_reader *r, const struct prm_layout *layout, const void *buf, size_t len)
{
	r->layout = layout;
	r->buf = buf;
	r->len = len;
	r->err = check_buf(layout, buf, len);
	if (r->err == DOCA_SUCCESS && layout == NULL) {
		OGDA_LOG_ERR("layout must not be NULL");
		r->err = DOCA_ERROR_INVALID_VALUE;
	}
}

uint64_t prm_r(struct prm_reader *r, const char *path)
{
	uint64_t v = 0;

	if (r->err == DOCA_SUCCESS)
		r->err = prm_get(r->layout, r->buf, r->len, path, &v);
	return r->err == DOCA_SUCCESS ? v : 0;
}

static doca_error_t byte_field(const struct prm_layout *layout, const char *path, size_t n, struct prm_loc *loc)
{
	const struct prm_field *f = NULL;
	doca_error_t err = resolve_any(layout, path, loc, &f);

	if (err != DOCA_SUCCESS)
		return err;
	if ((loc->bit_off & 7u) != 0 || loc->width != n * 8u) {
		OGDA_LOG_ERR("%s.%s is %u bits at bit %u, not a %zu-byte aligned field", layout->name, path,
			     loc->width, loc->bit_off, n);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

void prm_w_bytes(struct prm_writer *w, const char *path, const void *src, size_t n)
{
	struct prm_loc loc;

	if (w->err != DOCA_SUCCESS)
		return;
	if (src == NULL) {
		OGDA_LOG_ERR("%s.%s: source bytes must not be NULL", w->layout->name, path);
		w->err = DOCA_ERROR_INVALID_VALUE;
		return;
	}
	w->err = byte_field(w->layout, path, n, &loc);
	if (w->err == DOCA_SUCCESS)
		memcpy((uint8_t *)w->buf + loc.bit_off / 8u, src, n);
}

void prm_r_bytes(struct prm_reader *r, const char *path, void *dst, size_t n)
{
	struct prm_loc loc;

	if (r->err != DOCA_SUCCESS)
		return;
	if (dst == NULL) {
		OGDA_LOG_ERR("%s.%s: destination must not be NULL", r->layout->name, path);
		r->err = DOCA_ERROR_INVALID_VALUE;
		return;
	}
	r->err = byte_field(r->layout, path, n, &loc);
	if (r->err == DOCA_SUCCESS)
		memcpy(dst, (const uint8_t *)r->buf + loc.bit_off / 8u, n);
}
