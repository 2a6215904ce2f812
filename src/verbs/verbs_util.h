/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small helpers of the DOCA Verbs objects (verbs_util.c). verbs_roundup_pow2() is declared
 * in verbs_priv.h; the helpers below are the ones only some files need.
 */
#ifndef OGDA_VERBS_VERBS_UTIL_H_
#define OGDA_VERBS_VERBS_UTIL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Full fence around MMIO doorbell stores: orders them after the WQE and doorbell-record
 * stores and flushes write-combining (BlueFlame) mappings. ThreadSanitizer does not model
 * fences (and gcc rejects them under -fsanitize=thread); there the release stores alone
 * carry the ordering it checks.
 */
#if defined(__SANITIZE_THREAD__)
#define VERBS_MMIO_FENCE() ((void)0)
#else
#define VERBS_MMIO_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* 2^log as a uint32_t, saturated at UINT32_MAX when log >= 32 (capabilities are log2 fields). */
uint32_t verbs_pow2_u32(uint32_t log);

/* 2^log as a uint8_t, saturated at UINT8_MAX when log >= 8. */
uint8_t verbs_pow2_u8(uint32_t log);

/*
 * P_Key table entries from cmd_hca_cap.pkey_table_size, an encoding: 128 << value for
 * 0..5 (128 .. 4096 entries); 0 for the reserved encodings above 5.
 */
uint16_t verbs_pkey_table_entries(uint16_t pkey_table_size);

/*
 * True when the CPU can load and store [addr, addr + len) directly: not GPU memory. Queues
 * and doorbell records in user UMEMs may live in GPU memory, which the CPU data path
 * (doca_verbs_bridge_*) cannot touch.
 */
bool verbs_cpu_accessible(const void *addr, size_t len);

#endif /* OGDA_VERBS_VERBS_UTIL_H_ */
