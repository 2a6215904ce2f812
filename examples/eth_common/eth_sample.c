/* SPDX-License-Identifier: BSD-3-Clause */
#include "eth_sample.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doca_ctx.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "ex_cuda.h"
#include "opengda.h"
#include "opengda_gpunetio.h"
#include "sample_util.h"

#define HDR_LEN 42u

int eth_sample_check(doca_error_t err, const char *what)
{
	if (err != DOCA_SUCCESS)
		sample_err_doca(what, err);
	return err == DOCA_SUCCESS ? 0 : -1;
}

void eth_sample_opts_default(struct eth_sample_opts *o)
{
	*o = (struct eth_sample_opts){.dev = "swnic0",
				      .dst = {.mac = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, .ip = 0xc0a80102, .port = 5000}};
}

int eth_sample_opt(int opt, const char *arg, struct eth_sample_opts *o)
{
	struct in_addr a;
	uint8_t *m = o->dst.mac;

	switch (opt) {
	case 'n': o->dev = arg; return 1;
	case 'g': o->gpu = arg; return 1;
	case 'i': o->iface = arg; return 1;
	case 'v': (void)opengda_log_set_level(6); return 1;
	case 'm':
		if (sscanf(arg, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 6) {
			sample_err("-m %s: not a MAC address", arg);
			return -1;
		}
		return 1;
	case 'a':
		if (inet_pton(AF_INET, arg, &a) != 1) {
			sample_err("-a %s: not an IPv4 address", arg);
			return -1;
		}
		o->dst.ip = ntohl(a.s_addr);
		return 1;
	default:
		return 0;
	}
}

int eth_sample_run_threads(uint32_t n, void *(*fn)(void *), void *args, size_t arg_size)
{
	pthread_t *th = calloc(n, sizeof(*th));
	uint32_t i, started = 0;

	if (th == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (pthread_create(&th[i], NULL, fn, (uint8_t *)args + (size_t)i * arg_size) != 0)
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	if (started != n) {
		sample_err("pthread_create failed");
		return -1;
	}
	return 0;
}

static int open_dev(struct eth_sample *s, const char *dev)
{
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE], pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t n = 0, i;

	if (eth_sample_check(doca_devinfo_create_list(&s->list, &n), "doca_devinfo_create_list") != 0)
		return -1;
	for (i = 0; i < n; i++) {
		pci[0] = '\0';
		if (doca_devinfo_get_ibdev_name(s->list[i], name, sizeof(name)) != DOCA_SUCCESS)
			continue;
		(void)doca_devinfo_get_pci_addr_str(s->list[i], pci);
		if (strcmp(name, dev) == 0 || strcmp(pci, dev) == 0)
			return eth_sample_check(doca_dev_open(s->list[i], &s->dev), "doca_dev_open");
	}
	sample_err("-n %s: no such device", dev);
	return -1;
}

static int open_gpu(struct eth_sample *s, const char *gpu_pci)
{
	struct ex_gpu_desc d;
	char why[256];
	doca_error_t err;

	if (ex_cuda_open(gpu_pci, &d, why, sizeof(why)) == 0) {
		err = doca_gpu_create(d.bus_id, &s->gpu);
		if (err == DOCA_SUCCESS) {
			s->on_gpu = 1;
			s->cc_major = d.cc_major;
			sample_info("GPU %s (%s): CUDA kernels run the device code", d.bus_id, d.name);
			return 0;
		}
		snprintf(why, sizeof(why), "doca_gpu_create(%s): %s", d.bus_id, doca_error_get_descr(err));
	}
	sample_info("no GPU (%s): host threads run the device code", why);
	return eth_sample_check(opengda_gpu_create_host(&s->gpu), "opengda_gpu_create_host");
}

int eth_sample_open(struct eth_sample *s, const char *dev, const char *gpu_pci, const char *iface)
{
	memset(s, 0, sizeof(*s));
	if (open_dev(s, dev) != 0 || open_gpu(s, gpu_pci) != 0)
		return -1;
	if (iface != NULL)
		return eth_sample_check(opengda_eth_port_attach(s->dev, iface), "opengda_eth_port_attach");
	return 0;
}

/* One UDP/IPv4 frame with zero checksums (the queue offloads both). */
static void udp_frame(uint8_t *f, uint32_t len, const uint8_t src_mac[6], const struct eth_sample_dst *dst,
		      const char *tag, uint32_t seq)
{
	uint32_t ip_len = len - 14, payload = len - HDR_LEN, k;
	uint8_t *ip = f + 14, *udp = ip + 20;

	memset(f, 0, len);
	memcpy(f, dst->mac, 6);
	memcpy(f + 6, src_mac, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)(ip_len >> 8), ip[3] = (uint8_t)ip_len;
	ip[8] = 64, ip[9] = 17;
	ip[12] = 192, ip[13] = 168, ip[14] = 1, ip[15] = 1;
	ip[16] = (uint8_t)(dst->ip >> 24), ip[17] = (uint8_t)(dst->ip >> 16);
	ip[18] = (uint8_t)(dst->ip >> 8), ip[19] = (uint8_t)dst->ip;
	udp[0] = 1234 >> 8, udp[1] = 1234 & 0xff;
	udp[2] = (uint8_t)(dst->port >> 8), udp[3] = (uint8_t)dst->port;
	udp[4] = (uint8_t)((ip_len - 20) >> 8), udp[5] = (uint8_t)(ip_len - 20);
	for (k = 0; k < payload; k++)
		udp[8 + k] = (uint8_t)(seq + k);
	snprintf((char *)udp + 8, payload, "%s %u", tag, seq);
}

int eth_sample_dev_alloc(struct eth_sample *s, size_t len, const void *src, void **dev)
{
	void *cpu = NULL;

	if (eth_sample_check(doca_gpu_mem_alloc(s->gpu, len, 4096, s->on_gpu ? DOCA_GPU_MEM_TYPE_GPU : DOCA_GPU_MEM_TYPE_CPU_GPU,
						dev, s->on_gpu ? NULL : &cpu),
			     "doca_gpu_mem_alloc") != 0) {
		*dev = NULL;
		return -1;
	}
	if (src == NULL)
		return 0;
	if (s->on_gpu)
		return ex_cuda_to_dev(*dev, src, len);
	memcpy(cpu, src, len);
	return 0;
}

int eth_sample_mmap(struct eth_sample *s, void *addr, size_t len, struct doca_mmap **mmap, uint32_t *mkey)
{
	uint32_t key = 0;

	if (eth_sample_check(doca_mmap_create(mmap), "doca_mmap_create") != 0) {
		*mmap = NULL;
		return -1;
	}
	if (eth_sample_check(doca_mmap_add_dev(*mmap, s->dev), "doca_mmap_add_dev") != 0 ||
	    eth_sample_check(doca_mmap_set_memrange(*mmap, addr, len), "doca_mmap_set_memrange") != 0 ||
	    eth_sample_check(doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "doca_mmap_set_permissions") ||
	    eth_sample_check(doca_mmap_start(*mmap), "doca_mmap_start") != 0 ||
	    (mkey != NULL && eth_sample_check(doca_mmap_get_mkey(*mmap, s->dev, &key), "doca_mmap_get_mkey") != 0))
		return -1;
	if (mkey != NULL)
		*mkey = key;
	return 0;
}

void eth_sample_mmap_close(struct doca_mmap *mmap)
{
	if (mmap == NULL)
		return;
	(void)doca_mmap_stop(mmap);
	(void)doca_mmap_destroy(mmap);
}

int eth_sample_frames(struct eth_sample *s, uint32_t total, uint32_t len, uint32_t slot,
		      const struct eth_sample_dst *dst, const char *tag)
{
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE] = {0x02, 0, 0, 0, 0, 1};
	size_t bytes = (size_t)total * slot;
	uint8_t *host = calloc(1, bytes);
	uint32_t k, mkey = 0;
	int rc = -1;

	if (host == NULL || len < HDR_LEN + 16 || len > slot) {
		sample_err("frames: %u bytes in %u-byte slots", len, slot);
		goto out;
	}
	(void)doca_devinfo_get_mac_addr(doca_dev_as_devinfo(s->dev), mac, sizeof(mac));
	for (k = 0; k < total; k++)
		udp_frame(host + (size_t)k * slot, len, mac, dst, tag, k);
	if (eth_sample_dev_alloc(s, bytes, host, &s->frames) != 0)
		goto out;
	if (eth_sample_check(doca_gpu_mem_alloc(s->gpu, sizeof(int32_t), 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &s->status_dev,
				     (void **)&s->status_cpu),
		  "doca_gpu_mem_alloc (status)") != 0)
		goto out;
	*s->status_cpu = 1;
	if (eth_sample_mmap(s, s->frames, bytes, &s->mmap, &mkey) != 0)
		goto out;
	s->mkey_be = htonl(mkey);
	rc = 0;
out:
	free(host);
	return rc;
}

