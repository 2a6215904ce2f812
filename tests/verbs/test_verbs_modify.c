/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_verbs_qp_modify / doca_verbs_qp_query on the software NIC: every transition with
 * the documented required and optional attributes, each required attribute missing, each
 * attribute a transition does not take, UC's narrower sets, transitions from the wrong
 * state, CURRENT_STATE, path MTU against the port, the GID table, address types, and what
 * QUERY_QP reads back after each step.
 *
 * Built twice (tests/verbs/CMakeLists.txt): verbs_modify (port MTU 4096) and
 * verbs_modify_mtu1k (VERBS_MODIFY_MTU1K, OPENGDA_SWNIC_MTU=1024): the MTU checks.
 */
#include "verbs_fixture.h"

#include "test_util.h"
#include "verbs/verbs_priv.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char logbuf[16384];

#ifndef VERBS_MODIFY_MTU1K
static const char *const attr_names[18] = {
	"allow_remote_write", "allow_remote_read", "pkey_index",  "min_rnr_timer", "port_num",  "next_state",
	"current_state",      "path_mtu",          "rq_psn",      "sq_psn",        "dest_qp_num", "ack_timeout",
	"retry_cnt",          "rnr_retry",         "ah_attr",     "atomic_mode",   "max_rd_atomic",
	"max_dest_rd_atomic"};
#endif

#define ALL_ATTRS ((1 << 18) - 1)

struct mfx {
	struct vfx f;
	struct doca_verbs_cq *cq;
	struct doca_verbs_qp *qp, *peer;
	uint32_t qpn, peer_qpn;
	struct doca_verbs_ah_attr *ah;
	struct doca_verbs_qp_attr *attr;   /* every field set: any mask finds a value */
	struct doca_verbs_qp_attr *query;
	struct doca_verbs_qp_init_attr *query_init;
};

/* Values the tests apply (distinct from the defaults, so a query proves they arrived). */
#define T_RQ_PSN 0x123456u
#define T_SQ_PSN 0xabcdefu
#define T_MIN_RNR 13u
#define T_ACK_TIMEOUT 17u
#define T_RETRY 5u
#define T_RNR_RETRY 6u
#define T_HOP_LIMIT 33u
#define T_TCLASS 0x28u
#define T_MAX_RD 8u
#define T_MAX_DEST_RD 4u

