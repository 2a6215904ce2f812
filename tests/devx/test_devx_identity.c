/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte identity at the device-op level: the scripted sequence of identity_script.c runs on
 * the software NIC (ogda_devx_sw_open(0), recorded at its ops table) and on the ConnectX
 * device over the fake rdma-core (recorded where rdma-core receives the calls). The two
 * recorded streams must be byte-identical, and every step must end the same way (return
 * value, object number, out mailbox).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "devx/hw.h"
#include "devx/sw.h"
#include "fake_rdma_core.h"
#include "identity_script.h"
#include "prm/prm_cmd.h"
#include "sw_record.h"

static struct cmd_log sw_cmds, sw_results, hw_results;

static void run_sw(uint8_t *arena)
{
	struct ogda_devx *dev = NULL;

	sw_record_replay_random();
	assert_int_equal(ogda_devx_sw_open(0, &dev), DOCA_SUCCESS);
	sw_record_wrap(dev, &sw_cmds);
	identity_script_run(dev, arena, &sw_results);
	dev->ops->close(dev);
}

static void run_hw(uint8_t *arena)
{
	struct ogda_devx *dev = NULL;
	struct fake_rdma_core_counts c;

	sw_record_replay_random();
	fake_rdma_core_install();
	assert_int_equal(ogda_devx_hw_open(FAKE_MLX5_NAME, &dev), DOCA_SUCCESS);
	assert_true(ogda_devx_is_hw(dev));
	identity_script_run(dev, arena, &hw_results);
	dev->ops->close(dev);
	fake_rdma_core_counts(&c);
	fake_rdma_core_uninstall();
	assert_int_equal(c.contexts + c.pds + c.mrs + c.umems + c.uars + c.objs, 0);
}

static void test_command_streams_identical(void **state)
{
	const struct cmd_log *hw_cmds = fake_rdma_core_log();
	uint8_t *arena = aligned_alloc(4096, IDS_ARENA_SIZE);

	(void)state;
	assert_non_null(arena);
	memset(arena, 0, IDS_ARENA_SIZE);
	cmd_log_init(&sw_cmds);
	cmd_log_init(&sw_results);
	cmd_log_init(&hw_results);
	run_sw(arena);
	memset(arena, 0, IDS_ARENA_SIZE);
	run_hw(arena);

	/* The stream covers what it claims to (a test of nothing would pass too). */
	assert_int_equal(cmd_log_count(hw_cmds, CMD_GENERAL, PRM_CMD_QUERY_HCA_CAP), 3);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_GENERAL, 0), 4);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_CREATE, 0), 4);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MODIFY, 0), 9);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MODIFY, PRM_CMD_SQERR2RTS_QP), 2);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_QUERY, 0), 6);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_DESTROY, 0), 5);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_PD_ALLOC, 0), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_UMEM_REG, 0), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_UAR_ALLOC, 0), 1);
	assert_int_equal(cmd_log_count(hw_cmds, CMD_MR_REG, 0), 1);
	assert_int_equal(hw_results.n, sw_results.n);
	assert_true(hw_results.n > 30);

	cmd_log_assert_equal(&sw_cmds, hw_cmds);
	cmd_log_assert_equal(&sw_results, &hw_results);

	cmd_log_fini(&sw_cmds);
	cmd_log_fini(&sw_results);
	cmd_log_fini(&hw_results);
	free(arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_streams_identical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
