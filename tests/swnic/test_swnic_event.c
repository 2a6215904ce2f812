/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Events of the software NIC (src/swnic/swnic_event.c, swnic_cq_arm.c) on QPs that run
 * real WQEs: event channels (create, read, destroy, bad input, epoll readiness), the CQ
 * arming rule (a) DBR word and (b) UAR doorbell, arming after a CQE exists, solicited
 * arming, one event per arm, async errors (WQ_CATAS_ERROR with the CQE syndrome, the
 * responder's WQ_ACCESS_ERROR and WQ_INVAL_REQ_ERROR, CQ_ERROR on overrun), delivery only
 * to subscribers of that object and type, and subscriptions ending with their object.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_qpc.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_event.h"
#include "swnic/swnic_random.h"
#include "swnic_fixture.h"

#define QUIET_MS 40u          /* 40 passes of the arm scan at its slowest */
#define EVENT_WAIT_MS 5000u
#define RW (OGDA_ACCESS_LOCAL_WRITE | OGDA_ACCESS_REMOTE_WRITE | OGDA_ACCESS_REMOTE_READ | OGDA_ACCESS_REMOTE_ATOMIC)

static const uint16_t cq_types[] = {OGDA_DEVX_EVENT_COMP, OGDA_DEVX_EVENT_CQ_ERROR};
static const uint16_t comp_only[] = {OGDA_DEVX_EVENT_COMP};
static const uint16_t qp_types[] = {OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR,
				    OGDA_DEVX_EVENT_WQ_ACCESS_ERROR};

struct chan {
	struct swnic_event_channel *ch;
	int fd;
};

static void chan_open(struct fx *f, struct chan *c)
{
	c->fd = -1;
	assert_int_equal(swnic_event_channel_create(f->nic, &c->ch, &c->fd), DOCA_SUCCESS);
	assert_true(c->fd >= 0);
}

static void chan_close(struct chan *c)
{
	assert_int_equal(swnic_event_channel_destroy(c->ch), DOCA_SUCCESS);
}

static bool readable(int fd, uint32_t ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	return poll(&pfd, 1, (int)ms) == 1 && (pfd.revents & POLLIN) != 0;
}

/* The next event: the fd must become readable within EVENT_WAIT_MS. */
static void next_event(struct chan *c, struct ogda_devx_event *ev)
{
	memset(ev, 0xee, sizeof(*ev));
	if (!readable(c->fd, EVENT_WAIT_MS)) {
		print_error("no event within %u ms\n", EVENT_WAIT_MS);
		fail();
	}
	assert_int_equal(swnic_event_read(c->ch, ev), DOCA_SUCCESS);
}

static void expect_event(struct chan *c, uint64_t cookie, uint8_t type, uint8_t syndrome, uint32_t num)
{
	struct ogda_devx_event ev;

	next_event(c, &ev);
	assert_int_equal(ev.cookie, cookie);
	assert_int_equal(ev.type, type);
	assert_int_equal(ev.syndrome, syndrome);
	assert_int_equal(ev.obj_num, num);
}

/* Nothing arrives for QUIET_MS, and nothing is queued. */
static void expect_quiet(struct chan *c)
{
	struct ogda_devx_event ev;

	assert_false(readable(c->fd, QUIET_MS));
	assert_int_equal(swnic_event_pending(c->ch), 0);
	assert_int_equal(swnic_event_read(c->ch, &ev), DOCA_ERROR_AGAIN);
}

static uint8_t ce_always(bool se)
{
	return (uint8_t)opengda_mlx5_fm_ce_se(OPENGDA_MLX5_FENCE_MODE_NONE, OPENGDA_MLX5_CE_ALWAYS, se ? 1 : 0);
}

/* A signalled NOP on qp, rung; its CQE is polled when poll is set. */
static void nop(struct fx_qp *qp, bool poll_it)
{
	struct opengda_mlx5_cqe_fields c;

	fx_post_sges(qp, OPENGDA_MLX5_OPCODE_NOP, ce_always(false), 0, false, 0, 0, NULL, 0);
	fx_ring(qp, FX_RING_CTRL);
	if (poll_it) {
		fx_poll_ok(qp->scq, &c);
		assert_int_equal(c.opcode, OPENGDA_MLX5_CQE_REQ);
	}
}

/* Arms cq for its current consumer index: the DBR word and / or the UAR doorbell. */
static void arm(struct fx *f, struct fx_cq *cq, uint32_t sn, bool solicited, bool dbr, bool uar)
{
	if (dbr)
		atomic_store_explicit(&cq->dbr[OPENGDA_MLX5_CQ_ARM_DB],
				      opengda_mlx5_cq_dbr_arm_value(sn, solicited ? 1 : 0, cq->ci), memory_order_release);
	if (uar)
		__atomic_store_n((uint64_t *)(void *)(f->uar_page + OPENGDA_MLX5_UAR_CQ_DOORBELL),
				 opengda_mlx5_cq_uar_arm_value(sn, solicited ? 1 : 0, cq->ci, cq->cqn), __ATOMIC_RELEASE);
}

/* ---- channels ---- */

static void test_channel_bad_input(void **state)
{
	struct ogda_devx_event ev;
	struct fx_pair p;
	struct chan c;
	uint16_t bad_type = 0x99;
	int fd = -1;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	assert_int_equal(swnic_event_channel_create(NULL, &c.ch, &fd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_channel_create(p.f.nic, NULL, &fd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_channel_create(p.f.nic, &c.ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(fd, -1);
	assert_int_equal(swnic_event_channel_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_read(NULL, &ev), DOCA_ERROR_INVALID_VALUE);

	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_read(c.ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_ERROR_AGAIN);
	/* Subscriptions: NULL / empty type lists, types the object kind never raises, unknown kinds. */
	assert_int_equal(swnic_event_subscribe(NULL, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, NULL, 2, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 0, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, comp_only, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, qp_types, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, &bad_type, 1, 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(swnic_event_subscribe(c.ch, (enum swnic_event_obj)77, p.acq.cqn, cq_types, 2, 1),
			 DOCA_ERROR_INVALID_VALUE);
	/* Objects that do not exist; numbers of another kind do not name an object either. */
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn + 100, cq_types, 2, 1),
			 DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.acq.cqn, qp_types, 3, 1), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_RMP, SWNIC_SRQ_BASE, qp_types, 1, 1),
			 DOCA_ERROR_INVALID_VALUE);
	/* One subscription per (channel, object). */
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, comp_only, 1, 1), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 2),
			 DOCA_ERROR_ALREADY_EXIST);
	assert_int_equal(swnic_event_pending(c.ch), 0);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Level-triggered epoll: readable exactly while events are pending, in the order raised. */
static void test_channel_epoll_readiness(void **state)
{
	struct epoll_event ee = {.events = EPOLLIN}, out;
	struct ogda_devx_event ev;
	struct fx_pair p;
	struct chan c;
	int ep;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	ep = epoll_create1(0);
	assert_true(ep >= 0);
	ee.data.u64 = 0xfeed;
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ee), 0);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 0);

	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa1), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xb1), DOCA_SUCCESS);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0x04);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.b.qpn, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR, 0x13);
	assert_int_equal(swnic_event_pending(c.ch), 2);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 1);
	assert_int_equal(out.data.u64, 0xfeed);
	assert_true(out.events & EPOLLIN);

	assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.cookie, 0xa1);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_WQ_CATAS_ERROR);
	assert_int_equal(ev.syndrome, 0x04);
	assert_int_equal(ev.obj_num, p.a.qpn);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 1); /* one still pending */
	assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.cookie, 0xb1);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR);
	assert_int_equal(ev.syndrome, 0x13);
	assert_int_equal(ev.obj_num, p.b.qpn);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 0);
	assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_ERROR_AGAIN);

	/* A type nobody subscribed to, and an object nobody subscribed to: nothing. */
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_CQ, p.acq.cqn, OGDA_DEVX_EVENT_CQ_ERROR, 0);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn + 50, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 0);

	/* Destroying a channel with events pending drops them. */
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0x05);
	assert_int_equal(epoll_wait(ep, &out, 1, 0), 1);
	close(ep);
	chan_close(&c);
	/* Raising on the object after its only channel went is harmless. */
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0x05);
	fx_pair_close(&p);
}