static void *proxy_main(void *arg)
{
	struct eth_sample *s = arg;

	while (!atomic_load(&s->proxy_stop)) {
		if (doca_eth_txq_gpu_cpu_proxy_progress(s->txq) != DOCA_SUCCESS) {
			sample_err("doca_eth_txq_gpu_cpu_proxy_progress failed");
			break;
		}
		sample_sleep_us(10);
	}
	return NULL;
}

int eth_sample_txq_make(struct eth_sample *s, uint32_t burst, int wait_on_time, int proxy, struct doca_eth_txq **txq,
			struct doca_gpu_eth_txq **h)
{
	struct doca_ctx *ctx;
	int started = 0;

	*h = NULL;
	if (eth_sample_check(doca_eth_txq_create(s->dev, burst, txq), "doca_eth_txq_create") != 0) {
		*txq = NULL;
		return -1;
	}
	ctx = doca_eth_txq_as_doca_ctx(*txq);
	if (eth_sample_check(doca_eth_txq_set_l3_chksum_offload(*txq, 1), "doca_eth_txq_set_l3_chksum_offload") != 0 ||
	    eth_sample_check(doca_eth_txq_set_l4_chksum_offload(*txq, 1), "doca_eth_txq_set_l4_chksum_offload") != 0 ||
	    eth_sample_check(doca_eth_txq_gpu_set_completion_on_gpu(*txq), "doca_eth_txq_gpu_set_completion_on_gpu") != 0 ||
	    (wait_on_time &&
	     eth_sample_check(doca_eth_txq_set_wait_on_time_offload(*txq), "doca_eth_txq_set_wait_on_time_offload") != 0) ||
	    (proxy && eth_sample_check(doca_eth_txq_gpu_set_uar_on_cpu(*txq), "doca_eth_txq_gpu_set_uar_on_cpu") != 0) ||
	    eth_sample_check(doca_ctx_set_datapath_on_gpu(ctx, s->gpu), "doca_ctx_set_datapath_on_gpu") != 0 ||
	    eth_sample_check(doca_ctx_start(ctx), "doca_ctx_start") != 0 ||
	    (started = 1, eth_sample_check(doca_eth_txq_get_gpu_handle(*txq, h), "doca_eth_txq_get_gpu_handle")) != 0) {
		/* undone here: the caller's close sees nothing (a started queue is stopped before it goes) */
		eth_sample_txq_close(*txq, started);
		*txq = NULL;
		*h = NULL;
		return -1;
	}
	return 0;
}