static void fill_all(struct mfx *m, enum doca_verbs_qp_state next)
{
	struct doca_verbs_qp_attr *a = m->attr;

	assert_int_equal(doca_verbs_qp_attr_set_next_state(a, next), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_atomic_mode(a, DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(a, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(a, 1), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(a, T_MIN_RNR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(a, m->f.port_mtu), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rq_psn(a, T_RQ_PSN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_sq_psn(a, T_SQ_PSN), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_dest_qp_num(a, m->peer_qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ack_timeout(a, T_ACK_TIMEOUT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_retry_cnt(a, T_RETRY), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_rnr_retry(a, T_RNR_RETRY), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(a, m->ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_max_rd_atomic(a, T_MAX_RD), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_max_dest_rd_atomic(a, T_MAX_DEST_RD), DOCA_SUCCESS);
}

static void mfx_open(struct mfx *m, uint32_t qp_type)
{
	memset(m, 0, sizeof(*m));
	vfx_open(&m->f);
	m->cq = vfx_cq(&m->f, 32, NULL, NULL);
	m->qp = vfx_qp(&m->f, qp_type, m->cq, m->cq, 8, 8);
	m->peer = vfx_qp(&m->f, qp_type, m->cq, m->cq, 8, 8);
	assert_int_equal(doca_verbs_qp_get_qpn(m->qp, &m->qpn), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_get_qpn(m->peer, &m->peer_qpn), DOCA_SUCCESS);
	m->ah = vfx_ah(&m->f);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(m->ah, T_HOP_LIMIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_traffic_class(m->ah, T_TCLASS), DOCA_SUCCESS);
	m->attr = vfx_attr();
	m->query = vfx_attr();
	assert_int_equal(doca_verbs_qp_init_attr_create(&m->query_init), DOCA_SUCCESS);
}

static void mfx_close(struct mfx *m)
{
	assert_int_equal(doca_verbs_qp_init_attr_destroy(m->query_init), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(m->query), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_destroy(m->attr), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_destroy(m->ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(m->peer), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_destroy(m->qp), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_cq_destroy(m->cq), DOCA_SUCCESS);
	vfx_close(&m->f);
}

static int setup_rc(void **state)
{
	struct mfx *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return -1;
	mfx_open(m, DOCA_VERBS_QP_TYPE_RC);
	*state = m;
	return 0;
}

#ifndef VERBS_MODIFY_MTU1K
static int setup_uc(void **state)
{
	struct mfx *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return -1;
	mfx_open(m, DOCA_VERBS_QP_TYPE_UC);
	*state = m;
	return 0;
}
#endif

static int teardown(void **state)
{
	struct mfx *m = *state;

	mfx_close(m);
	free(m);
	return 0;
}

/* QUERY_QP; returns the state and checks the mask of filled attributes is every bit. */
static enum doca_verbs_qp_state query(struct mfx *m)
{
	int mask = 0;

	assert_int_equal(doca_verbs_qp_query(m->qp, m->query, m->query_init, &mask), DOCA_SUCCESS);
	assert_int_equal(mask, ALL_ATTRS);
	assert_int_equal(doca_verbs_qp_attr_get_next_state(m->query), doca_verbs_qp_attr_get_current_state(m->query));
	return doca_verbs_qp_attr_get_current_state(m->query);
}

static doca_error_t modify_logged(struct mfx *m, int mask)
{
	doca_error_t err;

	stderr_capture_begin();
	err = doca_verbs_qp_modify(m->qp, m->attr, mask);
	stderr_capture_end(logbuf, sizeof(logbuf));
	return err;
}

static void expect_log(const char *want)
{
	if (strstr(logbuf, want) == NULL)
		fail_msg("log \"%s\" does not say \"%s\"", logbuf, want);
}

#ifndef VERBS_MODIFY_MTU1K

static void check_ah(struct mfx *m)
{
	struct doca_verbs_ah_attr *ah = doca_verbs_qp_attr_get_ah_attr(m->query);
	struct doca_verbs_gid gid;

	assert_non_null(ah);
	gid = doca_verbs_ah_get_gid(ah);
	assert_memory_equal(gid.raw, m->f.gid.raw, sizeof(gid.raw));
	assert_int_equal(doca_verbs_ah_get_addr_type(ah), DOCA_VERBS_ADDR_TYPE_IPv6);
	assert_int_equal(doca_verbs_ah_get_sgid_index(ah), 0);
	assert_int_equal(doca_verbs_ah_get_hop_limit(ah), T_HOP_LIMIT);
	assert_int_equal(doca_verbs_ah_get_traffic_class(ah), T_TCLASS);
}

/* RST -> INIT -> INIT -> RTR -> RTS -> RTS, each step read back from the device. */
static void test_rc_all_transitions_and_query(void **state)
{
	struct mfx *m = *state;

	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RST);

	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(m->query), 1);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(m->query), 1);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_atomic(m->query), DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC);
	assert_int_equal(doca_verbs_qp_attr_get_pkey_index(m->query), 0);
	assert_int_equal(doca_verbs_qp_attr_get_port_num(m->query), 1);

	/* INIT -> INIT: optional only; remote read off, the rest as it was */
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_read(m->attr, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE) | VFX_A(ALLOW_REMOTE_READ)),
			 DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(m->query), 0);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(m->query), 1);
	/* INIT -> INIT with nothing but next_state */
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_qp_attr_set_next_state(m->attr, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC | VFX_A(MAX_DEST_RD_ATOMIC)),
			 DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(m->query), m->peer_qpn);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(m->query), T_RQ_PSN);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(m->query), DOCA_VERBS_MTU_SIZE_4K_BYTES);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(m->query), T_MIN_RNR);
	assert_int_equal(m->query->max_dest_rd_atomic, T_MAX_DEST_RD); /* no public getter */
	check_ah(m);

	assert_int_equal(doca_verbs_qp_attr_set_next_state(m->attr, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RTR2RTS_RC | VFX_A(MAX_QP_RD_ATOMIC)),
			 DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(m->query), T_SQ_PSN);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(m->query), T_RQ_PSN);
	assert_int_equal(doca_verbs_qp_attr_get_ack_timeout(m->query), T_ACK_TIMEOUT);
	assert_int_equal(doca_verbs_qp_attr_get_retry_cnt(m->query), T_RETRY);
	assert_int_equal(doca_verbs_qp_attr_get_rnr_retry(m->query), T_RNR_RETRY);
	assert_int_equal(m->query->max_rd_atomic, T_MAX_RD);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(m->query), m->peer_qpn);
	check_ah(m);

	/* RTS -> RTS: new RNR timer, remote write off */
	assert_int_equal(doca_verbs_qp_attr_set_min_rnr_timer(m->attr, 3), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_allow_remote_write(m->attr, 0), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr,
					      VFX_A(NEXT_STATE) | VFX_A(MIN_RNR_TIMER) | VFX_A(ALLOW_REMOTE_WRITE)),
			 DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(m->query), 3);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(m->query), 0);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(m->query), T_SQ_PSN);
}

