/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PRM commands DOCA Flow issues, as the NIC receives them.
 *
 * One scenario: three receive queues (ids 10, 11, 12); a BASIC "udp" pipe (parser meta IPv4 /
 * UDP, a counter per entry, RSS over queues 10 and 11 on the IPv4 addresses and UDP ports, a
 * drop miss); a BASIC "tcp" pipe (IPv4 / TCP, the destination port per entry, queue 12 through a
 * direct TIR, kernel miss); a root CONTROL pipe dispatching on ip4.next_proto (UDP and TCP to
 * those pipes at priority 1, ICMP dropped and counted at priority 2) to which a priority-0 entry
 * (UDP port 53 to the kernel) is added last, so that the entries below it move down. Then a
 * counter query, an entry removal, a refused pipe destroy, and the port's stop.
 *
 * test_connectx_commands runs it on the fake rdma-core's ConnectX "mlx5_0" (the library's
 * ConnectX path, src/devx/hw*.c; the fake records every DevX call and executes it on the
 * software NIC) and checks the whole command stream entry by entry with the key fields of each
 * command; test_identical_on_both_devices runs it on "swnic0" too (its device ops recorded by
 * wrapping ogda_devx_sw_open at link time) and requires the two streams to be byte-identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "devx/sw.h"
#include "fake_rdma_core.h"
#include "flow/flow_priv.h"
#include "flow_fixture.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_tir.h"
#include "sw_record.h"
#include "test_util.h"

/* ---- recording the software NIC ---- */

static struct cmd_log sw_cmds;
static bool record_sw;

doca_error_t __real_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev);
doca_error_t __wrap_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev);

doca_error_t __wrap_ogda_devx_sw_open(uint32_t index, struct ogda_devx **dev)
{
	doca_error_t err = __real_ogda_devx_sw_open(index, dev);

	if (err == DOCA_SUCCESS && record_sw)
		sw_record_wrap(*dev, &sw_cmds);
	return err;
}

/* ---- entry completions ---- */

struct done {
	struct doca_flow_pipe_entry *entry;
	enum doca_flow_entry_op op;
	enum doca_flow_entry_status status;
	void *ctx;
};

static struct done dones[64];
static unsigned nr_dones;

static void on_entry(struct doca_flow_pipe_entry *entry, uint16_t pipe_queue, enum doca_flow_entry_status status,
		     enum doca_flow_entry_op op, void *user_ctx)
{
	assert_int_equal(pipe_queue, 0);
	assert_true(nr_dones < 64);
	dones[nr_dones++] = (struct done){.entry = entry, .op = op, .status = status, .ctx = user_ctx};
}

/* ---- the scenario ---- */

static int ctxs[8];

struct scen {
	struct doca_flow_port *port;
	struct doca_flow_pipe *udp, *tcp, *root;
	struct doca_flow_pipe_entry *e_udp, *e_tcp80, *e_tcp443, *r_udp, *r_tcp, *r_icmp, *r_dns;
	/* numbers read from the library's objects, for the checks */
	uint32_t tdn, rqtn, udp_tirn, tcp_tirn, udp_table, tcp_table, root_table, kernel_table;
	uint32_t udp_counter, icmp_counter;
	uint64_t pkts, bytes;
};

