/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port MTU knob, OPENGDA_SWNIC_MTU (CTest runs this with 1024): query_port reports it
 * as the active and max MTU, INIT2RTR refuses a path MTU above it (BAD_PARAM, BAD_MTU)
 * and leaves the QP in INIT, and the knob's parser maps every accepted value and falls
 * back to 4096 on anything else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "devx/sw.h"
#include "prm/prm_cmd.h"
#include "prm/prm_qp.h"
#include "swnic/swnic_ctl.h"

static void test_query_port_reports_knob(void **state)
{
	struct ogda_devx_port_attr attr;
	struct ogda_devx *dev = NULL;
	struct cfx *f = *state;

	assert_string_equal(getenv(SWNIC_ENV_MTU), "1024");
	assert_int_equal(f->nic->port_mtu, PRM_QP_MTU_1024);
	assert_int_equal(ogda_devx_sw_open(0, &dev), DOCA_SUCCESS);
	memset(&attr, 0xff, sizeof(attr));
	assert_int_equal(dev->ops->query_port(dev, 1, &attr), DOCA_SUCCESS);
	assert_int_equal(attr.max_mtu, 3);
	assert_int_equal(attr.active_mtu, 3);
	assert_int_equal(attr.state, 4);
	dev->ops->close(dev);
}

static uint8_t init2rtr(struct cfx *f, uint32_t qpn, uint8_t mtu, uint32_t *synd)
{
	struct prm_modify_qp_params p;

	cfx_modify_params(PRM_CMD_INIT2RTR_QP, qpn, &p);
	p.qpc.mtu = mtu;
	return cfx_modify(f, &p, synd);
}

static void test_init2rtr_above_port_mtu(void **state)
{
	struct prm_qpc_params q;
	struct cfx *f = *state;
	uint32_t qpn = cfx_qp(f), qpn2 = cfx_qp(f), synd = 0;

	cfx_qp_to(f, qpn, PRM_QP_STATE_INIT);
	cfx_qp_to(f, qpn2, PRM_QP_STATE_INIT);
	assert_int_equal(init2rtr(f, qpn, PRM_QP_MTU_4096, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_MTU);
	synd = 0;
	assert_int_equal(init2rtr(f, qpn, PRM_QP_MTU_2048, &synd), PRM_STATUS_BAD_PARAM);
	assert_int_equal(synd, SWNIC_SYND_BAD_MTU);
	assert_int_equal(cfx_qp_state(f, qpn), PRM_QP_STATE_INIT);
	/* The port MTU itself, and below it, are accepted and recorded. */
	assert_int_equal(init2rtr(f, qpn, PRM_QP_MTU_1024, &synd), PRM_STATUS_OK);
	assert_int_equal(cfx_qp_state(f, qpn), PRM_QP_STATE_RTR);
	assert_int_equal(cfx_query_qp(f, qpn, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.mtu, PRM_QP_MTU_1024);
	assert_int_equal(init2rtr(f, qpn2, PRM_QP_MTU_256, &synd), PRM_STATUS_OK);
	assert_int_equal(cfx_query_qp(f, qpn2, &q, NULL), PRM_STATUS_OK);
	assert_int_equal(q.mtu, PRM_QP_MTU_256);
}

static void expect_mtu(const char *value, uint8_t mtu)
{
	if (value == NULL)
		assert_int_equal(unsetenv(SWNIC_ENV_MTU), 0);
	else
		assert_int_equal(setenv(SWNIC_ENV_MTU, value, 1), 0);
	print_message("%s=%s\n", SWNIC_ENV_MTU, value != NULL ? value : "(unset)");
	assert_int_equal(swnic_port_mtu_from_env(), mtu);
}

static void test_knob_values(void **state)
{
	(void)state;
	expect_mtu("256", PRM_QP_MTU_256);
	expect_mtu("512", PRM_QP_MTU_512);
	expect_mtu("1024", PRM_QP_MTU_1024);
	expect_mtu("2048", PRM_QP_MTU_2048);
	expect_mtu("4096", PRM_QP_MTU_4096);
	expect_mtu(NULL, PRM_QP_MTU_4096);
	expect_mtu("", PRM_QP_MTU_4096);
	/* Bad values: an error line, and 4096. */
	expect_mtu("1500", PRM_QP_MTU_4096);
	expect_mtu("128", PRM_QP_MTU_4096);
	expect_mtu("8192", PRM_QP_MTU_4096);
	expect_mtu("2k", PRM_QP_MTU_4096);
	expect_mtu("-1024", PRM_QP_MTU_4096);
	assert_int_equal(setenv(SWNIC_ENV_MTU, "1024", 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_query_port_reports_knob, cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_init2rtr_above_port_mtu, cfx_setup, cfx_teardown),
		cmocka_unit_test(test_knob_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
