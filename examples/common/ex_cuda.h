/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA runtime side of the examples: finding the GPU, copying to and from its memory, and
 * timing a kernel with a bound. Built from ex_cuda.cu where nvcc exists; ex_cuda_stub.c says
 * "no CUDA in this build" otherwise, and the examples run on host threads.
 */
#ifndef EX_CUDA_H_
#define EX_CUDA_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ex_gpu_desc {
	int ordinal;
	char bus_id[32]; /* "0000:17:00.0" */
	char name[256];
	int cc_major;    /* compute capability, major (9 for Hopper) */
};

/*
 * Finds the GPU with PCIe address bus_id (NULL: the first), makes it current and creates its
 * primary context. Returns 0, or -1 with why (no CUDA in this build, no driver, no device, no
 * such address) in why.
 */
int ex_cuda_open(const char *bus_id, struct ex_gpu_desc *out, char *why, size_t why_len);

/* Copies and fills GPU memory (synchronous). Return 0, or -1 with an error line. */
int ex_cuda_to_host(void *dst, const void *src_dev, size_t len);
int ex_cuda_to_dev(void *dst_dev, const void *src, size_t len);
int ex_cuda_fill(void *dst_dev, uint8_t v, size_t len);

/* Marks the start of a kernel launch (records an event on the launch stream). */
int ex_cuda_begin(void);
/*
 * Waits up to timeout_s for the kernels launched since ex_cuda_begin(); *ns is their time on the
 * GPU. A launch or execution error returns -1 with an error line. A kernel still running at the
 * deadline cannot be stopped: the process ends with an error line.
 */
int ex_cuda_end(uint32_t timeout_s, uint64_t *ns);

/* The last launch error as text, for an example's launch function ("" when none). */
const char *ex_cuda_launch_error(void);

#ifdef __cplusplus
}
#endif

#endif /* EX_CUDA_H_ */