/* A channel nobody reads holds SWNIC_EVENT_QUEUE_MAX events; later ones are dropped, earlier ones kept in order. */
static void test_channel_queue_full(void **state)
{
	struct ogda_devx_event ev;
	struct fx_pair p;
	struct chan c;
	uint32_t i;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0x77), DOCA_SUCCESS);
	for (i = 0; i < SWNIC_EVENT_QUEUE_MAX + 10u; i++)
		swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, (uint8_t)i);
	assert_int_equal(swnic_event_pending(c.ch), SWNIC_EVENT_QUEUE_MAX);
	for (i = 0; i < SWNIC_EVENT_QUEUE_MAX; i++) {
		assert_true(i != 0 || readable(c.fd, 0));
		assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_SUCCESS);
		if (ev.syndrome != (uint8_t)i || ev.cookie != 0x77) {
			print_error("event %u: syndrome 0x%x cookie 0x%llx\n", i, ev.syndrome,
				    (unsigned long long)ev.cookie);
			fail();
		}
	}
	assert_false(readable(c.fd, 0));
	assert_int_equal(swnic_event_read(c.ch, &ev), DOCA_ERROR_AGAIN);
	/* Drained: the channel takes events again. */
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, p.a.qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0x42);
	expect_event(&c, 0x77, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0x42, p.a.qpn);
	chan_close(&c);
	fx_pair_close(&p);
}

