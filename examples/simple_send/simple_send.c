/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_simple_send: DOCA's GPUNetIO simple send sample. A DOCA Ethernet send queue with its
 * data path on the GPU (L3/L4 checksum offload, completions polled by the sender), and UDP/IPv4
 * frames sent by every thread of a 2-block kernel in shared-queue mode. Without a usable GPU (or
 * in a build without nvcc) the same sends run on host threads through the device C core.
 *
 *   gpunetio_simple_send [-n DEV] [-g GPU_PCI] [-i IFACE] [-c FRAMES_PER_THREAD] [-s PAYLOAD]
 *                        [-m DST_MAC] [-a DST_IPV4] [-v]
 *
 * -n: the NIC (device name such as swnic0 or mlx5_0, or PCI address; default swnic0).
 * -g: the GPU's PCI address (default: the first GPU, if any).
 * -i: on the software NIC, the Linux interface its Ethernet port sends on (opengda_eth_port_attach;
 *     or OPENGDA_SWNIC_ETH_IFACE). -m / -a: destination MAC (default broadcast) and IPv4
 *     (default 192.168.1.2); the source is 192.168.1.1, UDP ports 1234 -> 5000.
 * Exit status 0 when every frame completed.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/ogda_dev_eth.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_eth_txq.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_gpunetio.h"
#include "doca_mmap.h"
#include "ex_cuda.h"
#include "opengda.h"
#include "opengda_gpunetio.h"
#include "sample_util.h"
#include "simple_send.h"

#define BLOCKS 2u
#define THREADS_PER_BLOCK 32u
#define SLOT 2048u
#define HDR_LEN 42u

struct cfg {
	const char *dev, *gpu, *iface;
	uint32_t per_thread, payload;
	uint8_t dst_mac[6];
	uint32_t dst_ip;
};

struct run {
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	int on_gpu;
	struct doca_eth_txq *txq;
	struct doca_gpu_eth_txq *h;
	struct doca_mmap *mmap;
	void *frames_dev;          /* doca_gpu_mem_alloc'd, GPU memory on a GPU */
	uint8_t *frames_host;
	int32_t *status_cpu;
	void *status_dev;
};

static void usage(void)
{
	fprintf(stderr, "usage: gpunetio_simple_send [-n DEV] [-g GPU_PCI] [-i IFACE] [-c FRAMES_PER_THREAD] "
			"[-s PAYLOAD] [-m DST_MAC] [-a DST_IPV4] [-v]\n");
}

static int parse(int argc, char **argv, struct cfg *c)
{
	uint64_t v;
	struct in_addr a;
	int o;

	*c = (struct cfg){.dev = "swnic0", .per_thread = 4, .payload = 64, .dst_mac = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
			  .dst_ip = 0xc0a80102};
	while ((o = getopt(argc, argv, "n:g:i:c:s:m:a:vh")) != -1) {
		switch (o) {
		case 'n': c->dev = optarg; break;
		case 'g': c->gpu = optarg; break;
		case 'i': c->iface = optarg; break;
		case 'c':
			if (sample_parse_u64("-c", optarg, 1, 128, 0, &v) != 0)
				return -1;
			c->per_thread = (uint32_t)v;
			break;
		case 's':
			if (sample_parse_u64("-s", optarg, 1, SLOT - HDR_LEN, 0, &v) != 0)
				return -1;
			c->payload = (uint32_t)v;
			break;
		case 'm':
			if (sscanf(optarg, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &c->dst_mac[0], &c->dst_mac[1], &c->dst_mac[2],
				   &c->dst_mac[3], &c->dst_mac[4], &c->dst_mac[5]) != 6) {
				sample_err("-m %s: not a MAC address", optarg);
				return -1;
			}
			break;
		case 'a':
			if (inet_pton(AF_INET, optarg, &a) != 1) {
				sample_err("-a %s: not an IPv4 address", optarg);
				return -1;
			}
			c->dst_ip = ntohl(a.s_addr);
			break;
		case 'v': (void)opengda_log_set_level(6); break;
		default: usage(); return -1;
		}
	}
	return 0;
}

