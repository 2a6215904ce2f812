/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event and next-hop ops of the device interface over the software NIC (src/devx/sw.c):
 * event_channel_create / destroy / subscribe / read on objects made from PRM bytes
 * (bad input, an object of another device, a PD, double subscription), a completion event
 * end to end (a CQE, the CQ armed through its DBR word, the fd readable, the event read),
 * the subscription ending with obj_destroy, and resolve_rmac.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "devx/sw.h"
#include "opengda_mlx5.h"
#include "prm/prm_cmd.h"
#include "prm/prm_cq.h"
#include "prm/prm_pd_uar.h"
#include "swnic/swnic.h"
#include "swnic/swnic_ctl.h"
#include "swnic/swnic_engine.h"
#include "swnic/swnic_event.h"

#define ARENA_SIZE (1u << 20)
#define RING_OFF 0x1000u
#define DBR_OFF 0x40u

struct efx {
	struct ogda_devx *dev;
	const struct ogda_devx_ops *ops;
	uint8_t *arena;
	struct ogda_devx_umem *umem;
	uint32_t umem_id;
	struct ogda_devx_uar *uar;
	struct ogda_devx_uar_info uar_info;
};

static int setup(void **state)
{
	static struct efx e;

	memset(&e, 0, sizeof(e));
	assert_int_equal(ogda_devx_sw_open(0, &e.dev), DOCA_SUCCESS);
	e.ops = e.dev->ops;
	e.arena = aligned_alloc(4096, ARENA_SIZE);
	assert_non_null(e.arena);
	memset(e.arena, 0, ARENA_SIZE);
	assert_int_equal(e.ops->umem_reg(e.dev, e.arena, ARENA_SIZE, OGDA_ACCESS_LOCAL_WRITE, -1, 0, &e.umem,
					 &e.umem_id),
			 DOCA_SUCCESS);
	assert_int_equal(e.ops->uar_alloc(e.dev, OGDA_DEVX_UAR_BF, &e.uar, &e.uar_info), DOCA_SUCCESS);
	*state = &e;
	return 0;
}

static int teardown(void **state)
{
	struct efx *e = *state;

	assert_int_equal(e->ops->uar_free(e->uar), DOCA_SUCCESS);
	assert_int_equal(e->ops->umem_dereg(e->umem), DOCA_SUCCESS);
	e->ops->close(e->dev);
	free(e->arena);
	return 0;
}

/* A CQ of 16 CQEs at RING_OFF with its DBR at DBR_OFF, made through obj_create. */
static struct ogda_devx_obj *cq_create(struct efx *e, uint32_t *cqn)
{
	uint8_t in[PRM_CREATE_CQ_IN_SIZE], out[PRM_CQ_SMALL_CMD_SIZE];
	struct prm_create_cq_params p;
	struct ogda_devx_obj *obj = NULL;

	memset(&p, 0, sizeof(p));
	p.cqc.log_cq_size = 4;
	p.cqc.uar_page = e->uar_info.page_id;
	p.cqc.c_eqn = SWNIC_EQN;
	p.cqc.dbr_umem_valid = 1;
	p.cqc.dbr_umem_id = e->umem_id;
	p.cqc.dbr_addr = DBR_OFF;
	p.cq_umem_valid = 1;
	p.cq_umem_id = e->umem_id;
	p.cq_umem_offset = RING_OFF;
	assert_int_equal(prm_create_cq_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(e->ops->obj_create(e->dev, in, sizeof(in), out, sizeof(out), &obj), DOCA_SUCCESS);
	assert_int_equal(prm_create_cq_out_parse(out, sizeof(out), cqn), DOCA_SUCCESS);
	return obj;
}

/* Writes one requester CQE on CQ cqn, as the engine would. */
static void produce_cqe(uint32_t cqn)
{
	struct swnic *nic = NULL;
	struct swnic_cq *cq;

	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	cq = swnic_cq_acquire(nic, cqn);
	assert_non_null(cq);
	assert_int_equal(swnic_cq_post_req(cq, OPENGDA_MLX5_OPCODE_NOP, 0x200, 0, 0, 0), DOCA_SUCCESS);
	swnic_cq_release(cq);
	swnic_close(nic);
}

static bool readable(int fd, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN) != 0;
}

