/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "sc_proto.h"

#include <stdio.h>
#include <string.h>

#include "sample_oob.h"
#include "sample_util.h"

/*
 * HELLO layout:
 *   0 addr u64 | 8 len u32 | 12 rkey u32 | 16 qpn u32 | 20 psn u32 | 24 gid[16] | 40 lid u16
 *  42 mtu u8 | 43 link_layer u8 | 44 op u8 | 45 qp_type u8 | 46 reserved u16 (0)
 *  48 size u32 | 52 iters u32 | 56 seed u64
 */
void sc_hello_encode(const struct sc_hello *h, uint8_t out[SC_HELLO_LEN])
{
	memset(out, 0, SC_HELLO_LEN);
	sample_put_be64(out, h->addr);
	sample_put_be32(out + 8, h->len);
	sample_put_be32(out + 12, h->rkey);
	sample_put_be32(out + 16, h->qpn);
	sample_put_be32(out + 20, h->psn);
	memcpy(out + 24, h->gid.raw, DOCA_VERBS_GID_BYTE_LENGTH);
	sample_put_be16(out + 40, h->lid);
	out[42] = h->mtu;
	out[43] = h->link_layer;
	out[44] = h->op;
	out[45] = h->qp_type;
	sample_put_be32(out + 48, h->size);
	sample_put_be32(out + 52, h->iters);
	sample_put_be64(out + 56, h->seed);
}

void sc_hello_decode(const uint8_t in[SC_HELLO_LEN], struct sc_hello *h)
{
	h->addr = sample_get_be64(in);
	h->len = sample_get_be32(in + 8);
	h->rkey = sample_get_be32(in + 12);
	h->qpn = sample_get_be32(in + 16);
	h->psn = sample_get_be32(in + 20);
	memcpy(h->gid.raw, in + 24, DOCA_VERBS_GID_BYTE_LENGTH);
	h->lid = sample_get_be16(in + 40);
	h->mtu = in[42];
	h->link_layer = in[43];
	h->op = in[44];
	h->qp_type = in[45];
	h->size = sample_get_be32(in + 48);
	h->iters = sample_get_be32(in + 52);
	h->seed = sample_get_be64(in + 56);
}

int sc_hello_check(const struct sc_hello *peer, const struct sc_config *cfg, uint8_t link_layer, const char *peer_role)
{
	if (peer->op != (uint8_t)cfg->op || peer->qp_type != (uint8_t)cfg->qp_type || peer->size != cfg->size ||
	    peer->iters != cfg->iters) {
		sample_err("the %s runs %s x%u of %u bytes (%s), this side %s x%u of %u bytes (%s): give both ends the "
			   "same -ro, -n, -s and -qt",
			   peer_role, sc_op_name((enum sc_op)peer->op), peer->iters, peer->size,
			   sc_qp_type_name(peer->qp_type), sc_op_name(cfg->op), cfg->iters, cfg->size,
			   sc_qp_type_name(cfg->qp_type));
		return -1;
	}
	if (peer->link_layer != link_layer) {
		sample_err("the %s's port is %s, this side's %s: both ends need the same link layer", peer_role,
			   peer->link_layer == 1 ? "InfiniBand" : "Ethernet", link_layer == 1 ? "InfiniBand" : "Ethernet");
		return -1;
	}
	if (peer->mtu > DOCA_VERBS_MTU_SIZE_4K_BYTES) {
		sample_err("the %s reports MTU code %u, which is not 256..4096 bytes", peer_role, peer->mtu);
		return -1;
	}
	if (peer->qpn > 0xffffffu || peer->psn > 0xffffffu) {
		sample_err("the %s reports QP number 0x%x / PSN 0x%x, which do not fit 24 bits", peer_role, peer->qpn,
			   peer->psn);
		return -1;
	}
	if ((uint64_t)peer->len < (uint64_t)cfg->size * cfg->iters) {
		sample_err("the %s's buffer has %u bytes, %llu needed", peer_role, peer->len,
			   (unsigned long long)cfg->size * cfg->iters);
		return -1;
	}
	return 0;
}

void sc_done_encode(const struct sc_done *d, uint8_t out[SC_DONE_LEN])
{
	memset(out, 0, SC_DONE_LEN);
	sample_put_be32(out, d->status);
	sample_put_be32(out + 4, d->verified);
	/* Always NUL-terminated on the wire. */
	snprintf((char *)out + 8, SC_DONE_REASON_LEN, "%.*s", (int)(SC_DONE_REASON_LEN - 1), d->reason);
}

void sc_done_decode(const uint8_t in[SC_DONE_LEN], struct sc_done *d)
{
	d->status = sample_get_be32(in);
	d->verified = sample_get_be32(in + 4);
	memcpy(d->reason, in + 8, SC_DONE_REASON_LEN);
	d->reason[SC_DONE_REASON_LEN - 1] = '\0';
}
