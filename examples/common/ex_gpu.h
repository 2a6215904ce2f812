/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GPU handle the device code of a GPUNetIO sample runs on, and copies to and from its
 * memory, for code that runs in kernels where a GPU is usable and on host threads otherwise.
 */
#ifndef EX_GPU_H_
#define EX_GPU_H_

#include <stdbool.h>
#include <stddef.h>

struct doca_gpu;

/*
 * Opens the GPU at PCIe address bus (NULL: the first) through CUDA and its doca_gpu unless host
 * is set or none is usable, else a host handle (opengda_gpu_create_host). Prints which: "GPU
 * <bus> (<name>): <kernel_line>" or "no GPU used (<why>): host threads run the device code".
 * Sets *on_gpu. Returns 0, or -1 with an error line.
 */
int ex_gpu_open(const char *bus, bool host, const char *kernel_line, struct doca_gpu **gpu, bool *on_gpu);

/*
 * Copies len bytes between host memory and memory from doca_gpu_mem_alloc (gpu_ptr, and cpu_ptr
 * when the CPU reaches it): cudaMemcpy for GPU memory on a GPU, memcpy otherwise. to_mem: from
 * host to the allocation. Returns 0, or -1 with an error line.
 */
int ex_gpu_io(bool on_gpu, void *gpu_ptr, void *cpu_ptr, void *host, size_t len, bool to_mem);

#endif /* EX_GPU_H_ */
