/* SPDX-License-Identifier: BSD-3-Clause */
#include "test_prm_qp_expect.h"

#include <string.h>

#define Q(member, dw, hi, lo)                                                                      \
	{#member, offsetof(struct prm_qpc_params, member), sizeof(((struct prm_qpc_params *)0)->member), \
	 QP_EXPECT_BITS, (dw), (hi), (lo), 0, 0}
#define PA(member, dw, hi, lo)                                                                     \
	{"primary_address_path." #member, offsetof(struct prm_qpc_params, primary_address_path.member),   \
	 sizeof(((struct prm_qpc_params *)0)->primary_address_path.member), QP_EXPECT_BITS, (dw), (hi),   \
	 (lo), 0, 0}
#define SA(member, dw, hi, lo)                                                                     \
	{"secondary_address_path." #member, offsetof(struct prm_qpc_params, secondary_address_path.member), \
	 sizeof(((struct prm_qpc_params *)0)->secondary_address_path.member), QP_EXPECT_BITS, (dw), (hi),   \
	 (lo), 0, 0}
#define BYTES(path, member, byte, n)                                                               \
	{(path), offsetof(struct prm_qpc_params, member), (n), QP_EXPECT_BYTES, 0, 0, 0, (byte), (n)}

/* Absolute positions; the qpc starts at byte 0x18 = dw6. */
const struct qp_expect qp_expect_qpc[] = {
	Q(state, 6, 31, 28),
	Q(st, 6, 23, 16),              /* B.9: 0x19 dw6 [23:16] */
	Q(pm_state, 6, 12, 11),        /* B.9: 0x1a dw6 [12:11] */
	Q(wq_signature, 7, 31, 31),    /* B.9: 0x1c dw7 [31] */
	Q(pd, 7, 23, 0),               /* B.9: 0x1d dw7 [23:0] */
	Q(mtu, 8, 31, 29),             /* B.9: 0x20 [31:29] */
	Q(log_msg_max, 8, 28, 24),     /* B.9: 0x20 [28:24] */
	Q(log_rq_size, 8, 22, 19),     /* B.9: 0x21 dw8 [22:19] */
	Q(log_rq_stride, 8, 18, 16),   /* B.9: 0x21 dw8 [18:16] */
	Q(no_sq, 8, 15, 15),           /* B.9: 0x22 dw8 [15] */
	Q(log_sq_size, 8, 14, 11),     /* B.9: 0x22 dw8 [14:11] */
	Q(ts_format, 8, 7, 6),         /* B.9: 0x23 dw8 [7:6] */
	Q(counter_set_id, 9, 31, 24),  /* B.9: 0x24 dw9 [31:24] */
	Q(uar_page, 9, 23, 0),         /* B.9: 0x25 dw9 [23:0] */
	Q(send_dbr_mode, 10, 31, 30),  /* B.9: 0x28 dw10 [31:30] */
	Q(user_index, 10, 23, 0),      /* B.9: 0x29 dw10 [23:0] */
	Q(log_page_size, 11, 28, 24),  /* B.9: 0x2c dw11 [28:24] */
	Q(remote_qpn, 11, 23, 0),      /* B.9: 0x2d */
	/* Primary address path at byte 0x30 = dw12. */
	PA(fl, 12, 31, 31),
	PA(free_ar, 12, 30, 30),
	PA(pkey_index, 12, 15, 0),     /* B.9: 0x32 */
	PA(grh, 13, 23, 23),           /* B.9: 0x35 [23] */
	PA(mlid, 13, 22, 16),          /* B.9: 0x35 [22:16] */
	PA(rlid, 13, 15, 0),           /* B.9: 0x36 */
	PA(ack_timeout, 14, 31, 27),   /* B.9: 0x38 [31:27] */
	PA(src_addr_index, 14, 23, 16), /* B.9: 0x39 */
	PA(stat_rate, 14, 11, 8),
	PA(hop_limit, 14, 7, 0),       /* B.9: 0x3b */
	PA(tclass, 15, 27, 20),        /* B.9: 0x3c [27:20] */
	PA(flow_label, 15, 19, 0),
	BYTES("primary_address_path.rgid_rip", primary_address_path.rgid_rip, 0x40, 16), /* B.9: 0x40, 16 B */
	PA(f_dscp, 20, 27, 27),
	PA(f_ecn, 20, 26, 26),
	PA(f_eth_prio, 20, 24, 24),
	PA(ecn, 20, 23, 22),
	PA(dscp, 20, 21, 16),          /* B.9: 0x51 [21:16] */
	PA(udp_sport, 20, 15, 0),      /* B.9: 0x52 */
	PA(dei_cfi, 21, 31, 31),
	PA(eth_prio, 21, 30, 28),      /* B.9: 0x54 [30:28] */
	PA(sl, 21, 27, 24),            /* B.9: 0x54 [27:24] */
	PA(vhca_port_num, 21, 23, 16), /* B.9: 0x55 */
	/* rmac_47_32 is bytes 0x56-0x57 and rmac_31_0 bytes 0x58-0x5b: one contiguous MAC. */
	BYTES("primary_address_path.rmac", primary_address_path.rmac, 0x56, 6),
	/* Secondary address path at byte 0x5c = dw23. */
	SA(fl, 23, 31, 31),
	SA(free_ar, 23, 30, 30),
	SA(pkey_index, 23, 15, 0),
	SA(grh, 24, 23, 23),
	SA(mlid, 24, 22, 16),
	SA(rlid, 24, 15, 0),
	SA(ack_timeout, 25, 31, 27),
	SA(src_addr_index, 25, 23, 16),
	SA(stat_rate, 25, 11, 8),
	SA(hop_limit, 25, 7, 0),
	SA(tclass, 26, 27, 20),
	SA(flow_label, 26, 19, 0),
	BYTES("secondary_address_path.rgid_rip", secondary_address_path.rgid_rip, 0x6c, 16),
	SA(f_dscp, 31, 27, 27),
	SA(f_ecn, 31, 26, 26),
	SA(f_eth_prio, 31, 24, 24),
	SA(ecn, 31, 23, 22),
	SA(dscp, 31, 21, 16),
	SA(udp_sport, 31, 15, 0),
	SA(dei_cfi, 32, 31, 31),
	SA(eth_prio, 32, 30, 28),
	SA(sl, 32, 27, 24),
	SA(vhca_port_num, 32, 23, 16),
	BYTES("secondary_address_path.rmac", secondary_address_path.rmac, 0x82, 6),
	Q(log_ack_req_freq, 34, 31, 28), /* B.9: 0x88 [31:28] */
	Q(log_sra_max, 34, 23, 21),    /* B.9: 0x89 [23:21] */
	Q(retry_count, 34, 18, 16),    /* B.9: 0x89 [18:16] */
	Q(rnr_retry, 34, 15, 13),      /* B.9: 0x8a [15:13] */
	Q(cur_rnr_retry, 34, 10, 8),
	Q(cur_retry_count, 34, 7, 5),
	Q(next_send_psn, 36, 23, 0),   /* B.9: 0x91 */
	Q(cqn_snd, 37, 23, 0),         /* B.9: 0x95 dw37 [23:0] */
	Q(last_acked_psn, 40, 23, 0),
	Q(log_rra_max, 42, 23, 21),    /* B.9: 0xa9 [23:21] */
	Q(atomic_mode, 42, 19, 16),    /* B.9: 0xa9 dw42 [19:16] */
	Q(rre, 42, 15, 15),            /* B.9: 0xaa bit 15 */
	Q(rwe, 42, 14, 14),            /* B.9: 0xaa bit 14 */
	Q(rae, 42, 13, 13),            /* B.9: 0xaa bit 13 */
	Q(page_offset, 42, 11, 6),
	Q(cd_slave_receive, 42, 2, 2),
	Q(cd_slave_send, 42, 1, 1),
	Q(cd_master, 42, 0, 0),
	Q(min_rnr_nak, 43, 28, 24),    /* B.9: 0xac [28:24] */
	Q(next_rcv_psn, 43, 23, 0),    /* B.9: 0xad */
	Q(cqn_rcv, 45, 23, 0),         /* B.9: 0xb5 dw45 [23:0] */
	Q(dbr_addr, 46, 63, 0),        /* B.9: 0xb8, 64 bit */
	Q(q_key, 48, 31, 0),
	Q(rq_type, 49, 26, 24),        /* B.9: 0xc4 dw49 [26:24] */
	Q(srqn_rmpn_xrqn, 49, 23, 0),  /* B.9: 0xc5 dw49 [23:0] */
	Q(hw_sq_wqebb_counter, 51, 31, 16),
	Q(sw_sq_wqebb_counter, 51, 15, 0),
	Q(hw_rq_counter, 52, 31, 0),
	Q(sw_rq_counter, 53, 31, 0),
	Q(cs_req, 55, 15, 8),          /* B.9: 0xde */
	Q(cs_res, 55, 7, 0),           /* B.9: 0xdf */
	Q(dbr_umem_valid, 58, 28, 28), /* B.9: 0xe8 dw58 [28] */
	Q(dbr_umem_id, 63, 31, 0),     /* B.9: 0xfc dw63 */
};