/* One UDP/IPv4 frame with zero checksums (the queue offloads both). */
static void build_frame(uint8_t *f, const struct cfg *c, const uint8_t src_mac[6], uint32_t seq)
{
	uint32_t ip_len = 20 + 8 + c->payload, k;
	uint8_t *ip = f + 14, *udp = ip + 20;

	memset(f, 0, HDR_LEN + c->payload);
	memcpy(f, c->dst_mac, 6);
	memcpy(f + 6, src_mac, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)(ip_len >> 8);
	ip[3] = (uint8_t)ip_len;
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 192, ip[13] = 168, ip[14] = 1, ip[15] = 1;
	ip[16] = (uint8_t)(c->dst_ip >> 24), ip[17] = (uint8_t)(c->dst_ip >> 16);
	ip[18] = (uint8_t)(c->dst_ip >> 8), ip[19] = (uint8_t)c->dst_ip;
	udp[0] = 1234 >> 8, udp[1] = 1234 & 0xff;
	udp[2] = 5000 >> 8, udp[3] = 5000 & 0xff;
	udp[4] = (uint8_t)((8 + c->payload) >> 8), udp[5] = (uint8_t)(8 + c->payload);
	for (k = 0; k < c->payload; k++)
		udp[8 + k] = (uint8_t)(seq + k);
	snprintf((char *)udp + 8, c->payload, "frame %u", seq);
}

static int open_dev(struct run *r, const struct cfg *c)
{
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE], pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint32_t n = 0, i;
	doca_error_t err = doca_devinfo_create_list(&r->list, &n);

	if (err != DOCA_SUCCESS) {
		sample_err_doca("doca_devinfo_create_list", err);
		return -1;
	}
	for (i = 0; i < n; i++) {
		pci[0] = '\0';
		if (doca_devinfo_get_ibdev_name(r->list[i], name, sizeof(name)) != DOCA_SUCCESS)
			continue;
		(void)doca_devinfo_get_pci_addr_str(r->list[i], pci);
		if (strcmp(name, c->dev) == 0 || strcmp(pci, c->dev) == 0) {
			err = doca_dev_open(r->list[i], &r->dev);
			if (err != DOCA_SUCCESS) {
				sample_err_doca("doca_dev_open", err);
				return -1;
			}
			return 0;
		}
	}
	sample_err("-n %s: no such device", c->dev);
	return -1;
}

static int open_gpu(struct run *r, const struct cfg *c)
{
	struct ex_gpu_desc d;
	char why[256];
	doca_error_t err;

	if (ex_cuda_open(c->gpu, &d, why, sizeof(why)) == 0) {
		err = doca_gpu_create(d.bus_id, &r->gpu);
		if (err == DOCA_SUCCESS) {
			r->on_gpu = 1;
			sample_info("GPU %s (%s): the frames are sent by a CUDA kernel", d.bus_id, d.name);
			return 0;
		}
		snprintf(why, sizeof(why), "doca_gpu_create(%s): %s", d.bus_id, doca_error_get_descr(err));
	}
	sample_info("no GPU (%s): the frames are sent by host threads", why);
	err = opengda_gpu_create_host(&r->gpu);
	if (err != DOCA_SUCCESS) {
		sample_err_doca("opengda_gpu_create_host", err);
		return -1;
	}
	return 0;
}

static int check(doca_error_t err, const char *what)
{
	if (err != DOCA_SUCCESS)
		sample_err_doca(what, err);
	return err == DOCA_SUCCESS ? 0 : -1;
}