/*
 * RTS -> RTS cannot carry a new path on mlx5 (RTS2RTS_QP has no primary address path):
 * refused with NOT_SUPPORTED and a log line saying how to re-path, the QP unchanged; the
 * way it names (through RST) applies the new path.
 */
static void test_rts2rts_path_change_not_supported(void **state)
{
	struct mfx *m = *state;

	vfx_qp_connect(&m->f, m->qp, DOCA_VERBS_QP_TYPE_RC, m->peer_qpn, 1, 2);
	fill_all(m, DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(m->ah, 9), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_traffic_class(m->ah, 0x40), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_set_sl(m->ah, 3), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_A(NEXT_STATE) | VFX_A(AH_ATTR)), DOCA_ERROR_NOT_SUPPORTED);
	expect_log("cannot change the path of a QP in RTS; take it through RST");
	assert_int_equal(modify_logged(m, VFX_A(NEXT_STATE) | VFX_A(AH_ATTR) | VFX_A(MIN_RNR_TIMER)),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_ah_get_hop_limit(doca_verbs_qp_attr_get_ah_attr(m->query)), VFX_HOP_LIMIT);
	assert_int_equal(doca_verbs_ah_get_traffic_class(doca_verbs_qp_attr_get_ah_attr(m->query)), VFX_TRAFFIC_CLASS);
	assert_int_equal(doca_verbs_qp_attr_get_min_rnr_timer(m->query), VFX_MIN_RNR_TIMER); /* nothing applied */

	/* ->RST, ->INIT, ->RTR with the new path, ->RTS */
	fill_all(m, DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RTR2RTS_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_ah_get_hop_limit(doca_verbs_qp_attr_get_ah_attr(m->query)), 9);
	assert_int_equal(doca_verbs_ah_get_traffic_class(doca_verbs_qp_attr_get_ah_attr(m->query)), 0x40);
	assert_int_equal(doca_verbs_ah_get_sl(doca_verbs_qp_attr_get_ah_attr(m->query)), 3);
}

/* ->ERR and ->RST from every state, and back up to RTS again. */
static void test_rc_err_rst_and_back_up(void **state)
{
	static const enum doca_verbs_qp_state from[] = {DOCA_VERBS_QP_STATE_RST, DOCA_VERBS_QP_STATE_INIT,
							DOCA_VERBS_QP_STATE_RTR, DOCA_VERBS_QP_STATE_RTS,
							DOCA_VERBS_QP_STATE_ERR};
	struct mfx *m = *state;

	for (int to_err = 0; to_err < 2; to_err++) {
		for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
			enum doca_verbs_qp_state target = to_err ? DOCA_VERBS_QP_STATE_ERR : DOCA_VERBS_QP_STATE_RST;

			/* reach from[i] */
			fill_all(m, DOCA_VERBS_QP_STATE_RST);
			assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
			if (from[i] != DOCA_VERBS_QP_STATE_RST) {
				if (from[i] == DOCA_VERBS_QP_STATE_ERR) {
					fill_all(m, DOCA_VERBS_QP_STATE_INIT);
					assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC),
							 DOCA_SUCCESS);
					fill_all(m, DOCA_VERBS_QP_STATE_ERR);
					assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)),
							 DOCA_SUCCESS);
				} else {
					fill_all(m, DOCA_VERBS_QP_STATE_INIT);
					assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC),
							 DOCA_SUCCESS);
				}
			}
			if (from[i] == DOCA_VERBS_QP_STATE_RTR || from[i] == DOCA_VERBS_QP_STATE_RTS) {
				fill_all(m, DOCA_VERBS_QP_STATE_RTR);
				assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
			}
			if (from[i] == DOCA_VERBS_QP_STATE_RTS) {
				fill_all(m, DOCA_VERBS_QP_STATE_RTS);
				assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RTR2RTS_RC), DOCA_SUCCESS);
			}
			assert_int_equal(query(m), from[i]);
			/* and leave it */
			fill_all(m, target);
			if (doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)) !=
			    DOCA_SUCCESS)
				fail_msg("%d -> %s refused", (int)from[i], to_err ? "ERR" : "RST");
			assert_int_equal(query(m), target);
		}
	}
	/* From ERR back to RST and up to RTS: a working QP again. */
	fill_all(m, DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
	vfx_qp_connect(&m->f, m->qp, DOCA_VERBS_QP_TYPE_RC, m->peer_qpn, 77, 88);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(m->query), 77);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(m->query), 88);
}