void eth_sample_txq_close(struct doca_eth_txq *txq, int started)
{
	if (txq == NULL)
		return;
	if (started)
		(void)doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq));
	(void)doca_eth_txq_destroy(txq);
}

int eth_sample_txq(struct eth_sample *s, uint32_t burst, int wait_on_time, int proxy)
{
	if (eth_sample_txq_make(s, burst, wait_on_time, proxy, &s->txq, &s->h) != 0)
		return -1;
	if (proxy) {
		atomic_init(&s->proxy_stop, 0);
		if (pthread_create(&s->proxy_thread, NULL, proxy_main, s) != 0) {
			sample_err("cannot start the CPU proxy thread");
			return -1;
		}
		s->proxy_running = 1;
		sample_info("CPU proxy: a host thread rings the doorbell");
	}
	return 0;
}

void eth_sample_port_stats(struct eth_sample *s)
{
	struct opengda_eth_port_stats st = {0};

	if (opengda_eth_port_get_stats(s->dev, &st) == DOCA_SUCCESS)
		sample_info("port: %llu frames sent, %llu dropped (no interface), %llu refused",
			    (unsigned long long)st.tx_packets, (unsigned long long)st.tx_dropped,
			    (unsigned long long)st.tx_errors);
}

void eth_sample_close(struct eth_sample *s)
{
	if (s->proxy_running) {
		atomic_store(&s->proxy_stop, 1);
		pthread_join(s->proxy_thread, NULL);
	}
	eth_sample_txq_close(s->txq, s->h != NULL);
	eth_sample_mmap_close(s->mmap);
	if (s->status_dev != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->status_dev);
	if (s->frames != NULL)
		(void)doca_gpu_mem_free(s->gpu, s->frames);
	if (s->gpu != NULL)
		(void)doca_gpu_destroy(s->gpu);
	if (s->dev != NULL)
		(void)doca_dev_close(s->dev);
	if (s->list != NULL)
		(void)doca_devinfo_destroy_list(s->list);
	memset(s, 0, sizeof(*s));
}
