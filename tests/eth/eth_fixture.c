/* SPDX-License-Identifier: BSD-3-Clause */
#include "eth_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "device/ogda_dev_eth.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

size_t efx_udp_frame(uint8_t *buf, const struct efx_udp *u, const void *payload, size_t n)
{
	uint8_t *ip = buf + 14, *udp = ip + 20;

	memcpy(buf, u->dst_mac, 6);
	memcpy(buf + 6, u->src_mac, 6);
	put16(buf + 12, 0x0800);
	memset(ip, 0, 20);
	ip[0] = 0x45;                          /* IPv4, 20-byte header */
	put16(ip + 2, (uint16_t)(20 + 8 + n)); /* total length */
	put16(ip + 6, 0x4000);                 /* don't fragment */
	ip[8] = 64;                            /* TTL */
	ip[9] = 17;                            /* UDP */
	put32(ip + 12, u->src_ip);
	put32(ip + 16, u->dst_ip);
	put16(udp, u->sport);
	put16(udp + 2, u->dport);
	put16(udp + 4, (uint16_t)(8 + n));
	put16(udp + 6, 0);
	memcpy(udp + 8, payload, n);
	return 14 + 20 + 8 + n;
}

struct doca_eth_txq *efx_txq_start(struct cfx *f, uint32_t burst, unsigned opts, struct doca_gpu_eth_txq **h)
{
	struct doca_eth_txq *t = NULL;

	assert_int_equal(doca_eth_txq_create(f->dev, burst, &t), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_set_l3_chksum_offload(t, (opts & EFX_L3) ? 1 : 0), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_set_l4_chksum_offload(t, (opts & EFX_L4) ? 1 : 0), DOCA_SUCCESS);
	if (opts & EFX_WOT)
		assert_int_equal(doca_eth_txq_set_wait_on_time_offload(t), DOCA_SUCCESS);
	if (opts & EFX_PROXY)
		assert_int_equal(doca_eth_txq_gpu_set_uar_on_cpu(t), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_gpu_set_completion_on_gpu(t), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(t), f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(doca_eth_txq_as_doca_ctx(t)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_get_gpu_handle(t, h), DOCA_SUCCESS);
	/* A host handle's "device" memory is host memory: bound the waits so a defect fails, not hangs. */
	(*h)->qp.cq_sq.ogda_wait_timeout_ns = EFX_WAIT_NS;
	(*h)->qp.ogda_wait_timeout_ns = EFX_WAIT_NS;
	return t;
}

void efx_txq_destroy(struct doca_eth_txq *txq)
{
	assert_int_equal(doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq)), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_destroy(txq), DOCA_SUCCESS);
}

