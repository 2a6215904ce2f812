/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rx_root_attach / rx_root_detach on the ConnectX binding over the fake rdma-core: the rule made
 * from the kernel's root (its matcher's type, priority and empty mask; the DEST_DEVX action naming
 * the flow table object), its removal, every failure leaving nothing behind, and over OpenGDA's
 * rdma-core front end the SET_FLOW_TABLE_ROOT command instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hw_fixture.h"
#include "prm/prm_flow.h"
#include "test_util.h"

#include <errno.h>
#include <string.h>

static uint32_t table(struct hfx *f, struct ogda_devx_obj **obj)
{
	struct prm_create_flow_table_params p;
	uint8_t in[PRM_FLOW_CMD_SIZE] = {0}, out[PRM_FLOW_SMALL_CMD_SIZE] = {0};
	uint32_t id = 0;

	memset(&p, 0, sizeof(p));
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.ctx.level = 1;
	p.ctx.log_size = 2;
	assert_int_equal(prm_create_flow_table_in_build(&p, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_create(f->dev, in, sizeof(in), out, sizeof(out), obj), DOCA_SUCCESS);
	assert_int_equal(prm_create_flow_table_out_parse(out, sizeof(out), &id), DOCA_SUCCESS);
	return id;
}

static void counts(int *matchers, int *flows)
{
	struct fake_rdma_core_counts c;

	fake_rdma_core_counts(&c);
	*matchers = c.matchers;
	*flows = c.flows;
}

static void test_attach_detach(void **state)
{
	struct hfx *f = *state;
	const struct fake_rdma_core_last *l = fake_rdma_core_last();
	struct ogda_devx_rx_root *root = NULL;
	struct ogda_devx_obj *t = NULL;
	uint32_t id = table(f, &t);
	int m, n;

	cmd_log_clear(fake_rdma_core_log());
	assert_int_equal(f->ops->rx_root_attach(f->dev, t, id, &root), DOCA_SUCCESS);
	assert_non_null(root);
	if (fake_rdma_core_root_rule_check(id) != NULL)
		fail_msg("%s", fake_rdma_core_root_rule_check(id));
	/* No DevX command: the kernel's steering, not SET_FLOW_TABLE_ROOT. */
	assert_int_equal(cmd_log_count(fake_rdma_core_log(), CMD_GENERAL, 0), 0);
	assert_int_equal(cmd_log_count(fake_rdma_core_log(), CMD_RX_ROOT, 0), 1);
	counts(&m, &n);
	assert_int_equal(m, 1);
	assert_int_equal(n, 1);
	assert_int_equal(f->ops->rx_root_detach(root), DOCA_SUCCESS);
	counts(&m, &n);
	assert_int_equal(m, 0);
	assert_int_equal(n, 0);
	assert_int_equal(l->flows_destroyed, 1);
	assert_int_equal(l->matchers_destroyed, 1);
	assert_int_equal(f->ops->obj_destroy(t), DOCA_SUCCESS);
}

static struct ibv_flow *refuse_flow(struct mlx5dv_flow_matcher *matcher, struct mlx5dv_flow_match_parameters *value,
				    size_t num_actions, struct mlx5dv_flow_action_attr actions_attr[])
{
	(void)matcher;
	(void)value;
	(void)num_actions;
	(void)actions_attr;
	errno = EPERM;
	return NULL;
}

static void test_failures(void **state)
{
	struct hfx *f = *state;
	struct ogda_rdma_core *rc = fake_rdma_core_table();
	const struct fake_rdma_core_last *l = fake_rdma_core_last();
	struct ogda_devx_rx_root *root = NULL;
	struct ogda_devx_obj *t = NULL, *cq = NULL;
	uint32_t id = table(f, &t);
	void *saved;
	int m, n;

	hfx_resources(f);
	/* Not a flow table, no table, no out pointer. */
	(void)hfx_cq(f, &cq, 0, 4096);
	TEST_EXPECT_ERR(f->ops->rx_root_attach(f->dev, cq, id, &root), DOCA_ERROR_INVALID_VALUE, "flow table object");
	TEST_EXPECT_ERR(f->ops->rx_root_attach(f->dev, NULL, id, &root), DOCA_ERROR_INVALID_VALUE, "flow table");
	TEST_EXPECT_ERR(f->ops->rx_root_attach(f->dev, t, id, NULL), DOCA_ERROR_INVALID_VALUE, "flow table object");
	TEST_EXPECT_ERR(f->ops->rx_root_detach(NULL), DOCA_ERROR_INVALID_VALUE, "receive root");

	/* The matcher refused. */
	fake_rdma_core_fail_next(EPERM);
	stderr_capture_begin();
	assert_int_equal(f->ops->rx_root_attach(f->dev, t, id, &root), DOCA_ERROR_DRIVER);
	{
		char log[4096];

		assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "mlx5dv_create_flow_matcher"));
	}
	counts(&m, &n);
	assert_int_equal(m + n, 0);

	/* The rule refused: its matcher goes too. */
	saved = (void *)rc->dv.create_flow;
	rc->dv.create_flow = refuse_flow;
	stderr_capture_begin();
	assert_int_equal(f->ops->rx_root_attach(f->dev, t, id, &root), DOCA_ERROR_DRIVER);
	{
		char log[4096];

		assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), "mlx5dv_create_flow"));
	}
	counts(&m, &n);
	assert_int_equal(m + n, 0);
	assert_int_equal(l->matchers_destroyed, 1);

	/* An rdma-core without the calls. */
	rc->dv.create_flow = NULL;
	TEST_EXPECT_ERR(f->ops->rx_root_attach(f->dev, t, id, &root), DOCA_ERROR_NOT_SUPPORTED, "mlx5dv_create_flow");
	rc->dv.create_flow = (struct ibv_flow * (*)(struct mlx5dv_flow_matcher *, struct mlx5dv_flow_match_parameters *,
						     size_t, struct mlx5dv_flow_action_attr[]))saved;
	assert_int_equal(f->ops->obj_destroy(cq), DOCA_SUCCESS);
	assert_int_equal(f->ops->obj_destroy(t), DOCA_SUCCESS);
}

