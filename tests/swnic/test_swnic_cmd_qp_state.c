/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The QP state machine: every transition command from every state (legal ones move the QP,
 * illegal ones fail with BAD_QP_STATE and leave it alone), the required attributes of each
 * transition (BAD_PARAM with the syndrome naming the attribute), what each transition
 * records in the QP and reports through QUERY_QP, and opt_param_mask on the optional ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"

static const uint16_t transition_ops[] = {
	PRM_CMD_RST2INIT_QP, PRM_CMD_INIT2INIT_QP, PRM_CMD_INIT2RTR_QP, PRM_CMD_RTR2RTS_QP,
	PRM_CMD_RTS2RTS_QP,  PRM_CMD_SQERR2RTS_QP, PRM_CMD_2ERR_QP,     PRM_CMD_2RST_QP,
};

static const uint8_t states[] = {
	PRM_QP_STATE_RST, PRM_QP_STATE_INIT, PRM_QP_STATE_RTR, PRM_QP_STATE_RTS, PRM_QP_STATE_SQER, PRM_QP_STATE_ERR,
};

/* The state a transition leads to from `from`, or -1 when the IB spec forbids it. */
static int expected_next(uint16_t opcode, uint8_t from)
{
	switch (opcode) {
	case PRM_CMD_RST2INIT_QP:
		return from == PRM_QP_STATE_RST ? PRM_QP_STATE_INIT : -1;
	case PRM_CMD_INIT2INIT_QP:
		return from == PRM_QP_STATE_INIT ? PRM_QP_STATE_INIT : -1;
	case PRM_CMD_INIT2RTR_QP:
		return from == PRM_QP_STATE_INIT ? PRM_QP_STATE_RTR : -1;
	case PRM_CMD_RTR2RTS_QP:
		return from == PRM_QP_STATE_RTR ? PRM_QP_STATE_RTS : -1;
	case PRM_CMD_RTS2RTS_QP:
		return from == PRM_QP_STATE_RTS ? PRM_QP_STATE_RTS : -1;
	case PRM_CMD_SQERR2RTS_QP:
		return from == PRM_QP_STATE_SQER ? PRM_QP_STATE_RTS : -1;
	case PRM_CMD_2ERR_QP:
		return PRM_QP_STATE_ERR;
	case PRM_CMD_2RST_QP:
		return PRM_QP_STATE_RST;
	default:
		return -1;
	}
}

/*
 * A QP in `state`. SQER is entered by the data path (send errors on unreliable QPs), which
 * an RC QP never takes in this model, so the test puts the QP there directly.
 */
static uint32_t qp_in_state(struct cfx *f, uint8_t state)
{
	uint32_t qpn = cfx_qp(f);
	struct swnic_qp *qp;

	switch (state) {
	case PRM_QP_STATE_ERR:
		assert_int_equal(cfx_transition(f, PRM_CMD_2ERR_QP, qpn, NULL), PRM_STATUS_OK);
		break;
	case PRM_QP_STATE_SQER:
		cfx_qp_to(f, qpn, PRM_QP_STATE_RTS);
		qp = swnic_qp_acquire(f->nic, qpn);
		atomic_store(&qp->state, PRM_QP_STATE_SQER);
		swnic_qp_release(qp);
		break;
	default:
		cfx_qp_to(f, qpn, state);
		break;
	}
	assert_int_equal(cfx_qp_state(f, qpn), state);
	return qpn;
}

static void test_every_transition_from_every_state(void **state)
{
	struct cfx *f = *state;
	size_t i, j;

	for (i = 0; i < sizeof(transition_ops) / sizeof(transition_ops[0]); i++) {
		for (j = 0; j < sizeof(states); j++) {
			uint16_t op = transition_ops[i];
			int next = expected_next(op, states[j]);
			uint32_t qpn = qp_in_state(f, states[j]), synd = 0;

			print_message("%s from state %u\n", prm_cmd_opcode_name(op), states[j]);
			if (next >= 0) {
				assert_int_equal(cfx_transition(f, op, qpn, &synd), PRM_STATUS_OK);
				assert_int_equal(cfx_qp_state(f, qpn), next);
			} else {
				assert_int_equal(cfx_transition(f, op, qpn, &synd), PRM_STATUS_BAD_QP_STATE);
				assert_int_equal(synd, SWNIC_SYND_QP_STATE);
				assert_int_equal(cfx_qp_state(f, qpn), states[j]);
			}
			assert_int_equal(cfx_destroy(f, PRM_CMD_DESTROY_QP, qpn, NULL), PRM_STATUS_OK);
		}
	}
}

