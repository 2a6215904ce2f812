/* SPDX-License-Identifier: BSD-3-Clause */
#include "ex_cuda.h"

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern "C" {
#include "sample_util.h"
}

static cudaEvent_t ev_start, ev_stop;
static bool events_ready;

extern "C" int ex_cuda_open(const char *bus_id, struct ex_gpu_desc *out, char *why, size_t why_len)
{
	cudaDeviceProp prop;
	cudaError_t e;
	int count = 0, dev = 0;

	memset(out, 0, sizeof(*out));
	e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess || count == 0) {
		snprintf(why, why_len, "no usable GPU: %s",
			 e == cudaErrorInsufficientDriver ? "no NVIDIA driver new enough for this build's kernels"
			 : e != cudaSuccess		 ? cudaGetErrorString(e)
							 : "the CUDA driver reports no device");
		return -1;
	}
	if (bus_id != NULL) {
		e = cudaDeviceGetByPCIBusId(&dev, bus_id);
		if (e != cudaSuccess) {
			snprintf(why, why_len, "no GPU at PCIe address %s (%s)", bus_id, cudaGetErrorString(e));
			return -1;
		}
	}
	if ((e = cudaSetDevice(dev)) != cudaSuccess || (e = cudaFree(NULL)) != cudaSuccess ||
	    (e = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess ||
	    (e = cudaDeviceGetPCIBusId(out->bus_id, (int)sizeof(out->bus_id), dev)) != cudaSuccess) {
		snprintf(why, why_len, "GPU %d cannot be used: %s", dev, cudaGetErrorString(e));
		return -1;
	}
	if (!events_ready) {
		if (cudaEventCreate(&ev_start) != cudaSuccess || cudaEventCreate(&ev_stop) != cudaSuccess) {
			snprintf(why, why_len, "cannot create CUDA events");
			return -1;
		}
		events_ready = true;
	}
	out->ordinal = dev;
	snprintf(out->name, sizeof(out->name), "%s", prop.name);
	out->cc_major = prop.major;
	return 0;
}

static int check(cudaError_t e, const char *what)
{
	if (e == cudaSuccess)
		return 0;
	sample_err("%s: %s", what, cudaGetErrorString(e));
	return -1;
}

extern "C" int ex_cuda_to_host(void *dst, const void *src_dev, size_t len)
{
	return check(cudaMemcpy(dst, src_dev, len, cudaMemcpyDeviceToHost), "copy from GPU memory");
}

extern "C" int ex_cuda_to_dev(void *dst_dev, const void *src, size_t len)
{
	return check(cudaMemcpy(dst_dev, src, len, cudaMemcpyHostToDevice), "copy to GPU memory");
}

extern "C" int ex_cuda_fill(void *dst_dev, uint8_t v, size_t len)
{
	if (check(cudaMemset(dst_dev, v, len), "fill GPU memory") != 0)
		return -1;
	return check(cudaDeviceSynchronize(), "fill GPU memory");
}

extern "C" int ex_cuda_begin(void)
{
	return check(cudaEventRecord(ev_start, 0), "record the start event");
}

extern "C" int ex_cuda_end(uint32_t timeout_s, uint64_t *ns)
{
	struct timespec ts;
	time_t deadline;
	float ms = 0;
	cudaError_t e;

	if (check(cudaGetLastError(), "kernel launch") != 0 || check(cudaEventRecord(ev_stop, 0), "record the stop event"))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = ts.tv_sec + (time_t)timeout_s;
	while ((e = cudaEventQuery(ev_stop)) == cudaErrorNotReady) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec > deadline) {
			/* A kernel cannot be cancelled: leaving is the only bounded answer. */
			sample_err("the kernel is still running after %u s; ending the process", timeout_s);
			_exit(SAMPLE_EXIT_FAILURE);
		}
		usleep(200);
	}
	if (check(e, "kernel execution") != 0 || check(cudaEventElapsedTime(&ms, ev_start, ev_stop), "kernel time"))
		return -1;
	*ns = (uint64_t)((double)ms * 1e6);
	return 0;
}

extern "C" const char *ex_cuda_launch_error(void)
{
	cudaError_t e = cudaPeekAtLastError();

	return e == cudaSuccess ? "" : cudaGetErrorString(e);
}