/* Back to RST restarts the rings: the doorbell record reads zero again. */
static void test_rst_clears_doorbell_record(void **state)
{
	struct mfx *m = *state;
	uint32_t *dbr = NULL;

	vfx_qp_connect(&m->f, m->qp, DOCA_VERBS_QP_TYPE_RC, m->peer_qpn, 1, 2);
	assert_int_equal(doca_verbs_qp_get_dbr_addr(m->qp, (void **)&dbr), DOCA_SUCCESS);
	dbr[0] = 0x11223344u; /* as if receives and sends had been posted */
	dbr[1] = 0x55667788u;
	fill_all(m, DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
	assert_int_equal(dbr[0], 0);
	assert_int_equal(dbr[1], 0);
}

/* Drops one required bit at a time from each transition: INVALID, naming it; the state stays. */
static void run_missing_required(struct mfx *m, uint32_t qp_type)
{
	const bool rc = qp_type == DOCA_VERBS_QP_TYPE_RC;
	const struct {
		enum doca_verbs_qp_state next;
		int required;
		const char *name;
	} steps[] = {
		{DOCA_VERBS_QP_STATE_INIT, rc ? VFX_MASK_RST2INIT_RC : VFX_MASK_RST2INIT_UC, "RST->INIT"},
		{DOCA_VERBS_QP_STATE_RTR, rc ? VFX_MASK_INIT2RTR_RC : VFX_MASK_INIT2RTR_UC, "INIT->RTR"},
		{DOCA_VERBS_QP_STATE_RTS, rc ? VFX_MASK_RTR2RTS_RC : VFX_MASK_RTR2RTS_UC, "RTR->RTS"},
	};

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		enum doca_verbs_qp_state before = query(m);

		fill_all(m, steps[s].next);
		for (int bit = 0; bit < 18; bit++) {
			char want[128];

			if (!(steps[s].required & (1 << bit)))
				continue;
			if (modify_logged(m, steps[s].required & ~(1 << bit)) != DOCA_ERROR_INVALID_VALUE)
				fail_msg("%s without %s was not refused", steps[s].name, attr_names[bit]);
			if ((1 << bit) == VFX_A(NEXT_STATE))
				expect_log("must hold DOCA_VERBS_QP_ATTR_NEXT_STATE");
			else {
				snprintf(want, sizeof(want), "%s needs %s in the attribute mask", steps[s].name,
					 attr_names[bit]);
				expect_log(want);
			}
			assert_int_equal(query(m), before);
		}
		assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, steps[s].required), DOCA_SUCCESS);
	}
}

static void test_rc_missing_required(void **state)
{
	run_missing_required(*state, DOCA_VERBS_QP_TYPE_RC);
}

static void test_uc_missing_required(void **state)
{
	run_missing_required(*state, DOCA_VERBS_QP_TYPE_UC);
}