static void test_unknown_qp(void **state)
{
	struct cfx *f = *state;
	uint32_t synd = 0;
	size_t i;

	for (i = 0; i < sizeof(transition_ops) / sizeof(transition_ops[0]); i++) {
		assert_int_equal(cfx_transition(f, transition_ops[i], SWNIC_QPN_MIN - 1, &synd), PRM_STATUS_BAD_PARAM);
		assert_int_equal(synd, SWNIC_SYND_BAD_QPN);
	}
}

/* Applies mutate to valid parameters of opcode; the QP must refuse with syndrome and stay put. */
static void expect_refused(struct cfx *f, uint32_t qpn, uint16_t opcode, void (*mutate)(struct prm_qpc_params *q),
			   uint32_t syndrome)
{
	struct prm_modify_qp_params p;
	uint8_t before = cfx_qp_state(f, qpn);
	uint32_t synd = 0;

	cfx_modify_params(opcode, qpn, &p);
	mutate(&p.qpc);
	assert_int_equal(cfx_modify(f, &p, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, syndrome);
	assert_int_equal(cfx_qp_state(f, qpn), before);
}

static void no_port(struct prm_qpc_params *q)
{
	q->primary_address_path.vhca_port_num = 0;
}

static void port_2(struct prm_qpc_params *q)
{
	q->primary_address_path.vhca_port_num = 2;
}

static void pkey_beyond_table(struct prm_qpc_params *q)
{
	q->primary_address_path.pkey_index = 128; /* the table has 128 entries */
}

static void atomic_16b(struct prm_qpc_params *q)
{
	q->atomic_mode = PRM_QP_ATOMIC_MODE_UP_TO_16B;
}

static void test_rst2init_required(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = cfx_qp(f);

	expect_refused(f, qpn, PRM_CMD_RST2INIT_QP, no_port, SWNIC_SYND_BAD_PORT);
	expect_refused(f, qpn, PRM_CMD_RST2INIT_QP, port_2, SWNIC_SYND_BAD_PORT);
	expect_refused(f, qpn, PRM_CMD_RST2INIT_QP, pkey_beyond_table, SWNIC_SYND_BAD_PKEY_INDEX);
	expect_refused(f, qpn, PRM_CMD_RST2INIT_QP, atomic_16b, SWNIC_SYND_BAD_ATOMIC_MODE);
	assert_int_equal(cfx_transition(f, PRM_CMD_RST2INIT_QP, qpn, NULL), PRM_STATUS_OK);
}

static void mtu_0(struct prm_qpc_params *q)
{
	q->mtu = 0;
}

static void mtu_6(struct prm_qpc_params *q)
{
	q->mtu = 6;
}

static void mtu_raw(struct prm_qpc_params *q)
{
	q->mtu = PRM_QP_MTU_RAW_ETHERNET;
}

static void msg_31(struct prm_qpc_params *q)
{
	q->log_msg_max = 31;
}

static void no_remote_qpn(struct prm_qpc_params *q)
{
	q->remote_qpn = 0;
}

static void no_rgid(struct prm_qpc_params *q)
{
	memset(q->primary_address_path.rgid_rip, 0, 16);
}

static void gid_index_1(struct prm_qpc_params *q)
{
	q->primary_address_path.src_addr_index = 1;
}

static void rra_5(struct prm_qpc_params *q)
{
	q->log_rra_max = 5;
}

static void sra_5(struct prm_qpc_params *q)
{
	q->log_sra_max = 5;
}

static void test_init2rtr_required(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = qp_in_state(f, PRM_QP_STATE_INIT);

	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, mtu_0, SWNIC_SYND_BAD_MTU);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, mtu_6, SWNIC_SYND_BAD_MTU);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, mtu_raw, SWNIC_SYND_BAD_MTU);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, msg_31, SWNIC_SYND_BAD_MSG_MAX);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, no_remote_qpn, SWNIC_SYND_BAD_REMOTE_QPN);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, no_rgid, SWNIC_SYND_BAD_RGID);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, gid_index_1, SWNIC_SYND_BAD_GID_REF);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, port_2, SWNIC_SYND_BAD_PORT);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, pkey_beyond_table, SWNIC_SYND_BAD_PKEY_INDEX);
	expect_refused(f, qpn, PRM_CMD_INIT2RTR_QP, rra_5, SWNIC_SYND_BAD_RA_MAX);
	/* Nothing of the refused commands stuck. */
	{
		struct swnic_qp *qp = swnic_qp_acquire(f->nic, qpn);

		assert_int_equal(qp->remote_qpn, 0);
		assert_int_equal(qp->mtu, 0);
		swnic_qp_release(qp);
	}
	assert_int_equal(cfx_transition(f, PRM_CMD_INIT2RTR_QP, qpn, NULL), PRM_STATUS_OK);
	expect_refused(f, qpn, PRM_CMD_RTR2RTS_QP, sra_5, SWNIC_SYND_BAD_RA_MAX);
	assert_int_equal(cfx_transition(f, PRM_CMD_RTR2RTS_QP, qpn, NULL), PRM_STATUS_OK);
}

