/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ConnectX port / GID / EQ queries, DevX event channels and the RoCE next-hop MAC over the
 * fake rdma-core: field mapping of ibv_port_attr, GID table bounds, the non-blocking
 * channel fd, subscriptions as rdma-core receives them, EQE decoding (type byte, object
 * number at data byte 0 for CQ errors and data byte 24 otherwise), and the address-handle
 * path of resolve_rmac with everything it allocates given back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>

#include "devx/hw.h"
#include "hw_fixture.h"
#include "swnic/swnic_ctl.h"

static void test_query_port(void **state)
{
	struct hfx *f = *state;
	struct ogda_devx_port_attr a;

	fake_rdma_core_set_port_mtu(IBV_MTU_4096, IBV_MTU_1024);
	memset(&a, 0xff, sizeof(a));
	assert_int_equal(f->ops->query_port(f->dev, 1, &a), DOCA_SUCCESS);
	assert_int_equal(a.state, IBV_PORT_ACTIVE);
	assert_int_equal(a.max_mtu, 5);
	assert_int_equal(a.active_mtu, 3);
	assert_int_equal(a.link_layer, OGDA_LINK_LAYER_ETHERNET);
	assert_int_equal(a.lid, 0);
	assert_int_equal(a.gid_tbl_len, FAKE_GID_TBL_LEN);
	assert_int_equal(f->ops->query_port(f->dev, 0, &a), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->query_port(f->dev, 2, &a), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->query_port(f->dev, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->query_port(NULL, 1, &a), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_table()->ibv.query_port = NULL;
	assert_int_equal(f->ops->query_port(f->dev, 1, &a), DOCA_ERROR_NOT_SUPPORTED);
}

static void test_query_gid_and_eqn(void **state)
{
	struct hfx *f = *state;
	struct swnic *nic = NULL;
	uint8_t gid[16];
	uint32_t eqn = 99;

	assert_int_equal(f->ops->query_gid(f->dev, 1, 0, gid), DOCA_SUCCESS);
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	assert_memory_equal(gid, nic->gid, 16);
	swnic_close(nic);
	assert_int_equal(f->ops->query_gid(f->dev, 1, FAKE_GID_TBL_LEN, gid), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(f->ops->query_gid(f->dev, 0, 0, gid), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->query_gid(f->dev, 1, 0, NULL), DOCA_ERROR_INVALID_VALUE);

	assert_int_equal(f->ops->query_eqn(f->dev, 0, &eqn), DOCA_SUCCESS);
	assert_int_equal(eqn, SWNIC_EQN);
	assert_int_equal(f->ops->query_eqn(f->dev, 3, &eqn), DOCA_ERROR_DRIVER);
	assert_int_equal(fake_rdma_core_last()->eqn_vector, 3);
	assert_int_equal(f->ops->query_eqn(f->dev, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_table()->dv.devx_query_eqn = NULL;
	assert_int_equal(f->ops->query_eqn(f->dev, 0, &eqn), DOCA_ERROR_NOT_SUPPORTED);
	fake_rdma_core_table()->ibv.query_gid = NULL;
	assert_int_equal(f->ops->query_gid(f->dev, 1, 0, gid), DOCA_ERROR_NOT_SUPPORTED);
}

/* ibv_query_gid reports failure as -1 with errno (not as a returned errno value). */
static int failing_query_gid(struct ibv_context *ctx, uint8_t port, int index, union ibv_gid *gid)
{
	(void)ctx;
	(void)port;
	(void)index;
	(void)gid;
	errno = EIO;
	return -1;
}

static void test_query_gid_errno(void **state)
{
	struct hfx *f = *state;
	uint8_t gid[16];

	fake_rdma_core_table()->ibv.query_gid = failing_query_gid;
	assert_int_equal(f->ops->query_gid(f->dev, 1, 0, gid), DOCA_ERROR_DRIVER);
}

static bool readable(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void test_event_channel(void **state)
{
	struct hfx *f = *state;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	struct ogda_devx_event_channel *ch = NULL;
	struct ogda_devx_obj *cq = NULL, *qp = NULL;
	struct ogda_devx_event ev;
	const uint16_t cq_types[] = {OGDA_DEVX_EVENT_COMP, OGDA_DEVX_EVENT_CQ_ERROR};
	const uint16_t qp_types[] = {OGDA_DEVX_EVENT_WQ_CATAS_ERROR, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR};
	uint32_t cqn, qpn;
	int fd = -1;

	hfx_resources(f);
	cqn = hfx_cq(f, &cq, 0, 0x1000);
	qpn = hfx_qp(f, &qp, cqn, 0x10000, 0x1040);
	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, &fd), DOCA_SUCCESS);
	assert_true(fd >= 0);
	assert_int_equal(last->channel_flags, 0); /* EQE data kept */
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_ERROR_AGAIN);
	assert_false(readable(fd));

	assert_int_equal(f->ops->event_subscribe(ch, cq, cq_types, 2, 0x1111222233334444ull), DOCA_SUCCESS);
	assert_int_equal(last->sub_events_sz, 4);
	assert_int_equal(last->sub_types[0], OGDA_DEVX_EVENT_COMP);
	assert_int_equal(last->sub_types[1], OGDA_DEVX_EVENT_CQ_ERROR);
	assert_int_equal(last->sub_cookie, 0x1111222233334444ull);
	assert_int_equal(last->sub_obj_num, cqn);
	assert_int_equal(f->ops->event_subscribe(ch, qp, qp_types, 2, 77), DOCA_SUCCESS);

	/* Completion: cqn from data byte 24. */
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_COMP, cqn), 1);
	assert_true(readable(fd));
	memset(&ev, 0xff, sizeof(ev));
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.cookie, 0x1111222233334444ull);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_COMP);
	assert_int_equal(ev.obj_num, cqn);
	assert_int_equal(ev.syndrome, 0);
	assert_false(readable(fd));
	/* CQ error: cqn from data byte 0. */
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_CQ_ERROR, cqn), 1);
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_CQ_ERROR);
	assert_int_equal(ev.obj_num, cqn);
	/* QP events: qpn from data byte 24; in order. */
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_WQ_ACCESS_ERROR, qpn), 1);
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_WQ_CATAS_ERROR, qpn), 1);
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_WQ_INVAL_REQ_ERROR, qpn), 0); /* not subscribed */
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_WQ_ACCESS_ERROR);
	assert_int_equal(ev.obj_num, qpn);
	assert_int_equal(ev.cookie, 77);
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_SUCCESS);
	assert_int_equal(ev.type, OGDA_DEVX_EVENT_WQ_CATAS_ERROR);
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_ERROR_AGAIN);

	/* Types an object of that kind never raises; bad arguments. */
	assert_int_equal(f->ops->event_subscribe(ch, cq, qp_types, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_subscribe(ch, qp, cq_types, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_subscribe(ch, cq, cq_types, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_subscribe(ch, cq, NULL, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_subscribe(ch, NULL, cq_types, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_subscribe(NULL, cq, cq_types, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_read(ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_read(NULL, &ev), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_fail_next(EPERM);
	assert_int_equal(f->ops->event_subscribe(ch, cq, cq_types, 1, 0), DOCA_ERROR_DRIVER);
	fake_rdma_core_fail_next(EIO);
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_ERROR_DRIVER);

	/* Destroying an object ends its subscriptions. */
	assert_int_equal(f->ops->obj_destroy(qp), DOCA_SUCCESS);
	assert_int_equal(fake_rdma_core_raise_event(OGDA_DEVX_EVENT_WQ_CATAS_ERROR, qpn), 0);
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(f->ops->event_channel_destroy(ch), DOCA_SUCCESS);
	assert_int_equal(f->ops->event_channel_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_event_channel_failures(void **state)
{
	struct hfx *f = *state;
	struct ogda_devx_event_channel *ch = NULL;
	struct ogda_devx_event ev;
	int fd = -1;

	fake_rdma_core_fail_next(EMFILE);
	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, &fd), DOCA_ERROR_DRIVER);
	assert_null(ch);
	assert_int_equal(f->ops->event_channel_create(f->dev, NULL, &fd), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, &fd), DOCA_SUCCESS);
	fake_rdma_core_table()->dv.devx_get_event = NULL;
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(f->ops->event_channel_destroy(ch), DOCA_SUCCESS);
	fake_rdma_core_table()->dv.devx_create_event_channel = NULL;
	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, &fd), DOCA_ERROR_NOT_SUPPORTED);
}

/* A short event (the EQE omitted) is a driver error, never a half-decoded event. */
static ssize_t short_get_event(struct mlx5dv_devx_event_channel *ch, struct mlx5dv_devx_async_event_hdr *data,
			       size_t len)
{
	(void)ch;
	(void)len;
	data->cookie = 5;
	return (ssize_t)sizeof(*data);
}

static void test_event_short_read(void **state)
{
	struct hfx *f = *state;
	struct ogda_devx_event_channel *ch = NULL;
	struct ogda_devx_event ev;
	int fd = -1;

	assert_int_equal(f->ops->event_channel_create(f->dev, &ch, &fd), DOCA_SUCCESS);
	fake_rdma_core_table()->dv.devx_get_event = short_get_event;
	assert_int_equal(f->ops->event_read(ch, &ev), DOCA_ERROR_DRIVER);
	assert_int_equal(f->ops->event_channel_destroy(ch), DOCA_SUCCESS);
}

static void test_resolve_rmac(void **state)
{
	struct hfx *f = *state;
	const struct fake_rdma_core_last *last = fake_rdma_core_last();
	const uint8_t dgid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3};
	const uint8_t want[6] = {0x02, 0x00, 10, 1, 2, 3};
	uint8_t mac[6];

	memset(mac, 0, sizeof(mac));
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 0, dgid, mac), DOCA_SUCCESS);
	assert_memory_equal(mac, want, 6);
	assert_int_equal(last->ah_attr.is_global, 1);
	assert_memory_equal(last->ah_attr.grh.dgid.raw, dgid, 16);
	assert_int_equal(last->ah_attr.grh.sgid_index, 0);
	assert_int_equal(last->ah_attr.grh.hop_limit, 64);
	assert_int_equal(last->ah_attr.port_num, 1);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 3, dgid, mac), DOCA_SUCCESS);
	assert_int_equal(last->ah_attr.grh.sgid_index, 3);

	/* The kernel cannot resolve it: NOT_FOUND (and the PD and AH are given back: teardown checks). */
	fake_rdma_core_fail_next(EHOSTUNREACH);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 0, dgid, mac), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 0, 0, dgid, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 256, dgid, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 0, NULL, mac), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 0, dgid, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(f->ops->resolve_rmac(NULL, 1, 0, dgid, mac), DOCA_ERROR_INVALID_VALUE);
	fake_rdma_core_table()->ibv.create_ah = NULL;
	assert_int_equal(f->ops->resolve_rmac(f->dev, 1, 0, dgid, mac), DOCA_ERROR_NOT_SUPPORTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_query_port, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_gid_and_eqn, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_query_gid_errno, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_event_channel, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_event_channel_failures, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_event_short_read, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_resolve_rmac, hfx_setup, hfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