const size_t qp_expect_qpc_count = sizeof(qp_expect_qpc) / sizeof(qp_expect_qpc[0]);

const struct qp_expect *qp_expect_find(const char *path)
{
	size_t i;

	for (i = 0; i < qp_expect_qpc_count; i++)
		if (strcmp(qp_expect_qpc[i].path, path) == 0)
			return &qp_expect_qpc[i];
	return NULL;
}

unsigned qp_expect_width(const struct qp_expect *e)
{
	return e->kind == QP_EXPECT_BYTES ? e->nbytes * 8u : e->hi - e->lo + 1u;
}

uint64_t qp_expect_ones(const struct qp_expect *e)
{
	unsigned w = qp_expect_width(e);

	return w >= 64 ? ~0ull : (1ull << w) - 1u;
}

static uint32_t be32_load(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void be32_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void img_set(uint8_t *img, unsigned dw, unsigned hi, unsigned lo, uint64_t value)
{
	unsigned width = hi - lo + 1u;
	uint32_t mask, word;

	if (width == 64) {
		be32_store(img + dw * 4u, (uint32_t)(value >> 32));
		be32_store(img + dw * 4u + 4u, (uint32_t)value);
		return;
	}
	mask = (width == 32 ? 0xffffffffu : ((1u << width) - 1u)) << lo;
	word = be32_load(img + dw * 4u);
	word = (word & ~mask) | (((uint32_t)value << lo) & mask);
	be32_store(img + dw * 4u, word);
}

void img_put(uint8_t *img, const struct qp_expect *e, uint64_t value, const uint8_t *bytes)
{
	if (e->kind == QP_EXPECT_BYTES)
		memcpy(img + e->byte, bytes, e->nbytes);
	else
		img_set(img, e->dw, e->hi, e->lo, value);
}

void qpc_member_store(struct prm_qpc_params *qpc, const struct qp_expect *e, uint64_t value, const uint8_t *bytes)
{
	uint8_t *m = (uint8_t *)qpc + e->off;
	uint8_t u8 = (uint8_t)value;
	uint16_t u16 = (uint16_t)value;
	uint32_t u32 = (uint32_t)value;

	if (e->kind == QP_EXPECT_BYTES) {
		memcpy(m, bytes, e->nbytes);
		return;
	}
	switch (e->size) {
	case 1:
		memcpy(m, &u8, 1);
		break;
	case 2:
		memcpy(m, &u16, 2);
		break;
	case 4:
		memcpy(m, &u32, 4);
		break;
	default:
		memcpy(m, &value, 8);
		break;
	}
}

void qpc_member_copy(struct prm_qpc_params *dst, const struct prm_qpc_params *src, const struct qp_expect *e)
{
	memcpy((uint8_t *)dst + e->off, (const uint8_t *)src + e->off, e->size);
}

void qpc_fill_ones(struct prm_qpc_params *qpc)
{
	static const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	size_t i;

	for (i = 0; i < qp_expect_qpc_count; i++)
		qpc_member_store(qpc, &qp_expect_qpc[i], qp_expect_ones(&qp_expect_qpc[i]), ff);
}

void img_put_ones(uint8_t *img, const struct qp_expect *e)
{
	static const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	img_put(img, e, qp_expect_ones(e), ff);
}