/* ---- completion events ---- */

/* Rule (a): a DBR arm word that differs from the reference arms; one event per arm. */
static void test_arm_rule_dbr_word(void **state)
{
	struct fx_pair p;
	struct chan c;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 0xc0c0), DOCA_SUCCESS);

	/* Not armed: a CQE raises nothing. */
	nop(&p.a, true);
	expect_quiet(&c);

	/* Armed through the DBR word only (sn 1, the DOCA convention); no CQE at index >= ci yet. */
	arm(&p.f, &p.acq, 1, false, true, false);
	expect_quiet(&c);
	nop(&p.a, true);
	expect_event(&c, 0xc0c0, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	/* Fired, hence disarmed: further CQEs raise nothing. */
	nop(&p.a, true);
	nop(&p.a, true);
	expect_quiet(&c);

	/* The next arm (sn 2): exactly one event for a burst of CQEs. */
	arm(&p.f, &p.acq, 2, false, true, false);
	nop(&p.a, false);
	nop(&p.a, false);
	nop(&p.a, true);
	expect_event(&c, 0xc0c0, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	expect_quiet(&c);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Rule (b): sn 0, ci 0 leaves the DBR word as created; the UAR doorbell naming the CQ arms it. */
static void test_arm_rule_uar_doorbell(void **state)
{
	struct fx_pair p;
	struct chan c;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, comp_only, 1, 7), DOCA_SUCCESS);

	/* The DBR word alone, unchanged from CREATE_CQ: not armed. */
	arm(&p.f, &p.acq, 0, false, true, false);
	assert_int_equal(atomic_load(&p.acq.dbr[OPENGDA_MLX5_CQ_ARM_DB]), 0);
	nop(&p.a, false);
	expect_quiet(&c);
	/* A doorbell that names another CQ does not arm this one. */
	__atomic_store_n((uint64_t *)(void *)(p.f.uar_page + OPENGDA_MLX5_UAR_CQ_DOORBELL),
			 opengda_mlx5_cq_uar_arm_value(0, 0, 0, p.bcq.cqn), __ATOMIC_RELEASE);
	expect_quiet(&c);
	/* rdma-core's first arm: sn 0, ci 0, DBR then UAR. The CQE at index 0 already exists: it fires at once. */
	arm(&p.f, &p.acq, 0, false, true, true);
	expect_event(&c, 7, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	expect_quiet(&c);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Armed while a CQE at index >= ci already exists: fires without another CQE; ci past it waits. */
static void test_arm_after_cqe(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	struct fx_pair p;
	struct chan c;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 0x51), DOCA_SUCCESS);
	nop(&p.a, false);
	nop(&p.a, false);
	fx_poll_ok(&p.acq, &cqe); /* ci 1: the CQE at index 1 is still unread */
	assert_int_equal(p.acq.ci, 1);
	arm(&p.f, &p.acq, 1, false, true, true);
	expect_event(&c, 0x51, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);

	fx_poll_ok(&p.acq, &cqe); /* ci 2: nothing beyond */
	arm(&p.f, &p.acq, 2, false, true, true);
	expect_quiet(&c);
	nop(&p.a, true);
	expect_event(&c, 0x51, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Solicited arming: only a CQE with the SE bit (a SEND whose WQE had SE) or an error CQE fires. */
static void test_arm_solicited(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	static uint8_t src[64], dst[4][64];
	struct fx_sge sge;
	struct fx_pair p;
	struct chan c;
	uint32_t lk, dk;
	int i;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), RW);
	dk = fx_mr(&p.f, dst, sizeof(dst), RW);
	for (i = 0; i < 4; i++)
		fx_rq_post(&p.b, dst[i], 64, dk);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.bcq.cqn, comp_only, 1, 0xb0), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, comp_only, 1, 0xa0), DOCA_SUCCESS);
	arm(&p.f, &p.bcq, 1, true, true, true);

	/* A SEND without SE: the receive CQE has SE clear and does not fire a solicited arm. */
	sge = (struct fx_sge){src, 16, lk};
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND, ce_always(false), 0, false, 0, 0, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.bcq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_RESP_SEND);
	assert_int_equal(cqe.se, 0);
	fx_poll_ok(&p.acq, &cqe);
	expect_quiet(&c);

	/* A SEND with SE: the receive CQE carries SE and fires. The requester's own CQE does not carry it. */
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND_IMM, ce_always(true), 0x1234, false, 0, 0, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.bcq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_RESP_SEND_IMM);
	assert_int_equal(cqe.se, 1);
	assert_int_equal(cqe.imm, 0x1234);
	expect_event(&c, 0xb0, OGDA_DEVX_EVENT_COMP, 0, p.bcq.cqn);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.se, 0);
	expect_quiet(&c);

	/* Solicited arm of the requester's CQ: a good CQE does not fire, an error CQE does. */
	arm(&p.f, &p.acq, 1, true, true, true);
	nop(&p.a, true);
	expect_quiet(&c);
	sge = (struct fx_sge){src, 16, 0x7777700}; /* no such lkey */
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND, ce_always(false), 0, false, 0, 0, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	expect_event(&c, 0xa0, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	expect_quiet(&c);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Two channels on one CQ: one firing reaches both, each with its own cookie. */
static void test_comp_two_channels(void **state)
{
	struct fx_pair p;
	struct chan c1, c2;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c1);
	chan_open(&p.f, &c2);
	assert_int_equal(swnic_event_subscribe(c1.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, comp_only, 1, 1), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c2.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 2), DOCA_SUCCESS);
	arm(&p.f, &p.acq, 1, false, true, true);
	nop(&p.a, true);
	expect_event(&c1, 1, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	expect_event(&c2, 2, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	expect_quiet(&c1);
	expect_quiet(&c2);
	chan_close(&c1);
	/* c2 still gets the next one. */
	arm(&p.f, &p.acq, 2, false, true, true);
	nop(&p.a, true);
	expect_event(&c2, 2, OGDA_DEVX_EVENT_COMP, 0, p.acq.cqn);
	chan_close(&c2);
	fx_pair_close(&p);
}

/* ---- async events ---- */

/* A send-queue error moves the QP to ERR: WQ_CATAS_ERROR with the CQE syndrome, once. */
static void test_qp_error_catas(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	static uint8_t src[64], dst[64];
	struct chan c, other;
	struct fx_sge sge;
	struct fx_pair p;
	uint32_t rk;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	chan_open(&p.f, &c);
	chan_open(&p.f, &other);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xaa), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xbb), DOCA_SUCCESS);
	/* Another channel subscribed to a's access errors only: a's catastrophic error is not for it. */
	assert_int_equal(swnic_event_subscribe(other.ch, SWNIC_EVOBJ_QP, p.a.qpn,
					       (const uint16_t[]){OGDA_DEVX_EVENT_WQ_ACCESS_ERROR}, 1, 0xcc),
			 DOCA_SUCCESS);

	sge = (struct fx_sge){src, 64, 0x7777700}; /* bad lkey: LOCAL_PROT */
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, ce_always(false), 0, true, (uintptr_t)dst, rk, &sge, 1);
	nop(&p.a, false);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_REQ_ERR);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	expect_event(&c, 0xaa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, p.a.qpn);
	assert_int_equal(fx_qp_state(&p.f, &p.a), PRM_QP_STATE_ERR);
	/* The flush and later rings raise nothing more; the peer and the other channel saw nothing. */
	nop(&p.a, false);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	expect_quiet(&c);
	expect_quiet(&other);
	chan_close(&other);
	chan_close(&c);
	fx_pair_close(&p);
}