/* Adds one attribute a transition does not take: INVALID, naming it; the state stays. */
static void run_extra_refused(struct mfx *m, uint32_t qp_type)
{
	const bool rc = qp_type == DOCA_VERBS_QP_TYPE_RC;
	const int rc_only = VFX_A(ALLOW_REMOTE_READ) | VFX_A(ATOMIC_MODE) | VFX_A(MIN_RNR_TIMER) | VFX_A(ACK_TIMEOUT) |
			    VFX_A(RETRY_CNT) | VFX_A(RNR_RETRY) | VFX_A(MAX_QP_RD_ATOMIC) | VFX_A(MAX_DEST_RD_ATOMIC);
	const int access = VFX_A(ALLOW_REMOTE_WRITE) | VFX_A(ALLOW_REMOTE_READ) | VFX_A(ATOMIC_MODE);
	const struct {
		enum doca_verbs_qp_state next;
		int required, optional;
		const char *name;
		bool from_rts;
	} steps[] = {
		{DOCA_VERBS_QP_STATE_INIT, VFX_MASK_RST2INIT_RC, 0, "RST->INIT", false},
		{DOCA_VERBS_QP_STATE_INIT, VFX_A(NEXT_STATE), access | VFX_A(PKEY_INDEX) | VFX_A(PORT_NUM), "INIT->INIT", false},
		{DOCA_VERBS_QP_STATE_RTR, VFX_MASK_INIT2RTR_RC, access | VFX_A(PKEY_INDEX) | VFX_A(MAX_DEST_RD_ATOMIC),
		 "INIT->RTR", false},
		{DOCA_VERBS_QP_STATE_RTS, VFX_MASK_RTR2RTS_RC,
		 VFX_A(ALLOW_REMOTE_WRITE) | VFX_A(MIN_RNR_TIMER) | VFX_A(MAX_QP_RD_ATOMIC), "RTR->RTS", false},
		{DOCA_VERBS_QP_STATE_RTS, VFX_A(NEXT_STATE), access | VFX_A(MIN_RNR_TIMER), "RTS->RTS", true},
	};

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		int required = steps[s].required, allowed = steps[s].required | steps[s].optional | VFX_A(CURRENT_STATE);
		enum doca_verbs_qp_state before = query(m);

		if (!rc) {
			required &= ~rc_only;
			allowed &= ~rc_only;
		}
		fill_all(m, steps[s].next);
		assert_int_equal(doca_verbs_qp_attr_set_current_state(m->attr, before), DOCA_SUCCESS);
		for (int bit = 0; bit < 18; bit++) {
			char want[128];

			if (allowed & (1 << bit))
				continue;
			if (steps[s].from_rts && (1 << bit) == VFX_A(AH_ATTR)) {
				/* a new path in RTS: not an mlx5 operation (test_rts2rts_path_change_not_supported) */
				if (modify_logged(m, required | (1 << bit)) != DOCA_ERROR_NOT_SUPPORTED)
					fail_msg("%s with ah_attr was not NOT_SUPPORTED", steps[s].name);
				expect_log("cannot change the path of a QP in RTS");
				assert_int_equal(query(m), before);
				continue;
			}
			if (modify_logged(m, required | (1 << bit)) != DOCA_ERROR_INVALID_VALUE)
				fail_msg("%s with %s was not refused", steps[s].name, attr_names[bit]);
			snprintf(want, sizeof(want), "%s (%s) does not take %s", steps[s].name, rc ? "RC" : "UC",
				 attr_names[bit]);
			expect_log(want);
			assert_int_equal(query(m), before);
		}
		/* every optional one at once is fine, and CURRENT_STATE when it is right */
		assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, allowed), DOCA_SUCCESS);
	}
	/* ->ERR and ->RST take next_state (and current_state) only */
	for (int bit = 0; bit < 18; bit++) {
		if ((1 << bit) == VFX_A(NEXT_STATE) || (1 << bit) == VFX_A(CURRENT_STATE))
			continue;
		fill_all(m, bit & 1 ? DOCA_VERBS_QP_STATE_ERR : DOCA_VERBS_QP_STATE_RST);
		if (modify_logged(m, VFX_A(NEXT_STATE) | (1 << bit)) != DOCA_ERROR_INVALID_VALUE)
			fail_msg("->%s with %s was not refused", bit & 1 ? "ERR" : "RST", attr_names[bit]);
		expect_log(bit & 1 ? "->ERR takes only next_state" : "->RST takes only next_state");
		assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	}
}

static void test_rc_extra_attribute_refused(void **state)
{
	run_extra_refused(*state, DOCA_VERBS_QP_TYPE_RC);
}

/* UC: the RC-only attributes are refused wherever RC would take them. */
static void test_uc_refuses_rc_only(void **state)
{
	run_extra_refused(*state, DOCA_VERBS_QP_TYPE_UC);
}

/* A UC QP goes up with UC's masks and reads back what it was given. */
static void test_uc_connect_and_query(void **state)
{
	struct mfx *m = *state;

	vfx_qp_connect(&m->f, m->qp, DOCA_VERBS_QP_TYPE_UC, m->peer_qpn, 0x10, 0x20);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_qp_init_attr_get_qp_type(m->query_init), DOCA_VERBS_QP_TYPE_UC);
	assert_int_equal(doca_verbs_qp_attr_get_dest_qp_num(m->query), m->peer_qpn);
	assert_int_equal(doca_verbs_qp_attr_get_rq_psn(m->query), 0x10);
	assert_int_equal(doca_verbs_qp_attr_get_sq_psn(m->query), 0x20);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_write(m->query), 1);
	assert_int_equal(doca_verbs_qp_attr_get_allow_remote_read(m->query), 0);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(m->query), m->f.port_mtu);
}

