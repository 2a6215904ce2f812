/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MR holds and the drain of deregistration (swnic_mem_access.h says how they fit).
 *
 * Ordering: a hold is taken under nic->lock shared, deregistration revokes under
 * nic->lock exclusive, so a hold either counted itself before the revoke (and is waited
 * for) or sees the MR revoked. A release is a release store, the drain's load an acquire:
 * everything the access wrote is done when swnic_mr_deregister returns.
 */
#include "swnic/swnic_mem_access.h"

#include "core/log.h"
#include "swnic/swnic_mem_int.h"

#include <string.h>
#include <time.h>

#define DRAIN_WARN_MS 1000u     /* an access this slow is worth a line */
#define DRAIN_MAX_MS 30000u     /* then deregistration gives up (the MR stays revoked) */

doca_error_t swnic_mr_hold(struct swnic *nic, uint32_t key, bool remote, const struct swnic_pd *pd, uint64_t addr,
			   uint64_t len, uint32_t need_access, struct swnic_mr_hold *h)
{
	struct swnic_mr *mr = NULL;
	doca_error_t err;

	if (nic == NULL || h == NULL) {
		OGDA_LOG_ERR("nic and h must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(h, 0, sizeof(*h));
	pthread_rwlock_rdlock(&nic->lock);
	err = swnic_mr_check_locked(nic, key, remote, pd, addr, len, need_access, &mr);
	if (err == DOCA_SUCCESS) {
		atomic_fetch_add_explicit(&mr->inflight, 1, memory_order_relaxed);
		h->slot = mr;
		swnic_mr_view(mr, &h->mr);
	}
	pthread_rwlock_unlock(&nic->lock);
	return err;
}

void swnic_mr_unhold(struct swnic_mr_hold *h)
{
	if (h == NULL || h->slot == NULL)
		return;
	atomic_fetch_sub_explicit(&h->slot->inflight, 1, memory_order_release);
	h->slot = NULL;
}

bool swnic_mr_hold_valid(const struct swnic_mr_hold *h)
{
	return h != NULL && h->slot != NULL && !atomic_load_explicit(&h->slot->revoked, memory_order_acquire);
}

doca_error_t swnic_mem_copy_held(void *dst, enum ogda_mem_kind dst_kind, const void *src, enum ogda_mem_kind src_kind,
				 size_t len, const struct swnic_mr_hold *a, const struct swnic_mr_hold *b)
{
	size_t off = 0;

	do {
		size_t n = len - off < SWNIC_MEM_CHUNK ? len - off : SWNIC_MEM_CHUNK;
		doca_error_t err;

		if ((a != NULL && !swnic_mr_hold_valid(a)) || (b != NULL && !swnic_mr_hold_valid(b))) {
			OGDA_LOG_DBG("copy stopped after %zu of %zu bytes: its MR was deregistered", off, len);
			return DOCA_ERROR_NOT_FOUND;
		}
		err = swnic_mem_copy((uint8_t *)dst + off, dst_kind, (const uint8_t *)src + off, src_kind, n);
		if (err != DOCA_SUCCESS)
			return err;
		off += n;
	} while (off < len);
	return DOCA_SUCCESS;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

doca_error_t swnic_mr_drain(struct swnic *nic, struct swnic_mr *mr, uint32_t key)
{
	struct timespec pause = {0, 20 * 1000};
	uint64_t t0 = now_ms(), warn_at = t0 + DRAIN_WARN_MS;

	/* Every access in flight is within one chunk of its end or of its next validity look. */
	while (atomic_load_explicit(&mr->inflight, memory_order_acquire) != 0) {
		uint64_t t = now_ms();

		if (t - t0 >= DRAIN_MAX_MS) {
			OGDA_LOG_ERR("%s: MR key 0x%x: %u accesses still in flight after %u ms; the MR stays revoked, "
				     "deregister it again later",
				     nic->name, key, atomic_load(&mr->inflight), DRAIN_MAX_MS);
			return DOCA_ERROR_TIME_OUT;
		}
		if (t >= warn_at) {
			OGDA_LOG_WARN("%s: MR key 0x%x: deregistration waits for %u accesses in flight (%llu ms)",
				      nic->name, key, atomic_load(&mr->inflight), (unsigned long long)(t - t0));
			warn_at = t + DRAIN_WARN_MS;
		}
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 1000 * 1000)
			pause.tv_nsec *= 2;
	}
	return DOCA_SUCCESS;
}
