/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers of the DOCA Verbs objects. */
#include "verbs/verbs_util.h"

#include "verbs/verbs_priv.h"

#include "swnic/swnic_ctl.h"

#define VERBS_PKEY_TABLE_MIN 128u /* encoding 0 */
#define VERBS_PKEY_TABLE_MAX_LOG 5u /* encoding 5: 4096 entries; above is reserved */

/*
 * Smallest power of two >= v. Outside the documented range the result is still defined:
 * v = 0 gives 1 (log 0); v > 2^31 has no 32-bit answer and gives 0 (log 32), which every
 * size check downstream refuses.
 */
uint32_t verbs_roundup_pow2(uint32_t v, uint32_t *log)
{
	uint32_t l = 0;

	if (v > (1u << 31)) {
		if (log != NULL)
			*log = 32;
		return 0;
	}
	while ((1u << l) < v)
		l++;
	if (log != NULL)
		*log = l;
	return 1u << l;
}

uint32_t verbs_pow2_u32(uint32_t log)
{
	return log >= 32 ? UINT32_MAX : 1u << log;
}

uint8_t verbs_pow2_u8(uint32_t log)
{
	return log >= 8 ? UINT8_MAX : (uint8_t)(1u << log);
}

uint16_t verbs_pkey_table_entries(uint16_t pkey_table_size)
{
	if (pkey_table_size > VERBS_PKEY_TABLE_MAX_LOG)
		return 0;
	return (uint16_t)(VERBS_PKEY_TABLE_MIN << pkey_table_size);
}

bool verbs_cpu_accessible(const void *addr, size_t len)
{
	return swnic_mem_kind(addr, len) != OGDA_MEM_GPU;
}