static void test_wrong_state_transitions(void **state)
{
	static const struct {
		enum doca_verbs_qp_state at, to;
		const char *log;
	} cases[] = {
		{DOCA_VERBS_QP_STATE_RST, DOCA_VERBS_QP_STATE_RTR, "cannot go from RST to RTR"},
		{DOCA_VERBS_QP_STATE_RST, DOCA_VERBS_QP_STATE_RTS, "cannot go from RST to RTS"},
		{DOCA_VERBS_QP_STATE_INIT, DOCA_VERBS_QP_STATE_RTS, "cannot go from INIT to RTS"},
		{DOCA_VERBS_QP_STATE_RTR, DOCA_VERBS_QP_STATE_INIT, "cannot go from RTR to INIT"},
		{DOCA_VERBS_QP_STATE_RTR, DOCA_VERBS_QP_STATE_RTR, "cannot go from RTR to RTR"},
		{DOCA_VERBS_QP_STATE_RTS, DOCA_VERBS_QP_STATE_INIT, "cannot go from RTS to INIT"},
		{DOCA_VERBS_QP_STATE_RTS, DOCA_VERBS_QP_STATE_RTR, "cannot go from RTS to RTR"},
		{DOCA_VERBS_QP_STATE_ERR, DOCA_VERBS_QP_STATE_INIT, "cannot go from ERR to INIT"},
		{DOCA_VERBS_QP_STATE_ERR, DOCA_VERBS_QP_STATE_RTS, "cannot go from ERR to RTS"},
	};
	struct mfx *m = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum doca_verbs_qp_state at = cases[i].at;

		fill_all(m, DOCA_VERBS_QP_STATE_RST);
		assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
		if (at != DOCA_VERBS_QP_STATE_RST) {
			fill_all(m, DOCA_VERBS_QP_STATE_INIT);
			assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
		}
		if (at == DOCA_VERBS_QP_STATE_RTR || at == DOCA_VERBS_QP_STATE_RTS) {
			fill_all(m, DOCA_VERBS_QP_STATE_RTR);
			assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
		}
		if (at == DOCA_VERBS_QP_STATE_RTS) {
			fill_all(m, DOCA_VERBS_QP_STATE_RTS);
			assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RTR2RTS_RC), DOCA_SUCCESS);
		}
		if (at == DOCA_VERBS_QP_STATE_ERR) {
			fill_all(m, DOCA_VERBS_QP_STATE_ERR);
			assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_A(NEXT_STATE)), DOCA_SUCCESS);
		}
		fill_all(m, cases[i].to);
		/* the mask that transition would need, were it allowed */
		if (modify_logged(m, ALL_ATTRS & ~VFX_A(CURRENT_STATE)) != DOCA_ERROR_BAD_STATE)
			fail_msg("case %zu: not BAD_STATE", i);
		expect_log(cases[i].log);
		assert_int_equal(query(m), at);
	}
}

static void test_current_state(void **state)
{
	struct mfx *m = *state;

	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_set_current_state(m->attr, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_RST2INIT_RC | VFX_A(CURRENT_STATE)), DOCA_ERROR_BAD_STATE);
	expect_log("is in RST, not INIT as current_state says");
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RST);
	/* without the bit, current_state is not looked at */
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	/* with the right value it passes */
	fill_all(m, DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_set_current_state(m->attr, DOCA_VERBS_QP_STATE_INIT), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC | VFX_A(CURRENT_STATE)), DOCA_SUCCESS);
	/* ->ERR checks it too */
	fill_all(m, DOCA_VERBS_QP_STATE_ERR);
	assert_int_equal(doca_verbs_qp_attr_set_current_state(m->attr, DOCA_VERBS_QP_STATE_RTS), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_A(NEXT_STATE) | VFX_A(CURRENT_STATE)), DOCA_ERROR_BAD_STATE);
	expect_log("is in RTR, not RTS as current_state says");
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
}

static void to_init(struct mfx *m)
{
	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTR);
}

