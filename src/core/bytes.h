/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Big-endian loads and stores at any alignment, for wire formats and ring entries read
 * byte-wise (memcpy keeps them free of alignment and aliasing traps).
 */
#ifndef OGDA_CORE_BYTES_H_
#define OGDA_CORE_BYTES_H_

#include <endian.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t ogda_load_be16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

static inline uint32_t ogda_load_be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline uint64_t ogda_load_be64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void ogda_store_be16(void *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void ogda_store_be32(void *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void ogda_store_be64(void *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

#endif /* OGDA_CORE_BYTES_H_ */
