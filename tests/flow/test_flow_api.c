/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow's public functions on the software NIC "swnic0": bad input to every one of them
 * (NULL, wrong state, values out of range, features and fields not offered, unknown queue ids),
 * each refused with its documented error and exactly one error line saying why; and the life
 * cycle rules (one initialisation, one port per device and id, one root, pipes that others
 * forward to stay, table levels, full pipes and counters, duplicate entries, completions of
 * adds and removes, doca_flow_destroy stopping what is left).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "flow_fixture.h"
#include "test_util.h"

#define E(call, want, needle) TEST_EXPECT_ERR(call, want, needle)

/* A void call that must log exactly one error line holding @needle. */
#define E_VOID(call, needle)                                                                       \
	do {                                                                                       \
		char log_[4096];                                                                   \
		stderr_capture_begin();                                                            \
		call;                                                                              \
		stderr_capture_end(log_, sizeof(log_));                                            \
		if (!test_log_one_err(log_, (needle)))                                             \
			fail_msg("expected one ERR line holding \"%s\", got: %s", (needle), log_);   \
	} while (0)

static struct ffx fx;

static int setup(void **state)
{
	(void)state;
	ffx_open(&fx, "swnic0");
	ffx_rxq_start(&fx, 0, 1);
	ffx_rxq_start(&fx, 1, 2);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	doca_flow_destroy();
	ffx_rxq_stop(&fx, 0);
	ffx_rxq_stop(&fx, 1);
	ffx_close(&fx);
	return 0;
}

static void test_cfg(void **state)
{
	struct doca_flow_cfg *cfg = NULL;
	uint8_t key[40] = {1};

	(void)state;
	E(doca_flow_cfg_create(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	assert_int_equal(doca_flow_cfg_create(&cfg), DOCA_SUCCESS);
	E(doca_flow_cfg_set_pipe_queues(NULL, 1), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_set_pipe_queues(cfg, 0), DOCA_ERROR_INVALID_VALUE, "pipe queues");
	E(doca_flow_cfg_set_pipe_queues(cfg, 257), DOCA_ERROR_INVALID_VALUE, "pipe queues");
	E(doca_flow_cfg_set_nr_counters(NULL, 1), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_set_nr_meters(cfg, 4), DOCA_ERROR_NOT_SUPPORTED, "meters");
	assert_int_equal(doca_flow_cfg_set_nr_meters(cfg, 0), DOCA_SUCCESS);
	E(doca_flow_cfg_set_queue_depth(cfg, 0), DOCA_ERROR_INVALID_VALUE, "queue depth");
	E(doca_flow_cfg_set_cb_entry_process(NULL, NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_set_cb_pipe_process(NULL, NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_set_rss_key(cfg, NULL, 40), DOCA_ERROR_INVALID_VALUE, "40 bytes");
	E(doca_flow_cfg_set_rss_key(cfg, key, 39), DOCA_ERROR_INVALID_VALUE, "40 bytes");
	assert_int_equal(doca_flow_cfg_set_rss_key(cfg, key, 40), DOCA_SUCCESS);

	E(doca_flow_cfg_set_mode_args(NULL, "vnf"), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_cfg_set_mode_args(cfg, NULL), DOCA_ERROR_INVALID_VALUE, "mode_args must not be NULL");
	E(doca_flow_cfg_set_mode_args(cfg, ""), DOCA_ERROR_INVALID_VALUE, "names no mode");
	E(doca_flow_cfg_set_mode_args(cfg, "hws,isolated"), DOCA_ERROR_INVALID_VALUE, "names no mode");
	E(doca_flow_cfg_set_mode_args(cfg, "vnf,hws,turbo"), DOCA_ERROR_INVALID_VALUE, "unknown word \"turbo\"");
	E(doca_flow_cfg_set_mode_args(cfg, "vnf,,hws"), DOCA_ERROR_INVALID_VALUE, "empty word");
	E(doca_flow_cfg_set_mode_args(cfg, "vnf,vnf"), DOCA_ERROR_INVALID_VALUE, "twice");
	E(doca_flow_cfg_set_mode_args(cfg, "switch,hws"), DOCA_ERROR_NOT_SUPPORTED, "\"switch\"");
	E(doca_flow_cfg_set_mode_args(cfg, "remote_vnf"), DOCA_ERROR_NOT_SUPPORTED, "\"remote_vnf\"");
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "vnf"), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "vnf,hws"), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "vnf,hws,isolated"), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "hws,isolated,vnf,use_doca_eth,expert"), DOCA_SUCCESS);

	/* initialisation: once */
	E(doca_flow_init(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	assert_int_equal(doca_flow_init(cfg), DOCA_SUCCESS);
	E(doca_flow_init(cfg), DOCA_ERROR_BAD_STATE, "initialised already");
	doca_flow_destroy();
	assert_int_equal(doca_flow_init(cfg), DOCA_SUCCESS); /* again after destroy */
	doca_flow_destroy();
	doca_flow_destroy(); /* not initialised: nothing to do, no error */
	assert_int_equal(doca_flow_cfg_destroy(cfg), DOCA_SUCCESS);

	{
		struct doca_flow_target *t = NULL;

		E(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, NULL), DOCA_ERROR_INVALID_VALUE, "target must not be NULL");
		E(doca_flow_get_target((enum doca_flow_target_type)5, &t), DOCA_ERROR_NOT_SUPPORTED, "only");
		assert_int_equal(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, &t), DOCA_SUCCESS);
		assert_non_null(t);
	}
}