static struct doca_flow_pipe *make_udp_pipe(struct doca_flow_port *port)
{
	static uint16_t queues[] = {10, 11};
	struct doca_flow_pipe_cfg *pc = ffx_pipe_cfg(port, "udp", DOCA_FLOW_PIPE_BASIC, false, 16);
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_fwd fwd = ffx_fwd_rss(queues, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	struct doca_flow_fwd miss = ffx_fwd_type(DOCA_FLOW_FWD_DROP);
	struct doca_flow_match m;
	struct doca_flow_pipe *p = NULL;

	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	assert_int_equal(doca_flow_pipe_cfg_set_match(pc, &m, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, &miss, &p), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	return p;
}

static struct doca_flow_pipe *make_tcp_pipe(struct doca_flow_port *port)
{
	static uint16_t queue = 12;
	struct doca_flow_pipe_cfg *pc = ffx_pipe_cfg(port, "tcp", DOCA_FLOW_PIPE_BASIC, false, 4);
	struct doca_flow_fwd fwd = ffx_fwd_rss(&queue, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_TCP);
	struct doca_flow_match m;
	struct doca_flow_pipe *p = NULL;

	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.l4_port.dst_port = 0xffff; /* per entry */
	assert_int_equal(doca_flow_pipe_cfg_set_match(pc, &m, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, NULL, &p), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	return p;
}

static struct doca_flow_pipe_entry *root_entry(struct scen *s, uint8_t proto, uint32_t prio,
					       const struct doca_flow_fwd *fwd, bool count, void *ctx)
{
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_pipe_entry *e = NULL;
	struct doca_flow_match m;

	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = proto;
	assert_int_equal(doca_flow_pipe_control_add_entry(0, s->root, &m, NULL, NULL, NULL, NULL, NULL, count ? &mon : NULL,
							  prio, fwd, ctx, &e),
			 DOCA_SUCCESS);
	return e;
}

static void scenario(struct ffx *f, struct scen *s)
{
	struct doca_flow_fwd to_udp, to_tcp, drop = ffx_fwd_type(DOCA_FLOW_FWD_DROP), kernel;
	struct doca_flow_resource_query q;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_match m;
	doca_error_t stop;
	char log[4096];

	memset(s, 0, sizeof(*s));
	nr_dones = 0;
	s->port = ffx_port_start(f, 0);
	s->tdn = s->port->tdn;

	s->udp = make_udp_pipe(s->port);
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, s->udp, &m, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT,
							&ctxs[0], &s->e_udp),
			 DOCA_SUCCESS);

	s->tcp = make_tcp_pipe(s->port);
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_TCP;
	m.outer.tcp.l4_port.dst_port = DOCA_HTOBE16(80);
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, s->tcp, &m, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT,
							&ctxs[1], &s->e_tcp80),
			 DOCA_SUCCESS);
	m.outer.tcp.l4_port.dst_port = DOCA_HTOBE16(443);
	assert_int_equal(doca_flow_pipe_add_entry(0, s->tcp, &m, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH,
						  &ctxs[2], &s->e_tcp443),
			 DOCA_SUCCESS);

	pc = ffx_pipe_cfg(s->port, "root", DOCA_FLOW_PIPE_CONTROL, true, 8);
	assert_int_equal(doca_flow_pipe_create(pc, NULL, NULL, &s->root), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	to_udp = ffx_fwd_pipe(s->udp);
	to_tcp = ffx_fwd_pipe(s->tcp);
	s->r_udp = root_entry(s, DOCA_FLOW_PROTO_UDP, 1, &to_udp, false, &ctxs[3]);
	s->r_tcp = root_entry(s, DOCA_FLOW_PROTO_TCP, 1, &to_tcp, false, &ctxs[4]);
	s->r_icmp = root_entry(s, DOCA_FLOW_PROTO_ICMP, 2, &drop, true, &ctxs[5]);

	/* Priority 0, added last: the three entries above move down one flow index each. */
	kernel = ffx_fwd_type(DOCA_FLOW_FWD_TARGET);
	assert_int_equal(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, &kernel.target), DOCA_SUCCESS);
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = DOCA_HTOBE16(53);
	assert_int_equal(doca_flow_pipe_control_add_entry(0, s->root, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, &kernel,
							  &ctxs[6], &s->r_dns),
			 DOCA_SUCCESS);

	s->rqtn = s->port->rss->next != NULL ? s->port->rss->next->rqtn : 0; /* the UDP RSS came first */
	s->udp_tirn = s->udp->fwd.rss->tirn;
	s->tcp_tirn = s->tcp->fwd.rss->tirn;
	s->udp_table = s->udp->table_id;
	s->tcp_table = s->tcp->table_id;
	s->root_table = s->root->table_id;
	s->kernel_table = s->port->kernel_table_id;
	s->udp_counter = s->e_udp->counter_id;
	s->icmp_counter = s->r_icmp->counter_id;
	assert_int_equal(s->udp->level, FLOW_LEVEL_LEAF);
	assert_int_equal(s->tcp->level, FLOW_LEVEL_LEAF);
	assert_int_equal(s->root->level, FLOW_LEVEL_ROOT);
	assert_int_equal(s->r_dns->index, 0);
	assert_int_equal(s->r_udp->index, 1);
	assert_int_equal(s->r_tcp->index, 2);
	assert_int_equal(s->r_icmp->index, 3);

	assert_int_equal(doca_flow_resource_query_entry(s->e_udp, &q), DOCA_SUCCESS);
	s->pkts = q.counter.total_pkts;
	s->bytes = q.counter.total_bytes;

	/* Completions: one ADD per entry, in order, with the entry's context. */
	assert_int_equal(doca_flow_entries_process(s->port, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(nr_dones, 7);
	for (unsigned i = 0; i < 7; i++) {
		assert_int_equal(dones[i].op, DOCA_FLOW_ENTRY_OP_ADD);
		assert_int_equal(dones[i].status, DOCA_FLOW_ENTRY_STATUS_SUCCESS);
		assert_ptr_equal(dones[i].ctx, &ctxs[i]);
	}
	assert_int_equal(doca_flow_pipe_entry_get_status(s->r_dns), DOCA_FLOW_ENTRY_STATUS_SUCCESS);

	assert_int_equal(doca_flow_pipe_remove_entry(0, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, s->r_icmp), DOCA_SUCCESS);
	assert_int_equal(doca_flow_entries_process(s->port, 0, 1000, 0), DOCA_SUCCESS);
	assert_int_equal(nr_dones, 8);
	assert_int_equal(dones[7].op, DOCA_FLOW_ENTRY_OP_DEL);
	assert_ptr_equal(dones[7].ctx, &ctxs[5]);

	/*
	 * The udp pipe is a forward target of a root entry: not destroyed, nothing sent. Then the
	 * stop: its destroys must all succeed, so the destroy's error is the only line.
	 */
	stderr_capture_begin();
	doca_flow_pipe_destroy(s->udp);
	stop = doca_flow_port_stop(s->port);
	stderr_capture_end(log, sizeof(log));
	assert_int_equal(stop, DOCA_SUCCESS);
	if (!test_log_one_err(log, "still name it"))
		fail_msg("expected one error line (the refused pipe destroy), got: %s", log);
}

/* ---- walking a command log ---- */

struct walk {
	const struct cmd_log *log;
	size_t i;
};

static const struct cmd_log_entry *step(struct walk *w, enum cmd_log_kind kind, uint16_t opcode)
{
	const struct cmd_log_entry *e;
	uint16_t got;

	if (w->i >= w->log->n) {
		cmd_log_dump(w->log, "commands");
		fail_msg("the log ends at entry %zu; expected %s 0x%x", w->i, cmd_log_kind_name(kind), opcode);
	}
	e = &w->log->e[w->i];
	got = kind == CMD_DESTROY ? (uint16_t)(e->arg0 >> 32) : cmd_log_opcode(e);
	if (e->kind != kind || got != opcode) {
		cmd_log_dump(w->log, "commands");
		fail_msg("entry %zu: expected %s %s (0x%x), got %s 0x%x", w->i, cmd_log_kind_name(kind),
			 prm_cmd_opcode_name(opcode), opcode, cmd_log_kind_name(e->kind), got);
	}
	w->i++;
	return e;
}

/* A destroy of the object that create @opcode made with number @id. */
static void step_destroy(struct walk *w, uint16_t opcode, uint32_t id)
{
	const struct cmd_log_entry *e = step(w, CMD_DESTROY, opcode);

	if ((uint32_t)e->arg0 != id)
		fail_msg("entry %zu: destroy of %s 0x%x, expected 0x%x", w->i - 1, prm_cmd_opcode_name(opcode),
			 (uint32_t)e->arg0, id);
}

static void check_table(struct walk *w, uint8_t level, uint8_t log_size, uint32_t miss_table)
{
	const struct cmd_log_entry *e = step(w, CMD_CREATE, PRM_CMD_CREATE_FLOW_TABLE);
	struct prm_create_flow_table_params p;

	assert_int_equal(prm_create_flow_table_in_parse(e->bytes, e->len, &p), DOCA_SUCCESS);
	assert_int_equal(p.table_type, PRM_FLOW_TABLE_NIC_RX);
	assert_int_equal(p.ctx.level, level);
	assert_int_equal(p.ctx.log_size, log_size);
	assert_int_equal(p.ctx.table_miss_action, miss_table != 0 ? PRM_FLOW_TABLE_MISS_GOTO_TBL : PRM_FLOW_TABLE_MISS_DEFAULT);
	assert_int_equal(p.ctx.table_miss_id, miss_table);
}

/* A group over [start, end] of @table; returns its criteria. */
static struct prm_match_lyr_2_4 check_group(struct walk *w, uint32_t table, uint32_t start, uint32_t end)
{
	const struct cmd_log_entry *e = step(w, CMD_CREATE, PRM_CMD_CREATE_FLOW_GROUP);
	struct prm_create_flow_group_params p;
	struct prm_match_lyr_2_4 zero;

	memset(&zero, 0, sizeof(zero));
	assert_int_equal(prm_create_flow_group_in_parse(e->bytes, e->len, &p), DOCA_SUCCESS);
	assert_int_equal(p.table_type, PRM_FLOW_TABLE_NIC_RX);
	assert_int_equal(p.table_id, table);
	assert_int_equal(p.start_flow_index, start);
	assert_int_equal(p.end_flow_index, end);
	assert_int_equal(p.match_criteria_enable,
			 memcmp(&p.match_criteria, &zero, sizeof(zero)) == 0 ? 0 : PRM_MATCH_CRITERIA_OUTER);
	return p.match_criteria;
}

/* An entry of @table at @index; returns its parameters. */
static struct prm_set_fte_params check_fte(struct walk *w, uint32_t table, uint32_t index, uint16_t action)
{
	const struct cmd_log_entry *e = step(w, CMD_CREATE, PRM_CMD_SET_FLOW_TABLE_ENTRY);
	struct prm_set_fte_params p;

	assert_int_equal(prm_set_fte_in_parse(e->bytes, e->len, &p), DOCA_SUCCESS);
	assert_int_equal(p.op_mod, PRM_SET_FTE_OP_MOD_NEW);
	assert_int_equal(p.table_type, PRM_FLOW_TABLE_NIC_RX);
	assert_int_equal(p.table_id, table);
	assert_int_equal(p.flow_index, index);
	assert_int_equal(p.ctx.action, action);
	assert_int_equal(p.ctx.flow_counter_list_size, (action & PRM_FLOW_ACTION_COUNT) != 0 ? 1 : 0);
	assert_int_equal(p.ctx.destination_list_size, (action & PRM_FLOW_ACTION_FWD_DEST) != 0 ? 1 : 0);
	return p;
}

static void check_dest(const struct prm_set_fte_params *p, uint8_t type, uint32_t id)
{
	assert_int_equal(p->ctx.dest[0].type, type);
	assert_int_equal(p->ctx.dest[0].id, id);
}

/* The criteria / value of "IPv4, protocol @proto" and nothing else but @extra fields. */
static void check_ip_proto(const struct prm_match_lyr_2_4 *m, bool mask, uint8_t proto)
{
	struct prm_match_lyr_2_4 want;

	memset(&want, 0, sizeof(want));
	want.ip_version = mask ? 0xf : 4;
	want.ip_protocol = mask ? 0xff : proto;
	want.tcp_dport = m->tcp_dport;
	want.udp_dport = m->udp_dport;
	assert_memory_equal(m, &want, sizeof(want));
}

/* The root's entry at @index moves to @index + 1: new group and entry, then the old go. */
static void check_move(struct walk *w, const struct scen *s, uint32_t index, uint32_t old_group, uint8_t proto,
		       uint16_t action, uint8_t dest_type, uint32_t dest_id, uint32_t *new_group)
{
	struct prm_match_lyr_2_4 c = check_group(w, s->root_table, index + 1, index + 1);
	struct prm_set_fte_params p;

	check_ip_proto(&c, true, 0);
	p = check_fte(w, s->root_table, index + 1, action);
	check_ip_proto(&p.ctx.match_value, false, proto);
	if (dest_type != 0xff)
		check_dest(&p, dest_type, dest_id);
	*new_group = p.ctx.group_id;
	step_destroy(w, PRM_CMD_SET_FLOW_TABLE_ENTRY, index);
	step_destroy(w, PRM_CMD_CREATE_FLOW_GROUP, old_group);
}

/*
 * The rule that attaches the root table on a ConnectX, as the fake recorded it: a NIC RX matcher
 * with an empty mask (every frame) at priority 0, one DEST_DEVX action naming the flow table
 * object, and both gone by the port's stop (the walk has reached it when this is called).
 */
static void check_root_rule(uint32_t root_table)
{
	const struct fake_rdma_core_last *l = fake_rdma_core_last();
	const char *why = fake_rdma_core_root_rule_check(root_table);

	if (why != NULL)
		fail_msg("the root's steering rule: %s", why);
	assert_int_equal(l->flows_destroyed, 1);
	assert_int_equal(l->matchers_destroyed, 1);
}

static void check_stream(const struct cmd_log *log, const struct scen *s, const struct ffx *f)
{
	struct prm_create_rqt_params *rqt = calloc(1, sizeof(*rqt));
	struct prm_create_tir_params tir;
	struct prm_set_fte_params p;
	struct prm_match_lyr_2_4 c;
	struct walk w = {.log = log};
	const struct cmd_log_entry *e;
	uint32_t udp_group, udp_miss_group, tcp_group, g_udp, g_tcp, g_icmp, g_dns;
	uint32_t id = 0;
	uint16_t uid = 0xffff;

	assert_non_null(rqt);
	/* port start */
	e = step(&w, CMD_CREATE, PRM_CMD_ALLOC_TRANSPORT_DOMAIN);
	assert_int_equal(prm_alloc_td_in_parse(e->bytes, e->len, &uid), DOCA_SUCCESS);
	assert_int_equal(uid, 0);

	/* udp pipe: RSS over queues 10 and 11, its table, group, drop catch-all */
	e = step(&w, CMD_CREATE, PRM_CMD_CREATE_RQT);
	assert_int_equal(prm_create_rqt_in_parse(e->bytes, e->len, rqt), DOCA_SUCCESS);
	assert_int_equal(rqt->rqtc.rqt_actual_size, 2);
	assert_int_equal(rqt->rqtc.rqt_max_size, 2);
	assert_int_equal(rqt->rqtc.rq_num[0], f->rxq[0].rqn);
	assert_int_equal(rqt->rqtc.rq_num[1], f->rxq[1].rqn);
	e = step(&w, CMD_CREATE, PRM_CMD_CREATE_TIR);
	assert_int_equal(prm_create_tir_in_parse(e->bytes, e->len, &tir), DOCA_SUCCESS);
	assert_int_equal(tir.tirc.disp_type, PRM_TIR_DISP_INDIRECT);
	assert_int_equal(tir.tirc.indirect_table, s->rqtn);
	assert_int_equal(tir.tirc.transport_domain, s->tdn);
	assert_int_equal(tir.tirc.rx_hash_fn, PRM_RX_HASH_FN_TOEPLITZ);
	assert_int_equal(tir.tirc.rx_hash_symmetric, 0);
	assert_memory_equal(tir.tirc.rx_hash_toeplitz_key, flow_default_rss_key, PRM_TIR_TOEPLITZ_KEY_LEN);
	assert_int_equal(tir.tirc.rx_hash_field_selector_outer.l3_prot_type, PRM_RX_HASH_L3_IPV4);
	assert_int_equal(tir.tirc.rx_hash_field_selector_outer.l4_prot_type, PRM_RX_HASH_L4_UDP);
	assert_int_equal(tir.tirc.rx_hash_field_selector_outer.selected_fields,
			 PRM_RX_HASH_SRC_IP | PRM_RX_HASH_DST_IP | PRM_RX_HASH_L4_SPORT | PRM_RX_HASH_L4_DPORT);
	assert_int_equal(tir.tirc.rx_hash_field_selector_inner.selected_fields, 0);
	check_table(&w, FLOW_LEVEL_LEAF, 5, 0); /* 16 entries + the catch-all: 32 indices */
	c = check_group(&w, s->udp_table, 0, 30);
	check_ip_proto(&c, true, 0);
	c = check_group(&w, s->udp_table, 31, 31);
	p = check_fte(&w, s->udp_table, 31, PRM_FLOW_ACTION_DROP);
	udp_miss_group = p.ctx.group_id;
	/* its entry: a counter, then the entry forwarding to the TIR and counting */
	e = step(&w, CMD_CREATE, PRM_CMD_ALLOC_FLOW_COUNTER);
	p = check_fte(&w, s->udp_table, 0, PRM_FLOW_ACTION_FWD_DEST | PRM_FLOW_ACTION_COUNT);
	check_dest(&p, PRM_FLOW_DEST_TIR, s->udp_tirn);
	assert_int_equal(p.ctx.counter_id[0], s->udp_counter);
	check_ip_proto(&p.ctx.match_value, false, DOCA_FLOW_PROTO_UDP);
	udp_group = p.ctx.group_id;

	/* tcp pipe: a direct TIR to queue 12, the destination port per entry */
	e = step(&w, CMD_CREATE, PRM_CMD_CREATE_TIR);
	assert_int_equal(prm_create_tir_in_parse(e->bytes, e->len, &tir), DOCA_SUCCESS);
	assert_int_equal(tir.tirc.disp_type, PRM_TIR_DISP_DIRECT);
	assert_int_equal(tir.tirc.inline_rqn, f->rxq[2].rqn);
	assert_int_equal(tir.tirc.transport_domain, s->tdn);
	check_table(&w, FLOW_LEVEL_LEAF, 2, 0);
	c = check_group(&w, s->tcp_table, 0, 3);
	assert_int_equal(c.tcp_dport, 0xffff);
	check_ip_proto(&c, true, 0);
	p = check_fte(&w, s->tcp_table, 0, PRM_FLOW_ACTION_FWD_DEST);
	check_dest(&p, PRM_FLOW_DEST_TIR, s->tcp_tirn);
	assert_int_equal(p.ctx.match_value.tcp_dport, 80);
	check_ip_proto(&p.ctx.match_value, false, DOCA_FLOW_PROTO_TCP);
	tcp_group = p.ctx.group_id;
	p = check_fte(&w, s->tcp_table, 1, PRM_FLOW_ACTION_FWD_DEST);
	assert_int_equal(p.ctx.match_value.tcp_dport, 443);

	/* root: level 1, reached from the kernel's root by an rdma-core rule (the fake's record) */
	check_table(&w, FLOW_LEVEL_ROOT, 3, 0);
	assert_int_equal(FLOW_LEVEL_ROOT, 1);
	e = step(&w, CMD_RX_ROOT, 0);
	assert_int_equal(e->arg0, s->root_table);
	assert_int_equal(e->arg1, 1);
	check_root_rule(s->root_table);
	/* UDP (0), TCP (1), ICMP counted and dropped (2): a group each */
	c = check_group(&w, s->root_table, 0, 0);
	check_ip_proto(&c, true, 0);
	p = check_fte(&w, s->root_table, 0, PRM_FLOW_ACTION_FWD_DEST);
	check_dest(&p, PRM_FLOW_DEST_FLOW_TABLE, s->udp_table);
	check_ip_proto(&p.ctx.match_value, false, DOCA_FLOW_PROTO_UDP);
	g_udp = p.ctx.group_id;
	(void)check_group(&w, s->root_table, 1, 1);
	p = check_fte(&w, s->root_table, 1, PRM_FLOW_ACTION_FWD_DEST);
	check_dest(&p, PRM_FLOW_DEST_FLOW_TABLE, s->tcp_table);
	g_tcp = p.ctx.group_id;
	step(&w, CMD_CREATE, PRM_CMD_ALLOC_FLOW_COUNTER);
	(void)check_group(&w, s->root_table, 2, 2);
	p = check_fte(&w, s->root_table, 2, PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_COUNT);
	assert_int_equal(p.ctx.counter_id[0], s->icmp_counter);
	check_ip_proto(&p.ctx.match_value, false, DOCA_FLOW_PROTO_ICMP);
	g_icmp = p.ctx.group_id;
	/* the priority-0 entry: the kernel table, then room at index 0 (ICMP, TCP, UDP move down) */
	check_table(&w, FLOW_LEVEL_KERNEL, 0, 0);
	check_move(&w, s, 2, g_icmp, DOCA_FLOW_PROTO_ICMP, PRM_FLOW_ACTION_DROP | PRM_FLOW_ACTION_COUNT, 0xff, 0, &g_icmp);
	check_move(&w, s, 1, g_tcp, DOCA_FLOW_PROTO_TCP, PRM_FLOW_ACTION_FWD_DEST, PRM_FLOW_DEST_FLOW_TABLE, s->tcp_table,
		   &g_tcp);
	check_move(&w, s, 0, g_udp, DOCA_FLOW_PROTO_UDP, PRM_FLOW_ACTION_FWD_DEST, PRM_FLOW_DEST_FLOW_TABLE, s->udp_table,
		   &g_udp);
	c = check_group(&w, s->root_table, 0, 0);
	assert_int_equal(c.udp_dport, 0xffff);
	check_ip_proto(&c, true, 0);
	p = check_fte(&w, s->root_table, 0, PRM_FLOW_ACTION_FWD_DEST);
	check_dest(&p, PRM_FLOW_DEST_FLOW_TABLE, s->kernel_table);
	assert_int_equal(p.ctx.match_value.udp_dport, 53);
	check_ip_proto(&p.ctx.match_value, false, DOCA_FLOW_PROTO_UDP);
	g_dns = p.ctx.group_id;

	/* the counter query */
	e = step(&w, CMD_QUERY, PRM_CMD_QUERY_FLOW_COUNTER);
	(void)e;
	/* removing the ICMP entry (index 3): entry, group, counter */
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 3);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, g_icmp);
	step_destroy(&w, PRM_CMD_ALLOC_FLOW_COUNTER, s->icmp_counter);

	/* port stop: the root goes first, then every entry (newest pipe first), then the tables */
	e = step(&w, CMD_RX_ROOT, 0);
	assert_int_equal(e->arg0, s->root_table);
	assert_int_equal(e->arg1, 0);
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 0);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, g_dns);
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 1);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, g_udp);
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 2);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, g_tcp);
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 0);      /* tcp :80 */
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 1);      /* tcp :443 */
	step_destroy(&w, PRM_CMD_CREATE_TIR, s->tcp_tirn);      /* its last user went */
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 0);      /* udp */
	step_destroy(&w, PRM_CMD_ALLOC_FLOW_COUNTER, s->udp_counter);
	step_destroy(&w, PRM_CMD_SET_FLOW_TABLE_ENTRY, 31);     /* udp catch-all */
	step_destroy(&w, PRM_CMD_CREATE_TIR, s->udp_tirn);
	step_destroy(&w, PRM_CMD_CREATE_RQT, s->rqtn);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_TABLE, s->root_table);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, tcp_group);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_TABLE, s->tcp_table);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, udp_miss_group);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_GROUP, udp_group);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_TABLE, s->udp_table);
	step_destroy(&w, PRM_CMD_CREATE_FLOW_TABLE, s->kernel_table);
	step_destroy(&w, PRM_CMD_ALLOC_TRANSPORT_DOMAIN, s->tdn);
	if (w.i != log->n) {
		cmd_log_dump(log, "commands");
		fail_msg("%zu more entries than expected after entry %zu", log->n - w.i, w.i);
	}
	(void)id;
	free(rqt);
}

