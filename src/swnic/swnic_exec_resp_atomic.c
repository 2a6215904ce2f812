/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responder atomics: IB compare-and-swap and fetch-and-add on 8 bytes, and the ConnectX
 * extended ("masked") forms on 4 and 8 bytes. Target memory holds integers in host order,
 * as with atomic_req_8B_endianness_mode = HOST_ENDIANNESS (reference/mlx5.md B.4).
 *
 * Semantics, with n = 8 * atomic_size bits and every operand truncated to n bits:
 *   CS         if (*va == compare) *va = swap
 *   FA         *va = *va + add                                    (mod 2^n)
 *   MASKED_CS  if (((*va ^ compare) & compare_mask) == 0)
 *                  *va = (*va & ~swap_mask) | (swap & swap_mask)
 *   MASKED_FA  *va = field-wise sum of *va and add, where a bit i set in the field
 *              boundary marks the most significant bit of a field: the carry out of
 *              bit i is dropped instead of entering bit i + 1. This is the reading of the
 *              ConnectX "MFetchAdd" description (bit-serial adder whose carry into the
 *              next bit is cleared wherever field_boundary has a 1); a boundary of 0 is a
 *              plain add. Computed here in one step with the SWAR identity
 *                  sum = ((a & ~H) + (b & ~H)) ^ ((a ^ b) & H),   H = field boundary
 *              (clearing the field MSBs keeps every carry inside its field, the XOR puts
 *              the MSB sum bits back without their carry out).
 * Every form returns the value found in memory before the operation.
 *
 * Atomicity: host memory is updated with a compare-exchange loop on the target word
 * (__atomic builtins), so concurrent responder calls on the same word from any thread or
 * NIC of this process serialise in hardware. GPU memory cannot be reached by host atomics:
 * the value is copied in, computed and copied out under one process-wide lock (process-wide
 * rather than per NIC because two NICs of the process may have the same GPU buffer
 * registered). That is atomic against other responder calls only, NOT against GPU threads
 * writing the word meanwhile.
 */
#include "swnic/swnic_exec_resp_int.h"

#include "core/log.h"

#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t gpu_atomic_lock = PTHREAD_MUTEX_INITIALIZER;

bool swnic_resp_atomic_compute(const struct swnic_req *req, uint64_t old, uint64_t *new_value)
{
	uint64_t width = req->atomic_size == 4 ? UINT32_MAX : UINT64_MAX;
	uint64_t a = old & width;
	uint64_t b = req->swap_add & width;
	uint64_t h;

	switch (req->op) {
	case SWNIC_REQ_ATOMIC_CS:
		if (a != (req->compare & width))
			return false;
		*new_value = b;
		return true;
	case SWNIC_REQ_ATOMIC_FA:
		*new_value = (a + b) & width;
		return true;
	case SWNIC_REQ_MASKED_CS:
		if (((a ^ req->compare) & req->compare_mask & width) != 0)
			return false;
		*new_value = ((a & ~req->swap_mask) | (b & req->swap_mask)) & width;
		return true;
	case SWNIC_REQ_MASKED_FA:
		h = req->compare & width;
		*new_value = (((a & ~h) + (b & ~h)) ^ ((a ^ b) & h)) & width;
		return true;
	default:
		return false;
	}
}

static uint64_t host_atomic8(const struct swnic_req *req, uint64_t *p)
{
	uint64_t old = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	uint64_t nv;

	/* On failure the exchange reloads old: recompute from the value that won. */
	while (swnic_resp_atomic_compute(req, old, &nv)) {
		if (__atomic_compare_exchange_n(p, &old, nv, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
	}
	return old;
}

static uint64_t host_atomic4(const struct swnic_req *req, uint32_t *p)
{
	uint32_t old = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	uint64_t nv;

	while (swnic_resp_atomic_compute(req, old, &nv)) {
		if (__atomic_compare_exchange_n(p, &old, (uint32_t)nv, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
	}
	return old;
}

static uint8_t gpu_atomic(const struct swnic_req *req, void *target, uint64_t *orig)
{
	uint32_t size = req->atomic_size;
	uint8_t verdict = SWNIC_RESP_ACK;
	uint64_t old64 = 0, nv = 0;
	uint32_t old32 = 0, nv32;
	doca_error_t err;

	pthread_mutex_lock(&gpu_atomic_lock);
	err = swnic_mem_copy(size == 4 ? (void *)&old32 : (void *)&old64, OGDA_MEM_HOST, target, OGDA_MEM_GPU, size);
	if (err != DOCA_SUCCESS) {
		verdict = SWNIC_RESP_NAK_REMOTE_OP;
		goto out;
	}
	if (size == 4)
		old64 = old32;
	if (swnic_resp_atomic_compute(req, old64, &nv)) {
		nv32 = (uint32_t)nv;
		err = swnic_mem_copy(target, OGDA_MEM_GPU, size == 4 ? (const void *)&nv32 : (const void *)&nv,
				     OGDA_MEM_HOST, size);
		if (err != DOCA_SUCCESS) {
			verdict = SWNIC_RESP_NAK_REMOTE_OP;
			goto out;
		}
	}
	*orig = old64;
out:
	pthread_mutex_unlock(&gpu_atomic_lock);
	return verdict;
}

uint8_t swnic_resp_atomic_execute(const struct swnic_req *req, const struct swnic_mr *mr, uint64_t *orig)
{
	void *target = (void *)(uintptr_t)req->raddr;

	if (req->atomic_size != 4 && req->atomic_size != 8) {
		OGDA_LOG_ERR("atomic size %u is neither 4 nor 8", req->atomic_size);
		return SWNIC_RESP_NAK_INVALID_REQ;
	}
	if (req->raddr % req->atomic_size != 0) {
		OGDA_LOG_ERR("misaligned atomic target 0x%llx", (unsigned long long)req->raddr);
		return SWNIC_RESP_NAK_INVALID_REQ;
	}
	if (mr->kind == OGDA_MEM_GPU)
		return gpu_atomic(req, target, orig);
	*orig = req->atomic_size == 8 ? host_atomic8(req, target) : host_atomic4(req, target);
	return SWNIC_RESP_ACK;
}