uint64_t efx_post_inline_send(struct doca_gpu_eth_txq *h, const uint8_t *frame, uint32_t len, uint32_t mkey,
			      uint32_t hdr_len, uint16_t hdr_len_field, uint8_t ds_override)
{
	uint8_t wqe[128] = {0};
	struct opengda_mlx5_wqe_eth_seg *eseg = (struct opengda_mlx5_wqe_eth_seg *)(void *)(wqe + 16);
	uint32_t inl_end = 16 + 14 + hdr_len, data_at = (inl_end + 15u) & ~15u;
	uint32_t ds = ds_override ? ds_override : data_at / 16 + 1;
	uint64_t base;
	uint32_t k, nbb = (ds + 3) / 4;

	assert_true(hdr_len >= 2 && data_at + 16 <= sizeof(wqe));
	base = ogda_dev_eth_reserve(h, nbb, OGDA_DEV_SHARE_EXCLUSIVE);
	assert_int_equal(opengda_mlx5_ctrl_seg_write((struct opengda_mlx5_wqe_ctrl_seg *)(void *)wqe, 0, (uint16_t)base,
						     OPENGDA_MLX5_OPCODE_SEND, h->qp.sq_num, (uint8_t)ds,
						     OPENGDA_MLX5_WQE_CTRL_CQ_UPDATE, 0),
			 0);
	assert_int_equal(opengda_mlx5_eth_seg_write(eseg, h->cs_flags), 0);
	eseg->inline_hdr_sz = opengda_mlx5_htobe16(hdr_len_field);
	memcpy(wqe + 16 + 14, frame, hdr_len); /* from inline_hdr_start on */
	assert_int_equal(opengda_mlx5_data_seg_write((struct opengda_mlx5_wqe_data_seg *)(void *)(wqe + data_at),
						     len - hdr_len, mkey, (uint64_t)(uintptr_t)(frame + hdr_len)),
			 0);
	for (k = 0; k < nbb; k++)
		memcpy(ogda_dev_wqe_ptr(&h->qp, base + k), wqe + 64 * k, 64);
	ogda_dev_eth_post(h, base, nbb, OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	return base;
}

uint64_t efx_post_empw(struct doca_gpu_eth_txq *h, uint32_t n, const uint64_t *addr, const uint32_t *len,
		       const uint32_t *mkey_be, uint32_t flags)
{
	uint32_t nbb = ogda_dev_eth_empw_wqebbs(n), k;
	uint64_t base = ogda_dev_eth_reserve(h, nbb, OGDA_DEV_SHARE_EXCLUSIVE);

	for (k = 0; k < n; k++) /* the ctrl segment last: any order builds the same WQE */
		assert_int_equal(ogda_dev_eth_wqe_empw(h, ogda_dev_wqe_ptr(&h->qp, base), base, n, n - 1 - k, addr[n - 1 - k],
						       mkey_be[n - 1 - k], len[n - 1 - k], flags),
				 0);
	ogda_dev_eth_post(h, base, nbb, OGDA_DEV_SHARE_EXCLUSIVE, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO);
	return base;
}

struct doca_mmap *efx_buf_mmap(struct cfx *f, uint32_t *mkey)
{
	struct doca_mmap *m = cfx_mmap(f, 0, CFX_BUF_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);

	assert_int_equal(doca_mmap_get_mkey(m, f->dev, mkey), DOCA_SUCCESS);
	return m;
}

void efx_mmap_destroy(struct doca_mmap *m)
{
	assert_int_equal(doca_mmap_stop(m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(m), DOCA_SUCCESS);
}

void efx_check_req_cqe(const struct doca_gpu_eth_txq *h, const void *cqe, uint16_t wqe_counter, uint32_t byte_cnt,
		       uint8_t opcode)
{
	const struct opengda_mlx5_cqe64 *c = cqe;

	assert_int_equal(c->op_own >> 4, OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(c), wqe_counter);
	assert_int_equal(opengda_mlx5_be32toh(c->byte_cnt), byte_cnt);
	assert_int_equal(opengda_mlx5_be32toh(c->sop_drop_qpn) >> 24, opcode);
	assert_int_equal(opengda_mlx5_be32toh(c->sop_drop_qpn) & 0xffffff, h->qp.sq_num);
}

int efx_udp_listen(uint32_t ip, uint16_t port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(ip)};
	struct timeval tv = {.tv_sec = 5};
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	return s;
}

unsigned long efx_udp_csum_errors(void)
{
	char line[1024], names[1024] = "";
	FILE *f = fopen("/proc/net/snmp", "r");
	unsigned long v = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "Udp:", 4) != 0)
			continue;
		if (names[0] == '\0') {
			snprintf(names, sizeof(names), "%s", line);
			continue;
		}
		/* The values line: walk both lines to the InCsumErrors column. */
		char *sn = NULL, *sv = NULL;
		char *tn = strtok_r(names, " \n", &sn), *tv = strtok_r(line, " \n", &sv);

		while (tn != NULL && tv != NULL && strcmp(tn, "InCsumErrors") != 0) {
			tn = strtok_r(NULL, " \n", &sn);
			tv = strtok_r(NULL, " \n", &sv);
		}
		if (tn != NULL && tv != NULL)
			v = strtoul(tv, NULL, 10);
		break;
	}
	fclose(f);
	return v;
}
