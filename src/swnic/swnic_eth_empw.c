/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Enhanced multi-packet send (ENHANCED_MPSW, opcode 0x29) on an Ethernet SQ: one WQE, one frame
 * per data segment, each leaving through the port's ordinary transmit path (swnic_eth.c) with
 * the Ethernet segment's checksum flags. The engine's requester (swnic_exec_req.c) hands the
 * decoded WQE here and turns the result into the WQE's completion.
 *
 * Packets go in segment order. Each pointer segment's lkey is checked (and its MR held) as a
 * SEND's is, just before that packet: a bad key ends the WQE there with LOCAL_PROT, the packets
 * before it having left and none after it leaving. The reference does not say what a ConnectX
 * does with the earlier packets of a failing eMPW; a NIC streams the packets of a WQE out as it
 * fetches them, so it cannot take them back either (docs/ethernet.md).
 */
#include "swnic/swnic.h"

#include "core/log.h"
#include "opengda_mlx5.h"
#include "prm/prm_wqe.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_mem_access.h"

#include <stdlib.h>

/* The vendor reason of a failed key check (the syndrome is LOCAL_PROT), as for a SEND. */
static uint8_t key_vendor(doca_error_t rc)
{
	if (rc == DOCA_ERROR_INVALID_VALUE)
		return SWNIC_VSYND_LKEY_RANGE;
	return SWNIC_VSYND_BAD_LKEY;
}

/* Sends the packet of pointer segment d: its MR held for the send, GPU memory staged in *stage. */
static uint8_t send_pointer(struct swnic_qp *qp, uint8_t cs_flags, const struct prm_wqe_data *d, uint8_t **stage,
			    uint8_t *vendor)
{
	struct swnic_mr_hold h;
	const uint8_t *src = (const uint8_t *)(uintptr_t)d->addr;
	doca_error_t rc;
	uint8_t syndrome;

	rc = swnic_mr_hold(qp->nic, d->lkey, false, qp->pd, d->addr, d->byte_count, 0, &h);
	if (rc != DOCA_SUCCESS) {
		*vendor = key_vendor(rc);
		return OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
	}
	if (h.mr.kind != OGDA_MEM_HOST) {
		uint8_t *buf = realloc(*stage, d->byte_count);

		rc = buf == NULL ? DOCA_ERROR_NO_MEMORY
				 : swnic_mem_copy_held(buf, OGDA_MEM_HOST, src, h.mr.kind, d->byte_count, &h, NULL);
		if (buf != NULL)
			*stage = buf;
		if (rc != DOCA_SUCCESS) {
			swnic_mr_unhold(&h);
			*vendor = rc == DOCA_ERROR_NOT_FOUND ? SWNIC_VSYND_BAD_LKEY : SWNIC_VSYND_LOCAL_COPY;
			return OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
		}
		src = buf;
	}
	syndrome = swnic_eth_transmit(qp->nic, cs_flags, NULL, 0, src, d->byte_count, vendor);
	swnic_mr_unhold(&h);
	return syndrome;
}

uint8_t swnic_eth_empw_send(struct swnic_qp *qp, const struct prm_wqe *w, uint32_t *byte_cnt, uint8_t *vendor)
{
	uint8_t *stage = NULL, syndrome = 0;
	uint64_t total = 0;
	uint32_t i;

	*byte_cnt = 0;
	*vendor = 0;
	if (!qp->allow_multi_pkt_send) {
		/* The SQ was created without sqc.allow_multi_pkt_send_wqe: the NIC rejects the opcode. */
		OGDA_LOG_WARN("%s: SQ 0x%x: ENHANCED_MPSW WQE 0x%x on an SQ created without allow_multi_pkt_send_wqe",
			      qp->nic->name, qp->qpn, (unsigned)w->wqe_index);
		*vendor = SWNIC_VSYND_BAD_OPCODE;
		return OPENGDA_MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	}
	for (i = 0; i < w->ndata && syndrome == 0; i++) {
		const struct prm_wqe_data *d = &w->data[i];

		if (d->byte_count == 0)
			continue; /* an empty segment (the SDK's zero length): no packet */
		if (d->kind == PRM_WQE_DATA_INLINE)
			syndrome = swnic_eth_transmit(qp->nic, w->eth.cs_flags, NULL, 0, w->bytes + d->inline_offset,
						      d->byte_count, vendor);
		else
			syndrome = send_pointer(qp, w->eth.cs_flags, d, &stage, vendor);
		if (syndrome == 0)
			total += d->byte_count;
	}
	free(stage);
	if (syndrome != 0)
		OGDA_LOG_DBG("%s: SQ 0x%x: eMPW WQE 0x%x stopped at packet %u of %u (syndrome 0x%x, vendor 0x%x)",
			     qp->nic->name, qp->qpn, (unsigned)w->wqe_index, i - 1u, w->ndata, syndrome, *vendor);
	else
		*byte_cnt = (uint32_t)total;
	return syndrome;
}
