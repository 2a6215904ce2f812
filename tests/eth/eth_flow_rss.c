/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA Flow steering to one queue id for the Ethernet CPU data path tests (eth_flow_rss.h). */
#include "eth_flow_rss.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>

#include "doca_flow.h"

void efl_udp_rss_start(struct doca_dev *dev, uint16_t dport, uint16_t qid, struct efl *e)
{
	struct doca_flow_pipe_entry *entry = NULL;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_match m;
	struct doca_flow_fwd fwd;

	memset(e, 0, sizeof(*e));
	e->fx.dev = dev;
	e->qid = qid;
	ffx_flow_init(1, 4, NULL);
	e->port = ffx_port_start(&e->fx, 0);
	pc = ffx_pipe_cfg(e->port, "CPU_RXQ_ROOT", DOCA_FLOW_PIPE_CONTROL, true, 0);
	assert_int_equal(doca_flow_pipe_create(pc, NULL, NULL, &e->root), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = htons(dport);
	fwd = ffx_fwd_rss(&e->qid, 1, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	assert_int_equal(doca_flow_pipe_control_add_entry(0, e->root, &m, NULL, NULL, NULL, NULL, NULL, NULL, 0, &fwd, NULL,
							  &entry),
			 DOCA_SUCCESS);
	assert_int_equal(doca_flow_entries_process(e->port, 0, 0, 0), DOCA_SUCCESS);
}

void efl_stop(struct efl *e)
{
	assert_int_equal(doca_flow_port_stop(e->port), DOCA_SUCCESS);
	doca_flow_destroy();
}