static void test_connect_records_attributes(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = cfx_qp(f);
	struct prm_qpc_params q;
	struct swnic_qp *qp;

	cfx_qp_to(f, qpn, PRM_QP_STATE_RTS);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->port, 1);
	assert_true(qp->rre);
	assert_true(qp->rwe);
	assert_true(qp->rae);
	assert_int_equal(qp->atomic_mode, PRM_QP_ATOMIC_MODE_UP_TO_8B);
	assert_int_equal(qp->mtu, PRM_QP_MTU_4096);
	assert_int_equal(qp->log_msg_max, 30);
	assert_int_equal(qp->remote_qpn, 0x2a5);
	assert_memory_equal(qp->remote_gid, cfx_peer_gid, 16);
	assert_int_equal(qp->next_rcv_psn, 0x100);
	assert_int_equal(qp->min_rnr_nak, 12);
	assert_int_equal(qp->log_rra_max, 4);
	assert_int_equal(qp->retry_count, 7);
	assert_int_equal(qp->rnr_retry, 7);
	assert_int_equal(qp->ack_timeout, 14);
	assert_int_equal(qp->next_send_psn, 0x200);
	assert_int_equal(qp->log_sra_max, 4);
	swnic_qp_release(qp);

	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.state, PRM_QP_STATE_RTS);
	assert_int_equal(q.mtu, PRM_QP_MTU_4096);
	assert_int_equal(q.log_msg_max, 30);
	assert_int_equal(q.remote_qpn, 0x2a5);
	assert_memory_equal(q.primary_address_path.rgid_rip, cfx_peer_gid, 16);
	assert_int_equal(q.primary_address_path.udp_sport, 0xc000);
	assert_int_equal(q.primary_address_path.hop_limit, 64);
	assert_int_equal(q.primary_address_path.ack_timeout, 14);
	assert_int_equal(q.primary_address_path.vhca_port_num, 1);   /* from RST2INIT */
	assert_int_equal(q.next_rcv_psn, 0x100);
	assert_int_equal(q.next_send_psn, 0x200);
	assert_int_equal(q.retry_count, 7);
	assert_int_equal(q.rnr_retry, 7);
	assert_int_equal(q.min_rnr_nak, 12);
	assert_int_equal(q.log_rra_max, 4);
	assert_int_equal(q.log_sra_max, 4);
	assert_int_equal(q.rre, 1);
	assert_int_equal(q.rwe, 1);
	assert_int_equal(q.rae, 1);
	assert_int_equal(q.atomic_mode, PRM_QP_ATOMIC_MODE_UP_TO_8B);
	/* Creation attributes survive the transitions. */
	assert_int_equal(q.pd, f->pdn);
	assert_int_equal(q.log_sq_size, 6);
}

static void test_log_msg_max_zero_means_device_max(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = qp_in_state(f, PRM_QP_STATE_INIT);
	struct prm_modify_qp_params p;
	struct prm_qpc_params q;

	cfx_modify_params(PRM_CMD_INIT2RTR_QP, qpn, &p);
	p.qpc.log_msg_max = 0;
	p.qpc.mtu = PRM_QP_MTU_1024;
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.log_msg_max, 30);
	assert_int_equal(q.mtu, PRM_QP_MTU_1024);
}