static void start_queues(struct ffx *f)
{
	ffx_rxq_start(f, 0, 10);
	ffx_rxq_start(f, 1, 11);
	ffx_rxq_start(f, 2, 12);
}

static void stop_queues(struct ffx *f)
{
	ffx_rxq_stop(f, 0);
	ffx_rxq_stop(f, 1);
	ffx_rxq_stop(f, 2);
}

/* The scenario on @name; the commands from port start to port stop are in @log at the end. */
static void run_on(const char *name, struct cmd_log *log, struct scen *s)
{
	struct ffx f;

	sw_record_replay_random();
	ffx_open(&f, name);
	start_queues(&f);
	ffx_flow_init(1, 16, on_entry);
	cmd_log_clear(log);
	scenario(&f, s);
	/* Checked before the queues go (their numbers are in the commands). */
	if (strcmp(name, FAKE_MLX5_NAME) == 0 && log == fake_rdma_core_log())
		check_stream(log, s, &f);
	doca_flow_destroy();
	/* Only this run's flow commands stay in the log. */
	{
		struct cmd_log keep;

		cmd_log_init(&keep);
		for (size_t i = 0; i < log->n; i++)
			cmd_log_add(&keep, log->e[i].kind, log->e[i].bytes, log->e[i].len, log->e[i].arg0, log->e[i].arg1);
		stop_queues(&f);
		ffx_close(&f);
		cmd_log_clear(log);
		for (size_t i = 0; i < keep.n; i++)
			cmd_log_add(log, keep.e[i].kind, keep.e[i].bytes, keep.e[i].len, keep.e[i].arg0, keep.e[i].arg1);
		cmd_log_fini(&keep);
	}
}

