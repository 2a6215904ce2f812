/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CQ arming rule (docs/swnic.md, "Events").
 *
 * A consumer arms a CQ the mlx5 way: it writes the arm word (sn [29:28], cmd [27:24],
 * ci [23:0]) big-endian to the CQ's doorbell record word 1, then the 8-byte doorbell
 * {BE32(arm word), BE32(cqn)} to its UAR page + 0x20. A NIC sees the UAR write; the model
 * only sees memory, so a CQ with a COMP subscription counts as armed when
 *   (a) its DBR arm word differs from the word it held when the CQ last fired (initially
 *       the word at CREATE_CQ), or
 *   (b) the 8-byte value at its UAR page + 0x20 changed and names its cqn (this catches a
 *       first arm with sn 0 and ci 0, whose DBR word equals the initial 0).
 * The arm's word is the DBR word under (a), the doorbell's word under (b). Armed with
 * consumer index ci, the CQ fires once a CQE exists at an index >= ci (24-bit wrap); a
 * solicited arm (cmd 1) counts only CQEs with the SE bit and error CQEs. Firing disarms:
 * the current DBR word becomes the reference and (b) is forgotten. Commands other than 0
 * (next completion) and 1 (next solicited) arm nothing.
 *
 * Consequence: arming twice with the same word (same sn and ci) after a firing is not
 * seen; mlx5 consumers advance sn after each event (rdma-core, and the DOCA layer, which
 * also starts at sn 1), so this does not arise with them.
 */
#include "swnic/swnic_event.h"

#include "opengda_mlx5.h"

#define ARM_CMD_SHIFT 24u
#define ARM_CMD_MASK 0xfu
#define ARM_CMD_NEXT 0u
#define ARM_CMD_NEXT_SOLICITED 1u
#define INDEX_MASK 0xffffffu          /* CQ indices and ci are 24 bits */
#define NO_ARM_WORD 0xffffffffu       /* no arm word has bits 31:30 set */
#define INDEX_HALF 0x800000u

static uint32_t load_dbr_arm(const struct swnic_cq *cq)
{
	return atomic_load_explicit(&cq->dbr[OPENGDA_MLX5_CQ_ARM_DB], memory_order_acquire);
}

static uint64_t load_uar_arm(const struct swnic_cq *cq)
{
	if (cq->uar == NULL || cq->uar->page == NULL)
		return 0;
	return __atomic_load_n((const uint64_t *)(const void *)(cq->uar->page + SWNIC_UAR_CQ_DB_OFFSET),
			       __ATOMIC_ACQUIRE);
}

/* index >= ci in the 24-bit space of CQ indices. */
static bool index_reaches(uint32_t index, uint32_t ci)
{
	return ((index - ci) & INDEX_MASK) < INDEX_HALF;
}

void swnic_cq_arm_init(struct swnic_cq *cq)
{
	if (cq == NULL || cq->dbr == NULL)
		return;
	cq->arm_ref = load_dbr_arm(cq);
	cq->arm_fired_word = NO_ARM_WORD;
	cq->arm_uar_seen = load_uar_arm(cq);
	cq->arm_by_uar = false;
	cq->arm_uar_word = 0;
	cq->sol_any = false;
	cq->sol_index = 0;
}

void swnic_cq_arm_note_cqe(struct swnic_cq *cq, uint32_t index, bool solicited_or_error)
{
	if (cq == NULL || !solicited_or_error)
		return;
	cq->sol_any = true;
	cq->sol_index = index;
}

bool swnic_cq_arm_check_locked(struct swnic_cq *cq, bool *changed)
{
	uint32_t dbr, word, cmd, ci, produced;
	uint64_t uar;
	bool hit;

	if (changed != NULL)
		*changed = false;
	if (cq == NULL || cq->dbr == NULL)
		return false;
	dbr = load_dbr_arm(cq);
	uar = load_uar_arm(cq);
	if (uar != cq->arm_uar_seen) {
		cq->arm_uar_seen = uar;
		if (changed != NULL)
			*changed = true;
		/*
		 * The doorbell of an arm that already fired (its DBR word was seen first) is late,
		 * not a new arm: the same word does not re-arm (see the rule above).
		 */
		if (opengda_mlx5_cq_uar_arm_cqn(uar) == cq->cqn &&
		    opengda_mlx5_cq_uar_arm_word(uar) != cq->arm_fired_word) {
			cq->arm_by_uar = true;
			cq->arm_uar_word = opengda_mlx5_cq_uar_arm_word(uar);
		}
	}
	if (dbr != cq->arm_ref)
		word = opengda_mlx5_be32toh(dbr);
	else if (cq->arm_by_uar)
		word = cq->arm_uar_word;
	else
		return false;

	cmd = (word >> ARM_CMD_SHIFT) & ARM_CMD_MASK;
	ci = word & INDEX_MASK;
	if (cmd == ARM_CMD_NEXT_SOLICITED) {
		hit = cq->sol_any && index_reaches(cq->sol_index, ci);
	} else if (cmd == ARM_CMD_NEXT) {
		produced = atomic_load_explicit(&cq->produced, memory_order_relaxed);
		hit = produced != 0 && index_reaches(produced - 1u, ci);
	} else {
		return false;
	}
	if (!hit)
		return false;
	cq->arm_ref = dbr;
	cq->arm_fired_word = word;
	cq->arm_by_uar = false;
	if (changed != NULL)
		*changed = true;
	return true;
}