static void test_port(void **state)
{
	struct doca_flow_port_cfg *pc = NULL, *pc2 = NULL;
	struct doca_flow_port *port = NULL, *other = NULL;
	struct doca_flow_pipe_cfg *pipe_cfg = NULL;

	(void)state;
	E(doca_flow_port_cfg_create(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_port_cfg_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	assert_int_equal(doca_flow_port_cfg_create(&pc), DOCA_SUCCESS);
	E(doca_flow_port_cfg_set_port_id(NULL, 1), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_port_cfg_set_dev(NULL, fx.dev), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_port_cfg_set_dev(pc, NULL), DOCA_ERROR_INVALID_VALUE, "dev must not be NULL");
	E(doca_flow_port_cfg_set_devargs(pc, NULL), DOCA_ERROR_INVALID_VALUE, "devargs must not be NULL");
	E(doca_flow_port_cfg_set_devargs(pc, "0000:17:00.0"), DOCA_ERROR_NOT_SUPPORTED, "DPDK ports");
	assert_int_equal(doca_flow_port_cfg_set_devargs(pc, ""), DOCA_SUCCESS);

	E(doca_flow_port_start(NULL, &port), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_port_start(pc, NULL), DOCA_ERROR_INVALID_VALUE, "port must not be NULL");
	E(doca_flow_port_start(pc, &port), DOCA_ERROR_INVALID_VALUE, "names no device");
	assert_int_equal(doca_flow_port_cfg_set_dev(pc, fx.dev), DOCA_SUCCESS);
	E(doca_flow_port_start(pc, &port), DOCA_ERROR_BAD_STATE, "doca_flow_init() first");
	E(doca_flow_pipe_cfg_create(&pipe_cfg, (struct doca_flow_port *)pc), DOCA_ERROR_BAD_STATE,
	  "doca_flow_init() first");

	ffx_flow_init(2, 0, NULL);
	assert_int_equal(doca_flow_port_cfg_set_port_id(pc, 3), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_start(pc, &port), DOCA_SUCCESS);
	E(doca_flow_port_start(pc, &other), DOCA_ERROR_ALREADY_EXIST, "this port id");
	assert_int_equal(doca_flow_port_cfg_create(&pc2), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_set_port_id(pc2, 4), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_set_dev(pc2, fx.dev), DOCA_SUCCESS);
	E(doca_flow_port_start(pc2, &other), DOCA_ERROR_ALREADY_EXIST, "this device");

	E(doca_flow_port_stop(NULL), DOCA_ERROR_INVALID_VALUE, "port must not be NULL");
	E(doca_flow_entries_process(NULL, 0, 0, 0), DOCA_ERROR_INVALID_VALUE, "port must not be NULL");
	E(doca_flow_entries_process(port, 2, 0, 0), DOCA_ERROR_INVALID_VALUE, "pipe_queue out of range");
	assert_int_equal(doca_flow_entries_process(port, 1, 0, 0), DOCA_SUCCESS);
	E_VOID(doca_flow_port_pipes_flush(NULL), "port must not be NULL");
	doca_flow_port_pipes_flush(port); /* nothing to flush */
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	E(doca_flow_port_stop(port), DOCA_ERROR_INVALID_VALUE, "not a started port");
	E_VOID(doca_flow_port_pipes_flush(port), "not a started port");
	E(doca_flow_entries_process(port, 0, 0, 0), DOCA_ERROR_INVALID_VALUE, "not a started port");
	E(doca_flow_pipe_cfg_create(&pipe_cfg, port), DOCA_ERROR_INVALID_VALUE, "not a started port");

	/* doca_flow_destroy stops a port left started (a warning, not an error) */
	assert_int_equal(doca_flow_port_start(pc, &port), DOCA_SUCCESS);
	doca_flow_destroy();
	E(doca_flow_port_stop(port), DOCA_ERROR_BAD_STATE, "doca_flow_init() first");
	assert_int_equal(doca_flow_port_cfg_destroy(pc), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_destroy(pc2), DOCA_SUCCESS);
}

static void test_pipe_cfg(void **state)
{
	struct doca_flow_pipe_cfg *pc = NULL;
	struct doca_flow_port *port;
	struct doca_flow_monitor mon;
	struct doca_flow_actions act, *acts[1] = {&act};
	struct doca_flow_match m;

	(void)state;
	ffx_flow_init(1, 0, NULL);
	port = ffx_port_start(&fx, 0);
	E(doca_flow_pipe_cfg_create(NULL, port), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_cfg_create(&pc, NULL), DOCA_ERROR_INVALID_VALUE, "port must not be NULL");
	E(doca_flow_pipe_cfg_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	assert_int_equal(doca_flow_pipe_cfg_create(&pc, port), DOCA_SUCCESS);
	E(doca_flow_pipe_cfg_set_name(NULL, "x"), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_cfg_set_name(pc, NULL), DOCA_ERROR_INVALID_VALUE, "name must not be NULL");
	assert_int_equal(doca_flow_pipe_cfg_set_name(pc, "p"), DOCA_SUCCESS);
	E(doca_flow_pipe_cfg_set_type(NULL, DOCA_FLOW_PIPE_BASIC), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_cfg_set_type(pc, DOCA_FLOW_PIPE_LPM), DOCA_ERROR_NOT_SUPPORTED, "LPM is not supported");
	E(doca_flow_pipe_cfg_set_type(pc, DOCA_FLOW_PIPE_HASH), DOCA_ERROR_NOT_SUPPORTED, "HASH is not supported");
	E(doca_flow_pipe_cfg_set_type(pc, (enum doca_flow_pipe_type)40), DOCA_ERROR_INVALID_VALUE, "not a pipe type");
	E(doca_flow_pipe_cfg_set_domain(pc, DOCA_FLOW_PIPE_DOMAIN_EGRESS), DOCA_ERROR_NOT_SUPPORTED, "DEFAULT domain");
	E(doca_flow_pipe_cfg_set_domain(pc, (enum doca_flow_pipe_domain)9), DOCA_ERROR_INVALID_VALUE, "not a pipe domain");
	E(doca_flow_pipe_cfg_set_domain(NULL, DOCA_FLOW_PIPE_DOMAIN_DEFAULT), DOCA_ERROR_INVALID_VALUE, "cfg must not");
	E(doca_flow_pipe_cfg_set_is_root(NULL, true), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_cfg_set_nr_entries(pc, 0), DOCA_ERROR_INVALID_VALUE, "entries");
	E(doca_flow_pipe_cfg_set_nr_entries(pc, 70000), DOCA_ERROR_INVALID_VALUE, "entries");
	E(doca_flow_pipe_cfg_set_nr_entries(NULL, 1), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_cfg_set_is_resizable(pc, true), DOCA_ERROR_NOT_SUPPORTED, "resizable");
	assert_int_equal(doca_flow_pipe_cfg_set_is_resizable(pc, false), DOCA_SUCCESS);
	E(doca_flow_pipe_cfg_set_miss_counter(pc, true), DOCA_ERROR_NOT_SUPPORTED, "miss counters");
	assert_int_equal(doca_flow_pipe_cfg_set_miss_counter(pc, false), DOCA_SUCCESS);
	E(doca_flow_pipe_cfg_set_user_ctx(NULL, NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");

	memset(&mon, 0, sizeof(mon));
	E(doca_flow_pipe_cfg_set_monitor(pc, NULL), DOCA_ERROR_INVALID_VALUE, "monitor must not be NULL");
	E(doca_flow_pipe_cfg_set_monitor(NULL, &mon), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	mon.counter_type = DOCA_FLOW_RESOURCE_TYPE_SHARED;
	E(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_NOT_SUPPORTED, "shared counters");
	mon.counter_type = (enum doca_flow_resource_type)7;
	E(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_INVALID_VALUE, "not a resource type");
	memset(&mon, 0, sizeof(mon));
	mon.meter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	E(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_NOT_SUPPORTED, "meters");
	memset(&mon, 0, sizeof(mon));
	mon.aging_sec = 10;
	E(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_ERROR_NOT_SUPPORTED, "aging");

	memset(&act, 0, sizeof(act));
	assert_int_equal(doca_flow_pipe_cfg_set_actions(pc, acts, NULL, NULL, 1), DOCA_SUCCESS); /* all zero */
	act.pop_vlan = true;
	E(doca_flow_pipe_cfg_set_actions(pc, acts, NULL, NULL, 1), DOCA_ERROR_NOT_SUPPORTED, "packet actions");
	E(doca_flow_pipe_cfg_set_actions(pc, NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE, "actions is NULL");
	E(doca_flow_pipe_cfg_set_actions(NULL, NULL, NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");

	memset(&m, 0, sizeof(m));
	E(doca_flow_pipe_cfg_set_match(NULL, &m, NULL), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	m.tun.type = DOCA_FLOW_TUN_GENEVE;
	E(doca_flow_pipe_cfg_set_match(pc, &m, NULL), DOCA_ERROR_NOT_SUPPORTED, "tun (tunnel headers)");
	memset(&m, 0, sizeof(m));
	m.inner.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	E(doca_flow_pipe_cfg_set_match(pc, NULL, &m), DOCA_ERROR_NOT_SUPPORTED, "inner (inner headers) (in the mask)");
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	doca_flow_destroy();
}

static void test_pipe_create(void **state)
{
	uint16_t q[2] = {1, 2}, unknown = 99;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_pipe *p = NULL, *leaf = NULL, *root = NULL, *mid = NULL;
	struct doca_flow_port *port;
	struct doca_flow_fwd fwd, miss;
	static uint64_t bogus; /* not a target */

	(void)state;
	ffx_flow_init(1, 0, NULL);
	port = ffx_port_start(&fx, 0);
	pc = ffx_pipe_cfg(port, "bad", DOCA_FLOW_PIPE_BASIC, false, 4);
	E(doca_flow_pipe_create(NULL, NULL, NULL, &p), DOCA_ERROR_INVALID_VALUE, "cfg must not be NULL");
	E(doca_flow_pipe_create(pc, NULL, NULL, NULL), DOCA_ERROR_INVALID_VALUE, "pipe must not be NULL");

	fwd = ffx_fwd_type(DOCA_FLOW_FWD_PORT);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "PORT is not supported");
	fwd = ffx_fwd_type(DOCA_FLOW_FWD_HASH_PIPE);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "HASH_PIPE is not supported");
	fwd = ffx_fwd_type((enum doca_flow_fwd_type)77);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "not a forward type");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4);
	fwd.rss_type = DOCA_FLOW_RESOURCE_TYPE_SHARED;
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "shared RSS");
	fwd = ffx_fwd_rss(&unknown, 1, DOCA_FLOW_RSS_IPV4);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_FOUND, "queue id 99");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV6);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "IPv4 and IPv6");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_TCP);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "UDP and TCP");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_UDP);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "needs an L3 type");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_ESP);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "RSS fields");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4);
	fwd.rss.inner_flags = DOCA_FLOW_RSS_IPV4;
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_NOT_SUPPORTED, "inner headers");
	fwd = ffx_fwd_rss(q, 0, DOCA_FLOW_RSS_IPV4);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "queue ids");
	fwd = ffx_fwd_rss(NULL, 1, DOCA_FLOW_RSS_IPV4);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "queues_array NULL");
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4);
	fwd.rss.rss_hash_func = (enum doca_flow_rss_hash_function)5;
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "hash function");
	fwd = ffx_fwd_pipe(NULL);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "next_pipe is NULL");
	fwd = ffx_fwd_type(DOCA_FLOW_FWD_TARGET);
	fwd.target = (struct doca_flow_target *)(void *)&bogus;
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "doca_flow_get_target");
	miss = ffx_fwd_type(DOCA_FLOW_FWD_CHANGEABLE);
	E(doca_flow_pipe_create(pc, NULL, &miss, &p), DOCA_ERROR_INVALID_VALUE, "CHANGEABLE is only");

	/* a leaf: RSS with a drop miss; then a CONTROL root */
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	miss = ffx_fwd_type(DOCA_FLOW_FWD_DROP);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, &miss, &leaf), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	pc = ffx_pipe_cfg(port, "root", DOCA_FLOW_PIPE_CONTROL, true, 4);
	fwd = ffx_fwd_type(DOCA_FLOW_FWD_DROP);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &root), DOCA_ERROR_INVALID_VALUE, "takes no fwd");
	assert_int_equal(doca_flow_pipe_create(pc, NULL, NULL, &root), DOCA_SUCCESS);
	E(doca_flow_pipe_create(pc, NULL, NULL, &p), DOCA_ERROR_ALREADY_EXIST, "root pipe already");
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	/* nothing forwards to the root */
	pc = ffx_pipe_cfg(port, "to-root", DOCA_FLOW_PIPE_BASIC, false, 4);
	fwd = ffx_fwd_pipe(root);
	E(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_ERROR_INVALID_VALUE, "is the root pipe");
	/* a middle pipe forwarding to the leaf, its miss too */
	fwd = ffx_fwd_pipe(leaf);
	miss = ffx_fwd_pipe(leaf);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, &miss, &mid), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);

	/* the leaf stays while the middle pipe forwards to it */
	E_VOID(doca_flow_pipe_destroy(leaf), "2 forward(s)");
	E_VOID(doca_flow_pipe_destroy(NULL), "pipe must not be NULL");
	doca_flow_pipe_destroy(mid);
	E_VOID(doca_flow_pipe_destroy(mid), "not a pipe");
	doca_flow_pipe_destroy(leaf);
	doca_flow_pipe_destroy(root);
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	doca_flow_destroy();
}