static void test_init2init_follows_mask(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = qp_in_state(f, PRM_QP_STATE_INIT), synd = 0;
	struct prm_modify_qp_params p;
	struct swnic_qp *qp;

	/* Only RWE selected: rre stays as RST2INIT set it. */
	cfx_modify_params(PRM_CMD_INIT2INIT_QP, qpn, &p);
	p.opt_param_mask = PRM_QP_OPTPAR_RWE;
	p.qpc.rwe = 0;
	p.qpc.rre = 0;
	p.qpc.primary_address_path.vhca_port_num = 2;   /* not selected: ignored */
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_false(qp->rwe);
	assert_true(qp->rre);
	assert_true(qp->rae);
	assert_int_equal(qp->port, 1);
	swnic_qp_release(qp);
	/* A selected port must exist. */
	p.opt_param_mask = PRM_QP_OPTPAR_PRI_PORT;
	assert_int_equal(cfx_modify(f, &p, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_PORT);
	p.opt_param_mask = PRM_QP_OPTPAR_RRE | PRM_QP_OPTPAR_RAE;
	p.qpc.rae = 0;
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_false(qp->rre);
	assert_false(qp->rae);
	swnic_qp_release(qp);
	assert_int_equal(cfx_qp_state(f, qpn), PRM_QP_STATE_INIT);
}

static void test_rts2rts_and_sqerr2rts_follow_mask(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = qp_in_state(f, PRM_QP_STATE_RTS);
	struct prm_modify_qp_params p;
	struct swnic_qp *qp;

	cfx_modify_params(PRM_CMD_RTS2RTS_QP, qpn, &p);
	p.qpc.primary_address_path.ack_timeout = 20;
	p.qpc.min_rnr_nak = 3;
	p.opt_param_mask = 0;                      /* nothing selected: nothing changes */
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->ack_timeout, 14);
	assert_int_equal(qp->min_rnr_nak, 12);
	swnic_qp_release(qp);
	p.opt_param_mask = PRM_QP_OPTPAR_ACK_TIMEOUT;
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->ack_timeout, 20);
	assert_int_equal(qp->min_rnr_nak, 12);
	swnic_qp_release(qp);
	p.opt_param_mask = PRM_QP_OPTPAR_RNR_TIMEOUT;
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->min_rnr_nak, 3);
	/* Back from SQER with a new RNR timer. */
	atomic_store(&qp->state, PRM_QP_STATE_SQER);
	swnic_qp_release(qp);
	cfx_modify_params(PRM_CMD_SQERR2RTS_QP, qpn, &p);
	p.opt_param_mask = PRM_QP_OPTPAR_RNR_TIMEOUT | PRM_QP_OPTPAR_RWE;
	p.qpc.min_rnr_nak = 9;
	p.qpc.rwe = 0;
	assert_int_equal(cfx_modify(f, &p, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(atomic_load(&qp->state), PRM_QP_STATE_RTS);
	assert_int_equal(qp->min_rnr_nak, 9);
	assert_false(qp->rwe);
	assert_true(qp->rre);
	swnic_qp_release(qp);
}

static void test_2rst_forgets_connection(void **state)
{
	struct cfx *f = *state;
	uint32_t qpn = qp_in_state(f, PRM_QP_STATE_RTS);
	struct prm_qpc_params q;
	struct swnic_qp *qp;
	static const uint8_t zero[16];

	assert_int_equal(cfx_transition(f, PRM_CMD_2RST_QP, qpn, NULL), PRM_STATUS_OK);
	qp = swnic_qp_acquire(f->nic, qpn);
	assert_int_equal(qp->remote_qpn, 0);
	assert_int_equal(qp->mtu, 0);
	assert_memory_equal(qp->remote_gid, zero, 16);
	assert_false(qp->rwe);
	assert_int_equal(qp->port, 0);
	swnic_qp_release(qp);
	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.state, PRM_QP_STATE_RST);
	assert_int_equal(q.remote_qpn, 0);
	assert_memory_equal(q.primary_address_path.rgid_rip, zero, 16);
	assert_int_equal(q.log_sq_size, 6);    /* creation attributes stay */
	/* And it connects again. */
	cfx_qp_to(f, qpn, PRM_QP_STATE_RTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_transition_from_every_state, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_qp, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_rst2init_required, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_init2rtr_required, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_connect_records_attributes, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_log_msg_max_zero_means_device_max, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_init2init_follows_mask, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_rts2rts_and_sqerr2rts_follow_mask, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_2rst_forgets_connection, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