static void no_remote_write(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->rwe = 0;
}

/*
 * Remote access violations: the responder QP gets WQ_ACCESS_ERROR (and stays in RTS, as
 * the model keeps it usable), the requester WQ_CATAS_ERROR with REMOTE_ACCESS.
 */
static void test_responder_access_error(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	static uint8_t src[64], dst[64];
	struct fx_sge sge;
	struct fx_pair p;
	struct chan c;
	uint32_t lk, rk, k;

	(void)state;
	for (k = 0; k < 3; k++) {
		fx_pair_open(&p, 4, NULL, NULL, k == 2 ? no_remote_write : NULL);
		lk = fx_mr(&p.f, src, sizeof(src), RW);
		rk = fx_mr(&p.f, dst, sizeof(dst), RW);
		chan_open(&p.f, &c);
		assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xb), DOCA_SUCCESS);
		assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa), DOCA_SUCCESS);
		sge = (struct fx_sge){src, 64, lk};
		/* k 0: bad rkey; k 1: past the end of the MR; k 2: b grants no remote write. */
		fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, ce_always(false), 0, true,
			     (uintptr_t)dst + (k == 1 ? 8u : 0u), k == 0 ? rk + 0x100u : rk, &sge, 1);
		fx_ring(&p.a, FX_RING_CTRL);
		fx_poll_ok(&p.acq, &cqe);
		assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		/* The responder's event is raised while the request is judged, before the requester's. */
		expect_event(&c, 0xb, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
			     p.b.qpn);
		expect_event(&c, 0xa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
			     p.a.qpn);
		expect_quiet(&c);
		assert_int_equal(fx_qp_state(&p.f, &p.b), PRM_QP_STATE_RTS);
		chan_close(&c);
		fx_pair_close(&p);
	}
}