static void test_connectx_commands(void **state)
{
	struct fake_rdma_core_counts c;
	struct scen s;

	(void)state;
	fake_rdma_core_install();
	run_on(FAKE_MLX5_NAME, fake_rdma_core_log(), &s);
	assert_int_equal(s.pkts, 0);
	assert_int_equal(s.bytes, 0);
	fake_rdma_core_counts(&c);
	fake_rdma_core_uninstall();
	assert_int_equal(c.objs, 0);
	assert_int_equal(cmd_log_count(fake_rdma_core_log(), CMD_CREATE, 0), cmd_log_count(fake_rdma_core_log(), CMD_DESTROY, 0));
}

/*
 * The software NIC attaches the root with SET_FLOW_TABLE_ROOT (its bytes checked here: NIC RX, the
 * table, op_mod 0; the disconnect op_mod 1 with no table), where the ConnectX binding makes an
 * rdma-core rule the fake records as CMD_RX_ROOT: each command becomes that record, so that
 * every other command can be compared byte for byte.
 */
static void root_commands_as_rules(struct cmd_log *log)
{
	struct prm_set_flow_table_root_params root;
	uint32_t attached = 0;
	size_t n = 0;

	for (size_t i = 0; i < log->n; i++) {
		struct cmd_log_entry *e = &log->e[i];

		if (e->kind != CMD_GENERAL || cmd_log_opcode(e) != PRM_CMD_SET_FLOW_TABLE_ROOT)
			continue;
		assert_int_equal(prm_set_flow_table_root_in_parse(e->bytes, e->len, &root), DOCA_SUCCESS);
		assert_int_equal(root.table_type, PRM_FLOW_TABLE_NIC_RX);
		if (root.op_mod == 0) {
			attached = root.table_id;
			e->arg0 = root.table_id;
			e->arg1 = 1;
		} else {
			assert_int_equal(root.op_mod, 1);
			assert_int_equal(root.table_id, 0);
			e->arg0 = attached;
			e->arg1 = 0;
		}
		e->kind = CMD_RX_ROOT;
		e->len = 0;
		n++;
	}
	assert_int_equal(n, 2);
}

static void test_identical_on_both_devices(void **state)
{
	struct cmd_log *hw = fake_rdma_core_log();
	struct scen sw_s, hw_s;

	(void)state;
	cmd_log_init(&sw_cmds);
	fake_rdma_core_install();
	record_sw = true;
	run_on("swnic0", &sw_cmds, &sw_s);
	record_sw = false;
	run_on(FAKE_MLX5_NAME, hw, &hw_s);
	fake_rdma_core_uninstall();
	if (getenv("FLOW_PRM_DUMP") != NULL) {
		cmd_log_dump(&sw_cmds, "swnic0");
		cmd_log_dump(hw, FAKE_MLX5_NAME);
	}
	assert_true(sw_cmds.n > 40);
	root_commands_as_rules(&sw_cmds);
	cmd_log_assert_equal(&sw_cmds, hw);
	cmd_log_fini(&sw_cmds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connectx_commands),
		cmocka_unit_test(test_identical_on_both_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
