/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Software NIC instances: the process registry (count, open/close reference counting,
 * lookup by GID), the GID that encodes the fabric endpoint, and QP / CQ lookups by number.
 * Runs with OPENGDA_SWNIC_COUNT=2 and the default endpoint (127.0.0.1, kernel-chosen port).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd_fixture.h"
#include "prm/prm_cmd.h"
#include "swnic/swnic_ctl.h"

static const uint8_t gid_prefix[8] = {0xfd, 0x4f, 0x47, 0x44, 0x41, 0x01, 0x00, 0x00};

static void test_count_from_environment(void **state)
{
	(void)state;
	assert_int_equal(swnic_count(), 2);
	setenv("OPENGDA_SWNIC_COUNT", "5", 1);
	assert_int_equal(swnic_count(), 5);
	setenv("OPENGDA_SWNIC_COUNT", "0", 1);
	assert_int_equal(swnic_count(), 0);
	/* Out of range or not a number: the default, 1. */
	setenv("OPENGDA_SWNIC_COUNT", "17", 1);
	assert_int_equal(swnic_count(), 1);
	setenv("OPENGDA_SWNIC_COUNT", "two", 1);
	assert_int_equal(swnic_count(), 1);
	unsetenv("OPENGDA_SWNIC_COUNT");
	assert_int_equal(swnic_count(), 1);
	setenv("OPENGDA_SWNIC_COUNT", "2", 1);
}

static void test_open_shares_and_counts(void **state)
{
	struct swnic *a = NULL, *b = NULL, *c = NULL;

	(void)state;
	assert_int_equal(swnic_open(0, &a), DOCA_SUCCESS);
	assert_int_equal(swnic_open(0, &b), DOCA_SUCCESS);
	assert_ptr_equal(a, b);
	assert_int_equal(atomic_load(&a->refs), 2);
	assert_string_equal(a->name, "swnic0");
	assert_int_equal(a->index, 0);
	assert_non_null(a->engine);
	assert_non_null(a->fabric);
	swnic_close(b);
	assert_int_equal(atomic_load(&a->refs), 1);
	swnic_get(a);
	assert_int_equal(atomic_load(&a->refs), 2);
	swnic_close(a);
	swnic_close(a);
	/* Gone: the next open builds a new instance whose tables start afresh. */
	assert_int_equal(swnic_open(0, &c), DOCA_SUCCESS);
	assert_int_equal(atomic_load(&c->refs), 1);
	assert_int_equal(c->pds.count, 0);
	swnic_close(c);
}

