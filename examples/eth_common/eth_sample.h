/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the Ethernet samples (gpunetio_simple_send, gpunetio_send_wait_time) share: opening the NIC
 * and the GPU (host threads when there is none), attaching the software NIC's port, the frame
 * buffer registered with the NIC, the started send queue, and UDP frame building.
 */
#ifndef ETH_SAMPLE_H_
#define ETH_SAMPLE_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_dev.h"
#include "doca_eth_txq.h"
#include "doca_gpunetio.h"
#include "doca_gpunetio_eth_def.h"
#include "doca_mmap.h"

/* Where the frames go (UDP/IPv4 from 192.168.1.1:1234). */
struct eth_sample_dst {
	uint8_t mac[6];
	uint32_t ip;         /* host order */
	uint16_t port;
};

struct eth_sample {
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	int on_gpu;                   /* a CUDA GPU (else the host handle: host threads) */
	int cc_major;                 /* the GPU's compute capability, major (0 without one) */
	struct doca_eth_txq *txq;
	struct doca_gpu_eth_txq *h;   /* device handle */
	struct doca_mmap *mmap;
	void *frames;                 /* frame buffer as device code addresses it */
	uint32_t mkey_be;
	int32_t *status_cpu;          /* a word device code writes its result to (CPU_GPU memory) */
	void *status_dev;
	int proxy;                    /* CPU proxy: proxy_thread rings for device code */
	pthread_t proxy_thread;
	atomic_int proxy_stop;
	int proxy_running;
};

/* The options every Ethernet sample has: -n DEV, -g GPU_PCI, -i IFACE, -m DST_MAC, -a DST_IPV4, -v. */
struct eth_sample_opts {
	const char *dev, *gpu, *iface;
	struct eth_sample_dst dst;
};

/* 0 when @p err is DOCA_SUCCESS; otherwise says what failed (naming @p what) and returns -1. */
int eth_sample_check(doca_error_t err, const char *what);

/* swnic0, the first GPU, no interface, broadcast to 192.168.1.2:5000. */
void eth_sample_opts_default(struct eth_sample_opts *o);

/* getopt's letters of those options, to put in a sample's option string. */
#define ETH_SAMPLE_OPTSTRING "n:g:i:m:a:v"

/* Handles option @p opt with argument @p arg if it is one of those: 1 handled, 0 not one, -1 a bad value. */
int eth_sample_opt(int opt, const char *arg, struct eth_sample_opts *o);

/* Runs fn(args + i * arg_size) on n host threads (a kernel's threads, on the host) and joins them; 0 or -1. */
int eth_sample_run_threads(uint32_t n, void *(*fn)(void *), void *args, size_t arg_size);

/*
 * Opens the NIC @p dev (device name or PCI address), the GPU @p gpu_pci (NULL: the first; host
 * threads when none is usable) and, when @p iface is set, attaches the software NIC's port to it.
 */
int eth_sample_open(struct eth_sample *s, const char *dev, const char *gpu_pci, const char *iface);

/*
 * @p total frames of @p len bytes, @p slot bytes apart, each a UDP frame to @p dst carrying
 * "<tag> <k>" and filler, in GPU memory on a GPU (else pinned host memory), registered with the NIC;
 * also the status word (set to 1).
 */
int eth_sample_frames(struct eth_sample *s, uint32_t total, uint32_t len, uint32_t slot,
		      const struct eth_sample_dst *dst, const char *tag);

/*
 * A started send queue for @p burst frames with L3/L4 checksum offload (and wait-on-time). With
 * @p proxy, the queue's doorbell is rung by a CPU thread (doca_eth_txq_gpu_set_uar_on_cpu) that
 * loops on doca_eth_txq_gpu_cpu_proxy_progress until eth_sample_close().
 */
int eth_sample_txq(struct eth_sample *s, uint32_t burst, int wait_on_time, int proxy);

/*
 * A started send queue as eth_sample_txq's, in *@p txq with its device handle *@p h (the caller's
 * to close with eth_sample_txq_close; a proxy thread is eth_sample_txq's alone). On failure it
 * undoes itself: both are NULL.
 */
int eth_sample_txq_make(struct eth_sample *s, uint32_t burst, int wait_on_time, int proxy, struct doca_eth_txq **txq,
			struct doca_gpu_eth_txq **h);
/* Stops (when @p started) and destroys @p txq; NULL is fine. */
void eth_sample_txq_close(struct doca_eth_txq *txq, int started);

/*
 * @p len bytes for the device path (GPU memory on a GPU, pinned host memory mapped for host
 * threads otherwise) in *@p dev, filled from @p src when not NULL. 0, or -1 (said why; *@p dev NULL
 * when nothing was allocated, else the caller frees it with doca_gpu_mem_free).
 */
int eth_sample_dev_alloc(struct eth_sample *s, size_t len, const void *src, void **dev);

/*
 * @p len bytes at @p addr (GPU or host memory) registered with the sample's device, read-write:
 * the started *@p mmap and, when @p mkey is not NULL, its key. On failure *@p mmap is what was
 * made (close it with eth_sample_mmap_close).
 */
int eth_sample_mmap(struct eth_sample *s, void *addr, size_t len, struct doca_mmap **mmap, uint32_t *mkey);
/* Stops and destroys @p mmap; NULL is fine. */
void eth_sample_mmap_close(struct doca_mmap *mmap);

/* Prints the software NIC port's counters (nothing on a ConnectX). */
void eth_sample_port_stats(struct eth_sample *s);

/* Undoes everything (any stage). */
void eth_sample_close(struct eth_sample *s);

#endif /* ETH_SAMPLE_H_ */