static void msg_max_6(struct fx_pair *p, struct fx_conn *c)
{
	(void)p;
	c->log_msg_max = 6;
}

/*
 * Invalid requests: a WRITE over the responder's log_msg_max (NAK, responder stays in RTS)
 * and a SEND longer than the receive WQE (RESP_ERR LOCAL_LENGTH, responder to ERR) both
 * raise WQ_INVAL_REQ_ERROR on the responder; the requester gets WQ_CATAS_ERROR.
 */
static void test_responder_invalid_request(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	static uint8_t src[128], dst[128];
	struct fx_sge sge;
	struct fx_pair p;
	struct chan c;
	uint32_t lk, rk;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, msg_max_6);
	lk = fx_mr(&p.f, src, sizeof(src), RW);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xb), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa), DOCA_SUCCESS);
	sge = (struct fx_sge){src, 128, lk};
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_RDMA_WRITE, ce_always(false), 0, true, (uintptr_t)dst, rk, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	expect_event(&c, 0xb, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
		     p.b.qpn);
	expect_event(&c, 0xa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, p.a.qpn);
	expect_quiet(&c);
	assert_int_equal(fx_qp_state(&p.f, &p.b), PRM_QP_STATE_RTS);
	chan_close(&c);
	fx_pair_close(&p);

	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), RW);
	rk = fx_mr(&p.f, dst, sizeof(dst), RW);
	fx_rq_post(&p.b, dst, 16, rk);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xb), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa), DOCA_SUCCESS);
	sge = (struct fx_sge){src, 64, lk};
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND, ce_always(false), 0, false, 0, 0, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.bcq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_RESP_ERR);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	expect_event(&c, 0xb, OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, p.b.qpn);
	expect_event(&c, 0xa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, p.a.qpn);
	expect_quiet(&c);
	assert_int_equal(fx_qp_state(&p.f, &p.b), PRM_QP_STATE_ERR);
	chan_close(&c);
	fx_pair_close(&p);
}

/*
 * A fault of the responder's own receive WQE (an lkey it does not own): RESP_ERR LOCAL_PROT,
 * the responder QP to ERR with WQ_CATAS_ERROR (LOCAL_PROT), the requester REMOTE_OP.
 */
