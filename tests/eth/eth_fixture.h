/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fixture of the Ethernet tests: the DOCA Core fixture (swnic0 opened with doca_dev_open, a host
 * GPU handle, a host buffer) plus a started doca_eth_txq whose device handle host threads post
 * through (include/device/ogda_dev_eth.h), and UDP frame building. Every helper asserts (cmocka).
 * Run with OPENGDA_SWNIC_ADDR= and OPENGDA_DISABLE_CUDA=1 (tests/eth/CMakeLists.txt).
 */
#ifndef OGDA_TESTS_ETH_ETH_FIXTURE_H_
#define OGDA_TESTS_ETH_ETH_FIXTURE_H_

#include "doca_core/core_fixture.h"
#include "doca_ctx.h"
#include "doca_eth_txq.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_gpunetio_eth_def.h"

#include <stddef.h>
#include <stdint.h>

#define EFX_WAIT_NS 5000000000ull /* bound of every device-side wait: 5 s (sanitized runs are slow) */

/* Endpoints of a UDP/IPv4 frame (addresses and ports in host order). */
struct efx_udp {
	uint8_t dst_mac[6], src_mac[6];
	uint32_t src_ip, dst_ip;
	uint16_t sport, dport;
};

/*
 * Writes an Ethernet + IPv4 + UDP frame carrying n payload bytes into buf and returns its length.
 * The IPv4 and UDP checksums are left 0 (the NIC writes them when the queue offloads them).
 */
size_t efx_udp_frame(uint8_t *buf, const struct efx_udp *u, const void *payload, size_t n);

/* Options of efx_txq_start. */
enum efx_opt {
	EFX_L3 = 1u << 0,  /* IPv4 header checksum offload */
	EFX_L4 = 1u << 1,  /* TCP / UDP checksum offload */
	EFX_WOT = 1u << 2, /* wait-on-time enabled */
	EFX_PROXY = 1u << 3, /* CPU proxy: the test rings through doca_eth_txq_gpu_cpu_proxy_progress */
};

/*
 * A started send queue on f's device, data path on f's host GPU handle, with the given burst and
 * options (enum efx_opt); *h is its device handle, with waits bounded by EFX_WAIT_NS.
 */
struct doca_eth_txq *efx_txq_start(struct cfx *f, uint32_t burst, unsigned opts, struct doca_gpu_eth_txq **h);
/*
 * Posts one SEND built by hand on the host (what the device API does not write): the frame's
 * first hdr_len bytes inline in the Ethernet segment (inline_hdr_sz = hdr_len_field, normally
 * hdr_len), the rest from one data segment; DS = ds_override when non-zero. CE always.
 * Returns the WQE index.
 */
uint64_t efx_post_inline_send(struct doca_gpu_eth_txq *h, const uint8_t *frame, uint32_t len, uint32_t mkey,
			      uint32_t hdr_len, uint16_t hdr_len_field, uint8_t ds_override);

/*
 * Posts one enhanced multi-packet send of n packets (addr[i], len[i], mkey_be[i] big-endian)
 * through the device C core (ogda_dev_eth_wqe_empw), flags on its ctrl segment. Returns the
 * WQE index.
 */
uint64_t efx_post_empw(struct doca_gpu_eth_txq *h, uint32_t n, const uint64_t *addr, const uint32_t *len,
		       const uint32_t *mkey_be, uint32_t flags);

/* An mmap of f's whole buffer for local read/write on f's device, started; *mkey its key. */
struct doca_mmap *efx_buf_mmap(struct cfx *f, uint32_t *mkey);
/* Stops and destroys it. */
void efx_mmap_destroy(struct doca_mmap *m);
/* Asserts a good requester CQE: REQ, its WQE counter, byte count, and opcode << 24 | SQN. */
void efx_check_req_cqe(const struct doca_gpu_eth_txq *h, const void *cqe, uint16_t wqe_counter, uint32_t byte_cnt,
		       uint8_t opcode);

/* Stops and destroys it. */
void efx_txq_destroy(struct doca_eth_txq *txq);

/* A UDP socket bound to @ip:@port (host order) with a 5 s receive timeout. */
int efx_udp_listen(uint32_t ip, uint16_t port);
/* The kernel's count of UDP datagrams dropped for a bad checksum (/proc/net/snmp, this namespace). */
unsigned long efx_udp_csum_errors(void);

#endif /* OGDA_TESTS_ETH_ETH_FIXTURE_H_ */