/* Frames (GPU memory on a GPU) registered with the NIC, and the status word. */
static int make_frames(struct run *r, const struct cfg *c, uint32_t total)
{
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE] = {0x02, 0, 0, 0, 0, 1};
	size_t len = (size_t)total * SLOT;
	uint32_t k;

	(void)doca_devinfo_get_mac_addr(doca_dev_as_devinfo(r->dev), mac, sizeof(mac));
	r->frames_host = calloc(1, len);
	if (r->frames_host == NULL)
		return -1;
	for (k = 0; k < total; k++)
		build_frame(r->frames_host + (size_t)k * SLOT, c, mac, k);
	if (r->on_gpu) {
		if (check(doca_gpu_mem_alloc(r->gpu, len, 4096, DOCA_GPU_MEM_TYPE_GPU, &r->frames_dev, NULL),
			  "doca_gpu_mem_alloc (frames)") != 0 ||
		    ex_cuda_to_dev(r->frames_dev, r->frames_host, len) != 0)
			return -1;
	} else {
		void *cpu = NULL;

		if (check(doca_gpu_mem_alloc(r->gpu, len, 4096, DOCA_GPU_MEM_TYPE_CPU_GPU, &r->frames_dev, &cpu),
			  "doca_gpu_mem_alloc (frames)") != 0)
			return -1;
		memcpy(cpu, r->frames_host, len);
	}
	if (check(doca_gpu_mem_alloc(r->gpu, sizeof(int32_t), 64, DOCA_GPU_MEM_TYPE_CPU_GPU, &r->status_dev,
				     (void **)&r->status_cpu),
		  "doca_gpu_mem_alloc (status)") != 0)
		return -1;
	*r->status_cpu = 1;
	if (check(doca_mmap_create(&r->mmap), "doca_mmap_create") != 0 ||
	    check(doca_mmap_add_dev(r->mmap, r->dev), "doca_mmap_add_dev") != 0 ||
	    check(doca_mmap_set_memrange(r->mmap, r->frames_dev, len), "doca_mmap_set_memrange") != 0 ||
	    check(doca_mmap_set_permissions(r->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "doca_mmap_set_permissions") != 0)
		return -1;
	return check(doca_mmap_start(r->mmap), "doca_mmap_start");
}

static int make_txq(struct run *r, uint32_t total)
{
	if (check(doca_eth_txq_create(r->dev, total, &r->txq), "doca_eth_txq_create") != 0 ||
	    check(doca_eth_txq_set_l3_chksum_offload(r->txq, 1), "doca_eth_txq_set_l3_chksum_offload") != 0 ||
	    check(doca_eth_txq_set_l4_chksum_offload(r->txq, 1), "doca_eth_txq_set_l4_chksum_offload") != 0 ||
	    check(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(r->txq), r->gpu), "doca_ctx_set_datapath_on_gpu"))
		return -1;
	if (check(doca_ctx_start(doca_eth_txq_as_doca_ctx(r->txq)), "doca_ctx_start") != 0)
		return -1;
	return check(doca_eth_txq_get_gpu_handle(r->txq, &r->h), "doca_eth_txq_get_gpu_handle");
}

struct host_sender {
	const struct simple_send_args *a;
	uint32_t tid;
};