static void test_responder_local_error(void **state)
{
	struct opengda_mlx5_cqe_fields cqe;
	static uint8_t src[64], dst[64];
	struct fx_sge sge;
	struct fx_pair p;
	struct chan c;
	uint32_t lk;

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	lk = fx_mr(&p.f, src, sizeof(src), RW);
	fx_rq_post(&p.b, dst, sizeof(dst), 0x7777700);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.b.qpn, qp_types, 3, 0xb), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa), DOCA_SUCCESS);
	sge = (struct fx_sge){src, 32, lk};
	fx_post_sges(&p.a, OPENGDA_MLX5_OPCODE_SEND, ce_always(false), 0, false, 0, 0, &sge, 1);
	fx_ring(&p.a, FX_RING_CTRL);
	fx_poll_ok(&p.bcq, &cqe);
	assert_int_equal(cqe.opcode, OPENGDA_MLX5_CQE_RESP_ERR);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	fx_poll_ok(&p.acq, &cqe);
	assert_int_equal(cqe.syndrome, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
	expect_event(&c, 0xb, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, p.b.qpn);
	expect_event(&c, 0xa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OPENGDA_MLX5_CQE_SYNDROME_REMOTE_OP_ERR, p.a.qpn);
	expect_quiet(&c);
	assert_int_equal(fx_qp_state(&p.f, &p.b), PRM_QP_STATE_ERR);
	chan_close(&c);
	fx_pair_close(&p);
}

/* Overrun of a 2-entry CQ: CQ_ERROR on the CQ (once), and the QP's WQ_CATAS_ERROR with syndrome 0. */
static void test_cq_overrun_error(void **state)
{
	struct fx_cq_cfg small = {.log_size = 1};
	struct fx_pair p;
	struct chan c;

	(void)state;
	fx_pair_open(&p, 4, &small, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 0xc), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, p.a.qpn, qp_types, 3, 0xa), DOCA_SUCCESS);
	nop(&p.a, false);
	nop(&p.a, false);
	nop(&p.a, false); /* the third finds the CQ full: SET_CI is still 0 */
	expect_event(&c, 0xc, OGDA_DEVX_EVENT_CQ_ERROR, 0, p.acq.cqn);
	expect_event(&c, 0xa, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 0, p.a.qpn);
	assert_int_equal(fx_qp_state(&p.f, &p.a), PRM_QP_STATE_ERR);
	nop(&p.a, false); /* flushed into a CQ in error: no second CQ_ERROR */
	expect_quiet(&c);
	chan_close(&c);
	fx_pair_close(&p);
}

/* A random source that always draws the same number: the next QP gets a freed QPN again. */
static void same_draw(void *buf, size_t len)
{
	memset(buf, 0x5a, len);
}

/* Destroying an object ends its subscriptions: the number, reused, is not subscribed. */
static void test_subscription_ends_with_object(void **state)
{
	struct fx_cq_cfg cc = {.log_size = 4};
	struct fx_qp_cfg qc;
	struct fx_cq cq, cq2;
	struct fx_qp qp, qp2;
	struct fx_pair p;
	struct chan c;
	uint32_t cqn, qpn;
	uint8_t in[PRM_CMD_HDR_SIZE], out[PRM_CMD_HDR_SIZE];

	(void)state;
	fx_pair_open(&p, 4, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	fx_cq_create(&p.f, &cc, &cq);
	fx_qp_cfg_default(&qc, &cq, NULL);
	swnic_random_set_source(same_draw);
	fx_qp_create(&p.f, &qc, &qp);
	swnic_random_set_source(NULL);
	cqn = cq.cqn;
	qpn = qp.qpn;
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, cqn, cq_types, 2, 0xdead), DOCA_SUCCESS);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, qpn, qp_types, 3, 0xbeef), DOCA_SUCCESS);
	fx_qp_destroy(&p.f, &qp);
	assert_int_equal(prm_destroy_cq_in_build(0, cqn, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(swnic_cmd_exec(p.f.nic, in, sizeof(in), out, sizeof(out)), DOCA_SUCCESS);

	/* Same numbers again (CQ slots are reused lowest-first; the QPN draw is forced). */
	fx_cq_create(&p.f, &cc, &cq2);
	fx_qp_cfg_default(&qc, &cq2, NULL);
	swnic_random_set_source(same_draw);
	fx_qp_create(&p.f, &qc, &qp2);
	swnic_random_set_source(NULL);
	assert_int_equal(cq2.cqn, cqn);
	assert_int_equal(qp2.qpn, qpn);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 1);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_CQ, cqn, OGDA_DEVX_EVENT_CQ_ERROR, 0);
	arm(&p.f, &cq2, 1, false, true, true);
	expect_quiet(&c);
	/* A new subscription on the reused number works, and the old one did not linger as a duplicate. */
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_QP, qpn, qp_types, 3, 0xf00d), DOCA_SUCCESS);
	swnic_event_raise(p.f.nic, SWNIC_EVOBJ_QP, qpn, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 1);
	expect_event(&c, 0xf00d, OGDA_DEVX_EVENT_WQ_CATAS_ERROR, 1, qpn);
	chan_close(&c);
	fx_pair_close(&p);
}