static unsigned nr_done, nr_del;

static void on_entry(struct doca_flow_pipe_entry *entry, uint16_t pipe_queue, enum doca_flow_entry_status status,
		     enum doca_flow_entry_op op, void *user_ctx)
{
	(void)entry;
	(void)pipe_queue;
	(void)user_ctx;
	assert_int_equal(status, DOCA_FLOW_ENTRY_STATUS_SUCCESS);
	nr_done++;
	if (op == DOCA_FLOW_ENTRY_OP_DEL)
		nr_del++;
}

static void test_entries(void **state)
{
	uint16_t q[2] = {1, 2};
	struct doca_flow_pipe *leaf = NULL, *ctl = NULL, *late = NULL;
	struct doca_flow_pipe_entry *e = NULL, *e2 = NULL, *e3 = NULL, *c1 = NULL;
	struct doca_flow_monitor mon;
	struct doca_flow_match m;
	struct doca_flow_actions act;
	struct doca_flow_action_descs descs = {.nb_action_desc = 1};
	struct doca_flow_match_condition cond;
	struct doca_flow_resource_query res;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_port *port;
	struct doca_flow_fwd fwd, drop = ffx_fwd_type(DOCA_FLOW_FWD_DROP);

	(void)state;
	nr_done = nr_del = 0;
	ffx_flow_init(1, 2, on_entry); /* two counters */
	port = ffx_port_start(&fx, 0);

	/* a BASIC pipe of 2 entries: UDP destination port per entry, RSS, counted */
	pc = ffx_pipe_cfg(port, "leaf", DOCA_FLOW_PIPE_BASIC, false, 2);
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = 0xffff;
	assert_int_equal(doca_flow_pipe_cfg_set_match(pc, &m, NULL), DOCA_SUCCESS);
	memset(&mon, 0, sizeof(mon));
	mon.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	assert_int_equal(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_SUCCESS);
	fwd = ffx_fwd_rss(q, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, NULL, &leaf), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);

	m.outer.udp.l4_port.dst_port = DOCA_HTOBE16(7);
	E(doca_flow_pipe_basic_add_entry(0, NULL, &m, 0, NULL, NULL, NULL, 0, NULL, &e), DOCA_ERROR_INVALID_VALUE,
	  "pipe must not be NULL");
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, NULL), DOCA_ERROR_INVALID_VALUE,
	  "entry must not be NULL");
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 1, NULL, NULL, NULL, 0, NULL, &e), DOCA_ERROR_NOT_SUPPORTED,
	  "action_idx 1");
	memset(&act, 0, sizeof(act));
	act.outer.ip4.ttl = 3;
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, &act, NULL, NULL, 0, NULL, &e), DOCA_ERROR_NOT_SUPPORTED,
	  "packet actions");
	memset(&mon, 0, sizeof(mon));
	mon.meter_type = DOCA_FLOW_RESOURCE_TYPE_SHARED;
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, &mon, NULL, 0, NULL, &e), DOCA_ERROR_NOT_SUPPORTED,
	  "meters");
	E(doca_flow_pipe_basic_add_entry(1, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e), DOCA_ERROR_INVALID_VALUE,
	  "pipe_queue 1");
	E(doca_flow_pipe_basic_add_entry(0, leaf, NULL, 0, NULL, NULL, NULL, 0, NULL, &e), DOCA_ERROR_INVALID_VALUE,
	  "needs a match");
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, &drop, 0, NULL, &e), DOCA_ERROR_INVALID_VALUE,
	  "must be NULL");
	E(doca_flow_pipe_control_add_entry(0, leaf, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, &drop, NULL, &e),
	  DOCA_ERROR_INVALID_VALUE, "is a BASIC pipe");
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e), DOCA_SUCCESS);
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e2), DOCA_ERROR_ALREADY_EXIST,
	  "same match");
	m.outer.udp.l4_port.dst_port = DOCA_HTOBE16(8);
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e2), DOCA_SUCCESS);
	m.outer.udp.l4_port.dst_port = DOCA_HTOBE16(9);
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e3), DOCA_ERROR_FULL,
	  "holds its 2 entries");
	assert_int_equal(doca_flow_resource_query_entry(e, &res), DOCA_SUCCESS);
	assert_int_equal(res.counter.total_pkts, 0);
	E(doca_flow_resource_query_entry(NULL, &res), DOCA_ERROR_INVALID_VALUE, "entry must not be NULL");
	E(doca_flow_resource_query_entry(e, NULL), DOCA_ERROR_INVALID_VALUE, "data must not be NULL");

	/* a CONTROL pipe: entries forward themselves; both counters are taken */
	pc = ffx_pipe_cfg(port, "ctl", DOCA_FLOW_PIPE_CONTROL, false, 4);
	assert_int_equal(doca_flow_pipe_create(pc, NULL, NULL, &ctl), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = DOCA_FLOW_PROTO_UDP;
	fwd = ffx_fwd_pipe(leaf);
	E(doca_flow_pipe_control_add_entry(0, NULL, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_INVALID_VALUE, "pipe must not be NULL");
	memset(&cond, 0, sizeof(cond));
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, &cond, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_NOT_SUPPORTED, "conditions");
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, &descs, NULL, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_NOT_SUPPORTED, "action descriptors");
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, &c1),
	  DOCA_ERROR_INVALID_VALUE, "needs a fwd");
	E(doca_flow_pipe_control_add_entry(0, ctl, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_INVALID_VALUE, "match must not be NULL");
	E(doca_flow_pipe_basic_add_entry(0, ctl, &m, 0, NULL, NULL, &fwd, 0, NULL, &c1), DOCA_ERROR_INVALID_VALUE,
	  "is a CONTROL pipe");
	m.outer.ip4.identification = 1;
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_NOT_SUPPORTED, "outer.ip4.identification");
	m.outer.ip4.identification = 0;
	memset(&mon, 0, sizeof(mon));
	mon.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED;
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, &mon, 0, &fwd, NULL, &c1),
	  DOCA_ERROR_FULL, "counters are in use");
	assert_int_equal(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, 5, &fwd, NULL, &c1),
			 DOCA_SUCCESS);
	E(doca_flow_resource_query_entry(c1, &res), DOCA_ERROR_INVALID_VALUE, "has no counter");

	/* a pipe made after the CONTROL pipe sits above it: the CONTROL pipe cannot reach it */
	pc = ffx_pipe_cfg(port, "late", DOCA_FLOW_PIPE_BASIC, false, 2);
	fwd = ffx_fwd_type(DOCA_FLOW_FWD_CHANGEABLE);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, NULL, &late), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	fwd = ffx_fwd_pipe(late);
	E(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, NULL, 1, &fwd, NULL, &e3),
	  DOCA_ERROR_NOT_SUPPORTED, "cannot forward");
	/* a CHANGEABLE pipe's entries need their own forward; they may go to the kernel */
	E(doca_flow_pipe_basic_add_entry(0, late, NULL, 0, NULL, NULL, NULL, 0, NULL, &e3), DOCA_ERROR_INVALID_VALUE,
	  "needs a fwd");
	fwd = ffx_fwd_type(DOCA_FLOW_FWD_TARGET);
	assert_int_equal(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, &fwd.target), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, late, NULL, 0, NULL, NULL, &fwd, 0, NULL, &e3), DOCA_SUCCESS);

	/* removal: completions, then the handle is gone */
	E(doca_flow_pipe_remove_entry(0, 0, NULL), DOCA_ERROR_INVALID_VALUE, "entry must not be NULL");
	E(doca_flow_pipe_remove_entry(3, 0, e), DOCA_ERROR_INVALID_VALUE, "pipe_queue 3");
	assert_int_equal(doca_flow_pipe_remove_entry(0, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, e), DOCA_SUCCESS);
	E(doca_flow_pipe_remove_entry(0, 0, e), DOCA_ERROR_INVALID_VALUE, "removed already");
	E(doca_flow_resource_query_entry(e, &res), DOCA_ERROR_INVALID_VALUE, "removed already");
	assert_int_equal(doca_flow_entries_process(port, 0, 0, 2), DOCA_SUCCESS); /* at most 2 */
	assert_int_equal(nr_done, 2);
	assert_int_equal(doca_flow_entries_process(port, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(nr_done, 5); /* 4 adds, 1 removal */
	assert_int_equal(nr_del, 1);
	{
		char log[4096];

		stderr_capture_begin();
		assert_int_equal(doca_flow_pipe_entry_get_status(NULL), DOCA_FLOW_ENTRY_STATUS_ERROR);
		stderr_capture_end(log, sizeof(log));
		assert_true(test_log_one_err(log, "entry must not be NULL"));
	}
	assert_int_equal(doca_flow_pipe_entry_get_status(e2), DOCA_FLOW_ENTRY_STATUS_SUCCESS);

	/* a counter freed by the removal can be taken again */
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = DOCA_FLOW_PROTO_ICMP;
	assert_int_equal(doca_flow_pipe_control_add_entry(0, ctl, &m, NULL, NULL, NULL, NULL, NULL, &mon, 0, &drop, NULL,
							  &c1),
			 DOCA_SUCCESS);
	/* flush: every pipe goes; the port stays */
	doca_flow_port_pipes_flush(port);
	E(doca_flow_pipe_basic_add_entry(0, leaf, &m, 0, NULL, NULL, NULL, 0, NULL, &e), DOCA_ERROR_INVALID_VALUE,
	  "not a pipe");
	assert_int_equal(doca_flow_entries_process(port, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	doca_flow_destroy();
}

/* docs/flow.md §8, as written there (a root BASIC pipe spreading IPv4 UDP over two queues). */
static void test_doc_example(void **state)
{
	struct doca_dev *dev = fx.dev;
	struct doca_flow_cfg *cfg;
	struct doca_flow_port_cfg *pc;
	struct doca_flow_port *port;
	struct doca_flow_match m = {0};
	uint16_t ids[] = {1, 2};
	struct doca_flow_fwd fwd = {.type = DOCA_FLOW_FWD_RSS,
				    .rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED,
				    .rss = {.outer_flags = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP,
					    .queues_array = ids,
					    .nr_queues = 2}};
	struct doca_flow_pipe_cfg *c;
	struct doca_flow_pipe *p;
	struct doca_flow_pipe_entry *e;

	(void)state;
	assert_int_equal(doca_flow_cfg_create(&cfg), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_set_mode_args(cfg, "vnf,hws,isolated"), DOCA_SUCCESS);
	assert_int_equal(doca_flow_init(cfg), DOCA_SUCCESS);
	assert_int_equal(doca_flow_cfg_destroy(cfg), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_create(&pc), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_set_dev(pc, dev), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_start(pc, &port), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_cfg_destroy(pc), DOCA_SUCCESS);
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	assert_int_equal(doca_flow_pipe_cfg_create(&c, port), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_is_root(c, true), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_match(c, &m, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_create(c, &fwd, NULL, &p), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(c), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, p, &m, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, NULL,
							&e),
			 DOCA_SUCCESS);
	/* the device is in use (by the queues and by the port) */
	E(doca_dev_close(dev), DOCA_ERROR_IN_USE, "");
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	doca_flow_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg),
		cmocka_unit_test(test_port),
		cmocka_unit_test(test_pipe_cfg),
		cmocka_unit_test(test_pipe_create),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_doc_example),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