/* The AH must name a GID of the table, an Ethernet address type, and a reachable GID. */
static void test_ah_checks(void **state)
{
	struct mfx *m = *state;
	struct doca_verbs_gid bogus;

	to_init(m);
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(m->ah, 1), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("sgid_index 1 is beyond the GID table of 1 entries");
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(m->ah, 255), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("sgid_index 255 is beyond the GID table of 1 entries");
	assert_int_equal(doca_verbs_ah_attr_set_sgid_index(m->ah, 0), DOCA_SUCCESS);

	assert_int_equal(doca_verbs_ah_attr_set_addr_type(m->ah, DOCA_VERBS_ADDR_TYPE_IB_GRH), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("the port is Ethernet (RoCE): the AH address type must be IPv4 or IPv6");
	assert_int_equal(doca_verbs_ah_attr_set_addr_type(m->ah, DOCA_VERBS_ADDR_TYPE_IB_NO_GRH), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("the port is Ethernet (RoCE): the AH address type must be IPv4 or IPv6");
	assert_int_equal(doca_verbs_ah_attr_set_addr_type(m->ah, DOCA_VERBS_ADDR_TYPE_IPv6), DOCA_SUCCESS);

	/* a RoCE GID that is no software NIC: no next hop */
	memset(&bogus, 0, sizeof(bogus));
	bogus.raw[0] = 0xfe;
	bogus.raw[1] = 0x80;
	bogus.raw[15] = 1;
	assert_int_equal(doca_verbs_ah_attr_set_gid(m->ah, bogus), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("no route to the remote GID (next-hop MAC unresolved)");
	assert_int_equal(doca_verbs_ah_attr_set_gid(m->ah, m->f.gid), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_INIT);

	/* the mask names ah_attr but the attributes hold none */
	{
		struct doca_verbs_qp_attr *bare = vfx_attr();

		assert_int_equal(doca_verbs_qp_attr_set_next_state(bare, DOCA_VERBS_QP_STATE_RTR), DOCA_SUCCESS);
		stderr_capture_begin();
		assert_int_equal(doca_verbs_qp_modify(m->qp, bare, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		expect_log("the mask names ah_attr but none is set");
		assert_int_equal(doca_verbs_qp_attr_destroy(bare), DOCA_SUCCESS);
	}
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
}

/* The QP copied the AH: destroying the caller's AH attributes changes nothing. */
static void test_ah_copied(void **state)
{
	struct mfx *m = *state;
	struct doca_verbs_ah_attr *ah = vfx_ah(&m->f);

	to_init(m);
	assert_int_equal(doca_verbs_ah_attr_set_hop_limit(ah, 99), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_attr_set_ah_attr(m->attr, ah), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_ah_attr_destroy(ah), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTS); /* sets m->ah back: RTR->RTS does not take it */
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RTR2RTS_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTS);
	assert_int_equal(doca_verbs_ah_get_hop_limit(doca_verbs_qp_attr_get_ah_attr(m->query)), 99);
}

/*
 * A transition the device refuses (port 2 of a one-port NIC: BAD_PARAM, syndrome 0x103):
 * the caller gets INVALID_VALUE and the library's log line carries the device's status
 * and syndrome (doca_verbs.h: "device refused: syndrome logged").
 */
static void test_device_refusal_logged(void **state)
{
	struct mfx *m = *state;

	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_set_port_num(m->attr, 2), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_RST2INIT_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("RST->INIT: the device refused it: status BAD_PARAM (0x3), syndrome 0x103");
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RST);
}

/* Every P_Key index below the table size doca_verbs_query_device reports is one a QP may use. */
static void test_pkey_index_within_reported_table(void **state)
{
	struct mfx *m = *state;
	struct doca_verbs_device_attr *da = NULL;
	uint16_t max_pkeys;

	assert_int_equal(doca_verbs_query_device(m->f.ctx, &da), DOCA_SUCCESS);
	max_pkeys = doca_verbs_device_attr_get_max_pkeys(da);
	assert_int_equal(doca_verbs_device_attr_free(da), DOCA_SUCCESS);
	assert_true(max_pkeys >= 1);
	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(m->attr, max_pkeys), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_RST2INIT_RC), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RST);
	assert_int_equal(doca_verbs_qp_attr_set_pkey_index(m->attr, (uint16_t)(max_pkeys - 1u)), DOCA_SUCCESS);
	if (modify_logged(m, VFX_MASK_RST2INIT_RC) != DOCA_SUCCESS)
		fail_msg("pkey_index %u (max_pkeys %u) refused: %s", max_pkeys - 1u, max_pkeys, logbuf);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_get_pkey_index(m->query), max_pkeys - 1u);
}

