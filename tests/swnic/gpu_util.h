/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA driver for the GPU tests (CTest label gpu): loaded with dlopen, so the tests
 * build and link where only the CUDA headers are present, and one device buffer they put
 * their data in. Only built with the headers (OGDA_HAVE_CUDA_H).
 */
#ifndef OGDA_TESTS_SWNIC_GPU_UTIL_H_
#define OGDA_TESTS_SWNIC_GPU_UTIL_H_

#ifdef OGDA_HAVE_CUDA_H
#include <cuda.h>

#include <stddef.h>
#include <stdint.h>

struct gpu_driver {
	CUresult (*init)(unsigned int);
	CUresult (*device_get)(CUdevice *, int);
	CUresult (*primary_retain)(CUcontext *, CUdevice);
	CUresult (*ctx_set)(CUcontext);
	CUresult (*ctx_get)(CUcontext *);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*htod)(CUdeviceptr, const void *, size_t);
	CUcontext ctx;     /* device 0's primary context, current on the opening thread */
	CUdeviceptr dev;   /* the test's device buffer */
	uint8_t *base;     /* the same buffer as a pointer, for addresses handed to the NIC */
};

/* The one driver a GPU test process uses. */
extern struct gpu_driver cu;

/*
 * Loads the driver, makes device 0's primary context current and allocates dev_bytes at
 * cu.dev. Returns 0, or -1 after printing why (for a cmocka group setup to fail with).
 */
int gpu_open(size_t dev_bytes);

/* cmocka group teardown: frees cu.dev if gpu_open allocated it. */
int gpu_teardown(void **state);

#endif /* OGDA_HAVE_CUDA_H */
#endif /* OGDA_TESTS_SWNIC_GPU_UTIL_H_ */