/* ---- threads ---- */

struct arm_loop {
	struct fx_pair *p;
	struct chan *c;
	uint32_t rounds;
	atomic_uint armed;   /* rounds armed by the consumer */
	atomic_uint events;  /* events read */
};

/* The consumer: arm, wait for the event, drain the CQ, re-arm with the next sn. */
static void *consumer(void *arg)
{
	struct arm_loop *l = arg;
	struct opengda_mlx5_cqe_fields cqe;
	struct ogda_devx_event ev;
	uint32_t r;

	for (r = 0; r < l->rounds; r++) {
		arm(&l->p->f, &l->p->acq, r + 1u, false, true, true);
		atomic_store(&l->armed, r + 1u);
		if (!readable(l->c->fd, EVENT_WAIT_MS))
			break;
		while (swnic_event_read(l->c->ch, &ev) == DOCA_SUCCESS) {
			if (ev.type == OGDA_DEVX_EVENT_COMP && ev.obj_num == l->p->acq.cqn)
				atomic_fetch_add(&l->events, 1);
		}
		while (fx_poll(&l->p->acq, 0, &cqe))
			;
	}
	return NULL;
}

/* An engine thread raising, the scan firing and a consumer re-arming concurrently: one event per arm. */
static void test_arm_loop_threads(void **state)
{
	struct arm_loop l;
	struct fx_pair p;
	struct chan c;
	pthread_t t;
	uint32_t posted = 0;
	uint64_t deadline;

	(void)state;
	fx_pair_open(&p, 6, NULL, NULL, NULL);
	chan_open(&p.f, &c);
	assert_int_equal(swnic_event_subscribe(c.ch, SWNIC_EVOBJ_CQ, p.acq.cqn, cq_types, 2, 1), DOCA_SUCCESS);
	memset(&l, 0, sizeof(l));
	l.p = &p;
	l.c = &c;
	l.rounds = 100;
	assert_int_equal(pthread_create(&t, NULL, consumer, &l), 0);
	deadline = fx_ms() + 60000u;
	while (atomic_load(&l.events) < l.rounds && fx_ms() < deadline) {
		uint32_t armed = atomic_load(&l.armed);

		/* One NOP per arm round, posted once the consumer armed it (the ring never overflows). */
		if (armed > posted) {
			nop(&p.a, false);
			posted++;
		} else {
			fx_sleep_ms(0);
		}
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&l.events), l.rounds);
	assert_int_equal(posted, l.rounds);
	chan_close(&c);
	fx_pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channel_bad_input),
		cmocka_unit_test(test_channel_epoll_readiness),
		cmocka_unit_test(test_channel_queue_full),
		cmocka_unit_test(test_arm_rule_dbr_word),
		cmocka_unit_test(test_arm_rule_uar_doorbell),
		cmocka_unit_test(test_arm_after_cqe),
		cmocka_unit_test(test_arm_solicited),
		cmocka_unit_test(test_comp_two_channels),
		cmocka_unit_test(test_qp_error_catas),
		cmocka_unit_test(test_responder_access_error),
		cmocka_unit_test(test_responder_invalid_request),
		cmocka_unit_test(test_responder_local_error),
		cmocka_unit_test(test_cq_overrun_error),
		cmocka_unit_test(test_subscription_ends_with_object),
		cmocka_unit_test(test_arm_loop_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