static void test_limits_and_bad_input(void **state)
{
	struct mfx *m = *state;

	stderr_capture_begin();
	assert_int_equal(doca_verbs_qp_modify(NULL, m->attr, VFX_A(NEXT_STATE)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_verbs_qp_modify(m->qp, NULL, VFX_A(NEXT_STATE)), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	expect_log("verbs_qp and verbs_qp_attr must not be NULL");
	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(modify_logged(m, VFX_MASK_RST2INIT_RC | (1 << 18)), DOCA_ERROR_INVALID_VALUE);
	expect_log("must hold DOCA_VERBS_QP_ATTR_NEXT_STATE and only DOCA_VERBS_QP_ATTR_* bits");
	assert_int_equal(modify_logged(m, -1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(modify_logged(m, 0), DOCA_ERROR_INVALID_VALUE);
	expect_log("must hold DOCA_VERBS_QP_ATTR_NEXT_STATE");
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RST);

	/* outstanding reads above the device's 16 */
	to_init(m);
	assert_int_equal(doca_verbs_qp_attr_set_max_dest_rd_atomic(m->attr, 32), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC | VFX_A(MAX_DEST_RD_ATOMIC)), DOCA_ERROR_INVALID_VALUE);
	expect_log("max_dest_rd_atomic 32 exceed the device's 16 / 16");
	assert_int_equal(doca_verbs_qp_attr_set_max_dest_rd_atomic(m->attr, 16), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC | VFX_A(MAX_DEST_RD_ATOMIC)),
			 DOCA_SUCCESS);
	/* 4K on a 4K port is fine */
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(m->query), DOCA_VERBS_MTU_SIZE_4K_BYTES);
	/* the AH attributes a query fills belong to the QP attributes: not destroyed on their own */
	stderr_capture_begin();
	assert_int_equal(doca_verbs_ah_attr_destroy(doca_verbs_qp_attr_get_ah_attr(m->query)), DOCA_ERROR_INVALID_VALUE);
	stderr_capture_end(logbuf, sizeof(logbuf));
	expect_log("ah_attr destroy: these attributes belong to a qp_attr (destroy the qp_attr)");
	/* query bad input */
	{
		int mask = 0;

		stderr_capture_begin();
		assert_int_equal(doca_verbs_qp_query(NULL, m->query, m->query_init, &mask), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_qp_query(m->qp, NULL, m->query_init, &mask), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_qp_query(m->qp, m->query, NULL, &mask), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(doca_verbs_qp_query(m->qp, m->query, m->query_init, NULL), DOCA_ERROR_INVALID_VALUE);
		stderr_capture_end(logbuf, sizeof(logbuf));
		assert_int_equal(mask, 0);
		expect_log("verbs_qp, verbs_qp_attr, verbs_qp_init_attr and attr_mask must not be NULL");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rc_all_transitions_and_query, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_rts2rts_path_change_not_supported, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_rc_err_rst_and_back_up, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_rst_clears_doorbell_record, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_rc_missing_required, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_uc_missing_required, setup_uc, teardown),
		cmocka_unit_test_setup_teardown(test_rc_extra_attribute_refused, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_uc_refuses_rc_only, setup_uc, teardown),
		cmocka_unit_test_setup_teardown(test_uc_connect_and_query, setup_uc, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_state_transitions, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_current_state, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_ah_checks, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_ah_copied, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_device_refusal_logged, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_pkey_index_within_reported_table, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_limits_and_bad_input, setup_rc, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* VERBS_MODIFY_MTU1K */

/* Port MTU 1K: a path MTU of 2K or 4K is refused, naming both codes; 1K and below pass. */
static void test_path_mtu_above_port(void **state)
{
	struct mfx *m = *state;

	assert_int_equal(m->f.port_mtu, DOCA_VERBS_MTU_SIZE_1K_BYTES);
	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(m->attr, DOCA_VERBS_MTU_SIZE_4K_BYTES), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("path MTU code 4 is above the port's active MTU code 2");
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(m->attr, DOCA_VERBS_MTU_SIZE_2K_BYTES), DOCA_SUCCESS);
	assert_int_equal(modify_logged(m, VFX_MASK_INIT2RTR_RC), DOCA_ERROR_INVALID_VALUE);
	expect_log("path MTU code 3 is above the port's active MTU code 2");
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(m->attr, DOCA_VERBS_MTU_SIZE_1K_BYTES), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(m->query), DOCA_VERBS_MTU_SIZE_1K_BYTES);
}

static void test_path_mtu_smaller_than_port(void **state)
{
	struct mfx *m = *state;

	fill_all(m, DOCA_VERBS_QP_STATE_INIT);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_RST2INIT_RC), DOCA_SUCCESS);
	fill_all(m, DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_set_path_mtu(m->attr, DOCA_VERBS_MTU_SIZE_256_BYTES), DOCA_SUCCESS);
	assert_int_equal(doca_verbs_qp_modify(m->qp, m->attr, VFX_MASK_INIT2RTR_RC), DOCA_SUCCESS);
	assert_int_equal(query(m), DOCA_VERBS_QP_STATE_RTR);
	assert_int_equal(doca_verbs_qp_attr_get_path_mtu(m->query), DOCA_VERBS_MTU_SIZE_256_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_path_mtu_above_port, setup_rc, teardown),
		cmocka_unit_test_setup_teardown(test_path_mtu_smaller_than_port, setup_rc, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