/* A host thread doing what one kernel thread does (thread scope, shared queue). */
static void *host_send(void *arg)
{
	const struct host_sender *s = arg;
	const struct simple_send_args *a = s->a;
	uint32_t k;

	for (k = 0; k < a->per_thread; k++)
		ogda_dev_eth_op_send(a->txq, a->frames + (uint64_t)(s->tid * a->per_thread + k) * a->slot, a->mkey_be,
				     a->frame_len,
				     k == a->per_thread - 1 ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY
							    : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
	return NULL;
}

static int send_host(const struct simple_send_args *a)
{
	pthread_t th[BLOCKS * THREADS_PER_BLOCK];
	struct host_sender s[BLOCKS * THREADS_PER_BLOCK];
	uint32_t i, started = 0, done = 0;
	int rc = 0;

	/* Bound the completion wait (a host handle's device memory is host memory). */
	a->txq->qp.cq_sq.ogda_wait_timeout_ns = 10000000000ull;
	for (i = 0; i < a->threads; i++) {
		s[i] = (struct host_sender){.a = a, .tid = i};
		if (pthread_create(&th[i], NULL, host_send, &s[i]) != 0) {
			sample_err("pthread_create failed");
			rc = -1;
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (rc != 0)
		return rc;
	rc = ogda_dev_eth_poll_completion(a->txq, a->threads, 1, 1, OGDA_DEV_SHARE_GPU, &done);
	*a->status = rc;
	return 0;
}

int main(int argc, char **argv)
{
	struct cfg c;
	struct run r = {0};
	struct simple_send_args a;
	struct opengda_eth_port_stats st = {0};
	uint32_t total = BLOCKS * THREADS_PER_BLOCK, mkey = 0;
	uint64_t ns = 0;
	int rc = 1;

	sample_set_prog("gpunetio_simple_send");
	if (parse(argc, argv, &c) != 0)
		return 2;
	total *= c.per_thread;
	if (open_dev(&r, &c) != 0 || open_gpu(&r, &c) != 0)
		goto out;
	if (c.iface != NULL && check(opengda_eth_port_attach(r.dev, c.iface), "opengda_eth_port_attach") != 0)
		goto out;
	if (make_frames(&r, &c, total) != 0 || make_txq(&r, total) != 0 ||
	    check(doca_mmap_get_mkey(r.mmap, r.dev, &mkey), "doca_mmap_get_mkey") != 0)
		goto out;
	a = (struct simple_send_args){.txq = r.h, .frames = (uint64_t)(uintptr_t)r.frames_dev, .mkey_be = htonl(mkey),
				      .frame_len = HDR_LEN + c.payload, .slot = SLOT, .per_thread = c.per_thread,
				      .threads = BLOCKS * THREADS_PER_BLOCK, .status = r.on_gpu ? r.status_dev : (void *)r.status_cpu};
	if (r.on_gpu) {
		if (ex_cuda_begin() != 0 || simple_send_launch(&a, BLOCKS, THREADS_PER_BLOCK) != 0) {
			sample_err("kernel launch failed: %s", ex_cuda_launch_error());
			goto out;
		}
		if (ex_cuda_end(30, &ns) != 0)
			goto out;
	} else if (send_host(&a) != 0) {
		goto out;
	}
	if (*r.status_cpu != 0) {
		sample_err("the completions report an error (%d)", *r.status_cpu);
		goto out;
	}
	if (opengda_eth_port_get_stats(r.dev, &st) == DOCA_SUCCESS)
		sample_info("port: %llu frames sent, %llu dropped (no interface), %llu refused",
			    (unsigned long long)st.tx_packets, (unsigned long long)st.tx_dropped,
			    (unsigned long long)st.tx_errors);
	printf("gpunetio_simple_send: %u frames of %u bytes sent and completed\n", total, HDR_LEN + c.payload);
	rc = 0;
out:
	if (r.txq != NULL) {
		if (r.h != NULL)
			(void)doca_ctx_stop(doca_eth_txq_as_doca_ctx(r.txq));
		(void)doca_eth_txq_destroy(r.txq);
	}
	if (r.mmap != NULL) {
		(void)doca_mmap_stop(r.mmap);
		(void)doca_mmap_destroy(r.mmap);
	}
	if (r.status_dev != NULL)
		(void)doca_gpu_mem_free(r.gpu, r.status_dev);
	if (r.frames_dev != NULL)
		(void)doca_gpu_mem_free(r.gpu, r.frames_dev);
	free(r.frames_host);
	if (r.gpu != NULL)
		(void)doca_gpu_destroy(r.gpu);
	if (r.dev != NULL)
		(void)doca_dev_close(r.dev);
	if (r.list != NULL)
		(void)doca_devinfo_destroy_list(r.list);
	return rc;
}
