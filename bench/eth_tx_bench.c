/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet send rate of the device data path through the software NIC's port, against a baseline
 * measured in the same run: the same frames written to the same interface with raw AF_PACKET
 * send() calls from one thread. Not a test: it prints figures and ratios.
 *
 * It runs in a network namespace of its own with a veth pair (as tests/eth does). The frames are
 * UDP/IPv4 addressed to a MAC nobody has, so the receiving end drops them at once, and the
 * device path asks for the IPv4 and UDP checksums (the port computes them; the baseline frames
 * carry them precomputed).
 *
 *   build/bin/eth_tx_bench [frames per size]   (default 200000)
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "device/ogda_dev_eth.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_eth_txq.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_mmap.h"
#include "eth/eth_netns.h"
#include "eth_bench_frame.h"
#include "opengda.h"
#include "opengda_gpunetio.h"
#include "swnic/swnic_eth_csum.h"

#define RING 4096u
#define BATCH 1024u   /* a NOTIFY every BATCH frames; at most RING / BATCH batches outstanding */

static double raw_rate(const uint8_t *f, uint32_t len, uint64_t n)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET};
	int s = socket(AF_PACKET, SOCK_RAW, 0);
	uint64_t i, t0, sent = 0;

	sll.sll_ifindex = (int)if_nametoindex(ETH_NETNS_NIC_IF);
	if (s < 0 || bind(s, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		perror("raw socket");
		exit(1);
	}
	t0 = eth_bench_now_ns();
	for (i = 0; i < n; i++)
		sent += send(s, f, len, 0) == (ssize_t)len;
	t0 = eth_bench_now_ns() - t0;
	close(s);
	if (sent != n)
		fprintf(stderr, "baseline: %llu of %llu frames refused\n", (unsigned long long)(n - sent),
			(unsigned long long)n);
	return (double)n / ((double)t0 / 1e9);
}

static double device_rate(struct doca_gpu_eth_txq *h, uint64_t addr, uint32_t mkey_be, uint32_t len, uint64_t n)
{
	uint64_t i, t0, batches = 0, polled = 0;
	uint32_t done;

	t0 = eth_bench_now_ns();
	for (i = 0; i < n; i++) {
		int last = (i + 1) % BATCH == 0 || i + 1 == n;

		ogda_dev_eth_op_send(h, addr, mkey_be, len,
				     last ? DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY : DOCA_GPUNETIO_ETH_SEND_FLAG_NONE,
				     OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL);
		if (!last)
			continue;
		batches++;
		while (batches - polled >= RING / BATCH) { /* keep the ring from overflowing */
			if (ogda_dev_eth_poll_completion(h, 1, 0, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done) != 0) {
				fprintf(stderr, "device path: completion error\n");
				exit(1);
			}
			polled++;
		}
	}
	if (ogda_dev_eth_poll_completion(h, (uint32_t)(batches - polled), 1, 1, OGDA_DEV_SHARE_EXCLUSIVE, &done) != 0) {
		fprintf(stderr, "device path: completion error\n");
		exit(1);
	}
	t0 = eth_bench_now_ns() - t0;
	return (double)n / ((double)t0 / 1e9);
}

int main(int argc, char **argv)
{
	static const uint32_t sizes[] = {64, 512, 1514};
	struct doca_devinfo **list = NULL;
	struct doca_devinfo *info = NULL;
	struct doca_dev *dev = NULL;
	struct doca_gpu *gpu = NULL;
	struct doca_eth_txq *txq = NULL;
	struct doca_gpu_eth_txq *h = NULL;
	struct doca_mmap *m = NULL;
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
	uint32_t count = 0, mkey = 0, i;
	uint8_t *buf = aligned_alloc(4096, 8192);
	char name[64], why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "eth_tx_bench: %s\n", why);
		return 1;
	}
	if (buf == NULL || n == 0 || doca_devinfo_create_list(&list, &count) != DOCA_SUCCESS)
		return 1;
	for (i = 0; i < count; i++)
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, "swnic0") == 0)
			info = list[i];
	if (info == NULL || doca_dev_open(info, &dev) != DOCA_SUCCESS || opengda_gpu_create_host(&gpu) != DOCA_SUCCESS ||
	    opengda_eth_port_attach(dev, ETH_NETNS_NIC_IF) != DOCA_SUCCESS)
		return 1;
	if (doca_mmap_create(&m) != DOCA_SUCCESS || doca_mmap_add_dev(m, dev) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(m, buf, 8192) != DOCA_SUCCESS || doca_mmap_start(m) != DOCA_SUCCESS ||
	    doca_mmap_get_mkey(m, dev, &mkey) != DOCA_SUCCESS)
		return 1;
	if (doca_eth_txq_create(dev, RING, &txq) != DOCA_SUCCESS || doca_eth_txq_set_l3_chksum_offload(txq, 1) ||
	    doca_eth_txq_set_l4_chksum_offload(txq, 1) ||
	    doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(txq), gpu) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)) != DOCA_SUCCESS || doca_eth_txq_get_gpu_handle(txq, &h))
		return 1;
	h->qp.cq_sq.ogda_wait_timeout_ns = 30000000000ull;
	printf("eth_tx_bench: %llu frames per size, one sender thread, software NIC port on a veth\n",
	       (unsigned long long)n);
	printf("%6s %14s %10s %14s %10s %8s\n", "bytes", "raw Mpps", "raw Gb/s", "device Mpps", "dev Gb/s", "ratio");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t len = sizes[i];
		double raw, devr;

		eth_bench_frame(buf, len, (const uint8_t[6]){0x02, 0, 0, 0, 0, 0x99}, 1, 2);
		devr = device_rate(h, (uint64_t)(uintptr_t)buf, htonl(mkey), len, n);
		(void)swnic_eth_csum_fill(buf, len, 0xc0); /* the baseline's frames carry their checksums */
		raw = raw_rate(buf, len, n);
		printf("%6u %14.3f %10.2f %14.3f %10.2f %8.2f\n", len, raw / 1e6, raw * len * 8 / 1e9, devr / 1e6,
		       devr * len * 8 / 1e9, devr / raw);
	}
	(void)doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq));
	(void)doca_eth_txq_destroy(txq);
	(void)doca_mmap_stop(m);
	(void)doca_mmap_destroy(m);
	(void)doca_gpu_destroy(gpu);
	(void)doca_dev_close(dev);
	(void)doca_devinfo_destroy_list(list);
	free(buf);
	return 0;
}