static void front_marker(void)
{
}

/* Over OpenGDA's rdma-core front end (no steering rules; DevX reaches the software NIC): the command. */
static void test_front_end_uses_command(void **state)
{
	struct hfx *f = *state;
	struct ogda_rdma_core *rc = fake_rdma_core_table();
	struct prm_set_flow_table_root_params p;
	struct ogda_devx_rx_root *root = NULL;
	struct ogda_devx_obj *t = NULL;
	const struct cmd_log *log = fake_rdma_core_log();
	uint32_t id = table(f, &t);
	int m, n;

	rc->ibv.opengda_front = front_marker; /* what marks the front end's libibverbs */
	cmd_log_clear(fake_rdma_core_log());
	assert_int_equal(f->ops->rx_root_attach(f->dev, t, id, &root), DOCA_SUCCESS);
	assert_int_equal(log->n, 1);
	assert_int_equal(log->e[0].kind, CMD_GENERAL);
	assert_int_equal(prm_set_flow_table_root_in_parse(log->e[0].bytes, log->e[0].len, &p), DOCA_SUCCESS);
	assert_int_equal(p.op_mod, 0);
	assert_int_equal(p.table_type, PRM_FLOW_TABLE_NIC_RX);
	assert_int_equal(p.table_id, id);
	counts(&m, &n);
	assert_int_equal(m + n, 0);
	assert_int_equal(f->ops->rx_root_detach(root), DOCA_SUCCESS);
	assert_int_equal(log->n, 2);
	assert_int_equal(prm_set_flow_table_root_in_parse(log->e[1].bytes, log->e[1].len, &p), DOCA_SUCCESS);
	assert_int_equal(p.op_mod, 1);
	assert_int_equal(p.table_id, 0);
	rc->ibv.opengda_front = NULL;
	assert_int_equal(f->ops->obj_destroy(t), DOCA_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_attach_detach, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_failures, hfx_setup, hfx_teardown),
		cmocka_unit_test_setup_teardown(test_front_end_uses_command, hfx_setup, hfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