static void test_channel_ops_bad_input(void **state)
{
	static const uint16_t comp[] = {OGDA_DEVX_EVENT_COMP};
	static const uint16_t catas[] = {OGDA_DEVX_EVENT_WQ_CATAS_ERROR};
	uint8_t in[PRM_PD_UAR_CMD_SIZE], out[PRM_PD_UAR_CMD_SIZE];
	struct ogda_devx_event_channel *ch = NULL, *ch1 = NULL;
	struct ogda_devx_obj *cq, *pd = NULL, *cq1;
	struct ogda_devx *dev1 = NULL;
	struct ogda_devx_event ev;
	struct efx *e = *state;
	uint32_t cqn = 0, cqn1 = 0;
	int fd = -1, fd1 = -1;

	assert_int_equal(e->ops->event_channel_create(NULL, &ch, &fd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_channel_create(e->dev, NULL, &fd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_channel_create(e->dev, &ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(ch);
	assert_int_equal(fd, -1);
	assert_int_equal(e->ops->event_channel_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_read(NULL, &ev), DOCA_ERROR_INVALID_VALUE);

	assert_int_equal(e->ops->event_channel_create(e->dev, &ch, &fd), DOCA_SUCCESS);
	assert_true(fd >= 0);
	assert_int_equal(e->ops->event_read(ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_read(ch, &ev), DOCA_ERROR_AGAIN);
	assert_false(readable(fd, 0));

	cq = cq_create(e, &cqn);
	assert_int_equal(e->ops->event_subscribe(NULL, cq, comp, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_subscribe(ch, NULL, comp, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_subscribe(ch, cq, NULL, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_subscribe(ch, cq, comp, 0, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->event_subscribe(ch, cq, catas, 1, 1), DOCA_ERROR_INVALID_VALUE);
	/* A PD raises nothing. */
	assert_int_equal(prm_alloc_pd_in_build(0, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(e->ops->obj_create(e->dev, in, sizeof(in), out, sizeof(out), &pd), DOCA_SUCCESS);
	assert_int_equal(e->ops->event_subscribe(ch, pd, comp, 1, 1), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->obj_destroy(pd), DOCA_SUCCESS);
	assert_int_equal(e->ops->event_subscribe(ch, cq, comp, 1, 1), DOCA_SUCCESS);
	assert_int_equal(e->ops->event_subscribe(ch, cq, comp, 1, 2), DOCA_ERROR_ALREADY_EXIST);

	/* An object of another device (software NIC 1), with the same CQ number. */
	assert_int_equal(ogda_devx_sw_open(1, &dev1), DOCA_SUCCESS);
	{
		struct efx e1 = *e;

		e1.dev = dev1;
		assert_int_equal(dev1->ops->umem_reg(dev1, e->arena + ARENA_SIZE / 2, ARENA_SIZE / 2,
						     OGDA_ACCESS_LOCAL_WRITE, -1, 0, &e1.umem, &e1.umem_id),
				 DOCA_SUCCESS);
		assert_int_equal(dev1->ops->uar_alloc(dev1, OGDA_DEVX_UAR_BF, &e1.uar, &e1.uar_info), DOCA_SUCCESS);
		cq1 = cq_create(&e1, &cqn1);
		assert_int_equal(cqn1, cqn);
		assert_int_equal(e->ops->event_subscribe(ch, cq1, comp, 1, 3), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(dev1->ops->event_channel_create(dev1, &ch1, &fd1), DOCA_SUCCESS);
		assert_int_equal(dev1->ops->event_subscribe(ch1, cq1, comp, 1, 3), DOCA_SUCCESS);
		assert_int_equal(dev1->ops->event_subscribe(ch1, cq, comp, 1, 3), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(dev1->ops->event_channel_destroy(ch1), DOCA_SUCCESS);
		assert_int_equal(dev1->ops->obj_destroy(cq1), DOCA_SUCCESS);
		assert_int_equal(dev1->ops->uar_free(e1.uar), DOCA_SUCCESS);
		assert_int_equal(dev1->ops->umem_dereg(e1.umem), DOCA_SUCCESS);
		dev1->ops->close(dev1);
	}
	assert_int_equal(e->ops->event_channel_destroy(ch), DOCA_SUCCESS);
	assert_int_equal(e->ops->obj_destroy(cq), DOCA_SUCCESS);
}

/* COMP end to end: a CQE, then the DBR arm word (sn 1, ci 0); the fd turns readable, then not. */
static void test_comp_event_end_to_end(void **state)
{
	static const uint16_t types[] = {OGDA_DEVX_EVENT_CQ_ERROR, OGDA_DEVX_EVENT_COMP};
	struct ogda_devx_event_channel *ch = NULL;
	_Atomic uint32_t *dbr;
	struct ogda_devx_event ev;
	struct ogda_devx_obj *cq;
	struct efx *e = *state;
	uint32_t cqn = 0, cqn2 = 0;
	int fd = -1;

	assert_int_equal(e->ops->event_channel_create(e->dev, &ch, &fd), DOCA_SUCCESS);
	cq = cq_create(e, &cqn);
	assert_int_equal(e->ops->event_subscribe(ch, cq, types, 2, 0x1122334455667788ull), DOCA_SUCCESS);
	produce_cqe(cqn);
	assert_false(readable(fd, 20)); /* not armed */
	dbr = (_Atomic uint32_t *)(void *)(e->arena + DBR_OFF);
	atomic_store_explicit(&dbr[OPENGDA_MLX5_CQ_ARM_DB], opengda_mlx5_cq_dbr_arm_value(1, 0, 0),
			      memory_order_release);
	assert_true(readable(fd, 5000));
	memset(&ev, 0xee, sizeof(ev));
	assert_int_equal(e->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.cookie, 0x1122334455667788ull);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_COMP);
	assert_int_equal(ev.syndrome, 0);
	assert_int_equal(ev.obj_num, cqn);
	assert_false(readable(fd, 0));
	assert_int_equal(e->ops->event_read(ch, &ev), DOCA_ERROR_AGAIN);

	/* obj_destroy ends the subscription: a CQ made again with the same number is not subscribed. */
	assert_int_equal(e->ops->obj_destroy(cq), DOCA_SUCCESS);
	memset(e->arena + DBR_OFF, 0, 8);
	cq = cq_create(e, &cqn2);
	assert_int_equal(cqn2, cqn);
	produce_cqe(cqn);
	atomic_store_explicit(&dbr[OPENGDA_MLX5_CQ_ARM_DB], opengda_mlx5_cq_dbr_arm_value(1, 0, 0),
			      memory_order_release);
	assert_false(readable(fd, 40));
	assert_int_equal(e->ops->event_subscribe(ch, cq, types, 2, 9), DOCA_SUCCESS);
	assert_true(readable(fd, 5000));
	assert_int_equal(e->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.cookie, 9);
	assert_int_equal(ev.obj_num, cqn);
	assert_int_equal(e->ops->event_channel_destroy(ch), DOCA_SUCCESS);
	assert_int_equal(e->ops->obj_destroy(cq), DOCA_SUCCESS);
}

static void test_resolve_rmac(void **state)
{
	static const uint8_t ipv6_ll[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};
	static const uint8_t zero[16];
	struct efx *e = *state;
	uint8_t gid[16], mac[6], peer[16];
	const uint8_t expect[6] = {0x02, 0x00, 0x7f, 0x00, 0x00, 0x01};

	assert_int_equal(e->ops->query_gid(e->dev, 1, 0, gid), DOCA_SUCCESS);
	memset(mac, 0xaa, sizeof(mac));
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, gid, mac), DOCA_SUCCESS);
	assert_memory_equal(mac, expect, 6); /* OPENGDA_SWNIC_ADDR unset: 127.0.0.1 */

	/* Any software NIC GID resolves from its address bytes; the index and port do not matter. */
	memcpy(peer, gid, 16);
	peer[8] = 0x00;
	peer[9] = 0x07;
	peer[10] = 0x12;
	peer[11] = 0x34;
	peer[12] = 10;
	peer[13] = 1;
	peer[14] = 2;
	peer[15] = 3;
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, peer, mac), DOCA_SUCCESS);
	assert_memory_equal(mac, ((const uint8_t[]){0x02, 0x00, 10, 1, 2, 3}), 6);

	/* GIDs the fabric cannot reach. */
	memset(mac, 0xaa, sizeof(mac));
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, ipv6_ll, mac), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, zero, mac), DOCA_ERROR_NOT_FOUND);
	peer[5] = 0x02; /* software NIC GID format version 2 */
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, peer, mac), DOCA_ERROR_NOT_FOUND);
	assert_memory_equal(mac, ((const uint8_t[]){0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa}), 6);

	/* Bad input. */
	assert_int_equal(e->ops->resolve_rmac(NULL, 1, 0, gid, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->resolve_rmac(e->dev, 2, 0, gid, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 1, gid, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, NULL, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(e->ops->resolve_rmac(e->dev, 1, 0, gid, NULL), DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_channel_ops_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comp_event_end_to_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_rmac, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