static void test_open_rejects_bad_index(void **state)
{
	struct swnic *nic = NULL;

	(void)state;
	assert_int_equal(swnic_open(2, &nic), DOCA_ERROR_NOT_FOUND);
	assert_null(nic);
	assert_int_equal(swnic_open(SWNIC_MAX_INSTANCES, &nic), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(swnic_open(0, NULL), DOCA_ERROR_INVALID_VALUE);
	swnic_close(NULL); /* harmless */
}

static uint16_t gid_port(const uint8_t *gid)
{
	return (uint16_t)((gid[10] << 8) | gid[11]);
}

static void test_two_instances_distinct_gids(void **state)
{
	struct swnic *n0 = NULL, *n1 = NULL;

	(void)state;
	assert_int_equal(swnic_open(0, &n0), DOCA_SUCCESS);
	assert_int_equal(swnic_open(1, &n1), DOCA_SUCCESS);
	assert_ptr_not_equal(n0, n1);
	assert_string_equal(n1->name, "swnic1");
	assert_memory_not_equal(n0->gid, n1->gid, 16);
	/* fd 4f 47 44 41 01 00 00 | NIC index (BE16) | TCP port (BE16) | IPv4 127.0.0.1 */
	assert_memory_equal(n0->gid, gid_prefix, 8);
	assert_memory_equal(n1->gid, gid_prefix, 8);
	assert_int_equal(n0->gid[8], 0);
	assert_int_equal(n0->gid[9], 0);
	assert_int_equal(n1->gid[8], 0);
	assert_int_equal(n1->gid[9], 1);
	assert_int_equal(n0->gid[12], 127);
	assert_int_equal(n0->gid[13], 0);
	assert_int_equal(n0->gid[14], 0);
	assert_int_equal(n0->gid[15], 1);
	assert_int_not_equal(gid_port(n0->gid), 0);
	assert_int_not_equal(gid_port(n1->gid), 0);
	assert_int_not_equal(gid_port(n0->gid), gid_port(n1->gid));
	swnic_close(n1);
	swnic_close(n0);
}

/* The port in the GID is where the NIC listens: a TCP connect to it succeeds. */
static void test_gid_encodes_live_endpoint(void **state)
{
	struct swnic *nic = NULL;
	struct sockaddr_in sa;
	int fd;

	(void)state;
	assert_int_equal(swnic_open(0, &nic), DOCA_SUCCESS);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	memcpy(&sa.sin_port, &nic->gid[10], 2);
	memcpy(&sa.sin_addr, &nic->gid[12], 4);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	swnic_close(nic);
}

static void test_find_by_gid(void **state)
{
	struct swnic *n0 = NULL, *n1 = NULL, *found;
	uint8_t other[16];

	(void)state;
	assert_int_equal(swnic_open(0, &n0), DOCA_SUCCESS);
	assert_int_equal(swnic_open(1, &n1), DOCA_SUCCESS);
	found = swnic_find_by_gid(n1->gid);
	assert_ptr_equal(found, n1);
	assert_int_equal(atomic_load(&n1->refs), 2);   /* the lookup holds a reference */
	swnic_close(found);
	found = swnic_find_by_gid(n0->gid);
	assert_ptr_equal(found, n0);
	swnic_close(found);
	memcpy(other, n0->gid, 16);
	other[9] = 7;
	assert_null(swnic_find_by_gid(other));
	assert_null(swnic_find_by_gid(NULL));
	/* A closed instance is not found any more. */
	memcpy(other, n1->gid, 16);
	swnic_close(n1);
	assert_null(swnic_find_by_gid(other));
	swnic_close(n0);
}

static void test_acquire_qp_and_cq(void **state)
{
	struct cfx f;
	struct swnic_qp *qp;
	struct swnic_cq *cq;
	uint32_t qpn, cqn, synd = 0;
	unsigned int refs;

	(void)state;
	cfx_open(&f);
	qpn = cfx_qp(&f);
	cqn = cfx_cq(&f, 3);
	assert_null(swnic_qp_acquire(f.nic, qpn + 1));
	assert_null(swnic_qp_acquire(f.nic, cqn));
	assert_null(swnic_qp_acquire(NULL, qpn));
	qp = swnic_qp_acquire(f.nic, qpn);
	assert_non_null(qp);
	assert_int_equal(qp->qpn, qpn);
	assert_ptr_equal(qp->nic, f.nic);
	refs = atomic_load(&qp->refs);   /* the engine may hold one of its own */
	assert_ptr_equal(swnic_qp_acquire(f.nic, qpn), qp);
	assert_int_equal(atomic_load(&qp->refs), refs + 1);
	swnic_qp_release(qp);
	swnic_qp_release(qp);
	assert_int_equal(atomic_load(&qp->refs), refs - 1);

	/* An acquired CQ is in use: DESTROY_CQ refuses until it is released. */
	cq = swnic_cq_acquire(f.nic, cqn);
	assert_non_null(cq);
	assert_int_equal(cq->cqn, cqn);
	assert_null(swnic_cq_acquire(f.nic, qpn));
	assert_int_equal(cfx_destroy(&f, PRM_CMD_DESTROY_CQ, cqn, &synd), PRM_STATUS_BAD_RES_STATE);
	assert_int_equal(synd, SWNIC_SYND_CQ_IN_USE);
	swnic_cq_release(cq);
	assert_int_equal(cfx_destroy(&f, PRM_CMD_DESTROY_CQ, cqn, NULL), PRM_STATUS_OK);
	assert_null(swnic_cq_acquire(f.nic, cqn));

	/* A destroyed QP is not found any more. */
	assert_int_equal(cfx_destroy(&f, PRM_CMD_DESTROY_QP, qpn, NULL), PRM_STATUS_OK);
	assert_null(swnic_qp_acquire(f.nic, qpn));
	cfx_close(&f);
}

/* Closing with objects alive frees them all (the sanitizer runs catch a leak or a stale access). */
static void test_close_with_live_objects(void **state)
{
	struct cfx f;
	static uint8_t buf[256];
	uint32_t lkey = 0, rkey = 0, qpn;

	(void)state;
	cfx_open(&f);
	qpn = cfx_qp(&f);
	cfx_qp_to(&f, qpn, PRM_QP_STATE_RTS);
	assert_int_equal(swnic_mr_register(f.nic, f.pdn, buf, sizeof(buf), OGDA_ACCESS_LOCAL_WRITE, &lkey, &rkey),
			 DOCA_SUCCESS);
	cfx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_from_environment),
		cmocka_unit_test(test_open_shares_and_counts),
		cmocka_unit_test(test_open_rejects_bad_index),
		cmocka_unit_test(test_two_instances_distinct_gids),
		cmocka_unit_test(test_gid_encodes_live_endpoint),
		cmocka_unit_test(test_find_by_gid),
		cmocka_unit_test(test_acquire_qp_and_cq),
		cmocka_unit_test(test_close_with_live_objects),
	};

	/* Two NICs on the default endpoint, whatever the caller's environment says. */
	setenv("OPENGDA_SWNIC_COUNT", "2", 1);
	unsetenv("OPENGDA_SWNIC_ADDR");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
