/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PRM commands of DOCA Flow, built with src/prm and run through the device interface
 * (src/devx/devx.h), so the software NIC and a ConnectX get the same bytes:
 *
 *   ALLOC_TRANSPORT_DOMAIN                         a port's (its TIRs name it)
 *   CREATE_RQT, CREATE_TIR                         RSS and single-queue forwards
 *   CREATE_FLOW_TABLE (NIC RX), CREATE_FLOW_GROUP  a pipe
 *   SET_FLOW_TABLE_ENTRY (op_mod 0)                an entry, created as an object
 *   ALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER         a monitored entry's counter
 *   rx_root_attach / rx_root_detach                the root pipe's table (SET_FLOW_TABLE_ROOT on the
 *                                                  software NIC; a kernel steering rule on a ConnectX)
 *
 * Every object is destroyed with obj_destroy: the device binding issues its destroy command.
 */
#include "flow/flow_priv.h"

#include "core/log.h"
#include "devx/devx.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_tir.h"

#include <stdlib.h>
#include <string.h>

#define OUT_SMALL PRM_FLOW_SMALL_CMD_SIZE

/* Logs a failed command with the PRM status the device gave, and passes the error on. */
static doca_error_t result(const struct doca_flow_port *port, doca_error_t err, const void *out, size_t outlen,
			   const char *what)
{
	uint8_t status = PRM_STATUS_OK;
	uint32_t syndrome = 0;

	if (err == DOCA_SUCCESS)
		return DOCA_SUCCESS;
	if (out != NULL && outlen >= 8 && prm_cmd_out_status(out, outlen, &status, &syndrome) != DOCA_SUCCESS &&
	    status != PRM_STATUS_OK)
		OGDA_LOG_ERR("port %u (%s): %s refused: status 0x%x, syndrome 0x%x (%s)", (unsigned)port->port_id,
			     port->devx->name, what, status, syndrome, doca_error_get_descr(err));
	else
		OGDA_LOG_ERR("port %u (%s): %s failed: %s", (unsigned)port->port_id, port->devx->name, what,
			     doca_error_get_descr(err));
	return err;
}

static doca_error_t create(struct doca_flow_port *port, const void *in, size_t inlen, void *out, size_t outlen,
			   struct ogda_devx_obj **obj, const char *what)
{
	doca_error_t err;

	memset(out, 0, outlen);
	err = port->devx->ops->obj_create(port->devx, in, inlen, out, outlen, obj);
	if (err != DOCA_SUCCESS)
		*obj = NULL;
	return result(port, err, out, outlen, what);
}

void flow_hw_destroy(struct doca_flow_port *port, struct ogda_devx_obj **obj, const char *what)
{
	doca_error_t err;

	if (*obj == NULL)
		return;
	err = port->devx->ops->obj_destroy(*obj);
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("port %u (%s): destroying a %s failed: %s", (unsigned)port->port_id, port->devx->name, what,
			     doca_error_get_descr(err));
	*obj = NULL;
}

doca_error_t flow_hw_td_alloc(struct doca_flow_port *port)
{
	uint8_t in[PRM_PD_UAR_CMD_SIZE] = {0}, out[PRM_PD_UAR_CMD_SIZE];
	doca_error_t err = prm_alloc_td_in_build(0, in, sizeof(in));

	if (err == DOCA_SUCCESS)
		err = create(port, in, sizeof(in), out, sizeof(out), &port->td, "ALLOC_TRANSPORT_DOMAIN");
	if (err == DOCA_SUCCESS)
		err = prm_alloc_td_out_parse(out, sizeof(out), &port->tdn);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, &port->td, "transport domain");
	return err;
}

doca_error_t flow_hw_table_create(struct doca_flow_port *port, uint8_t level, uint8_t log_size,
				  const struct doca_flow_pipe *miss_pipe, struct ogda_devx_obj **obj, uint32_t *id)
{
	struct prm_create_flow_table_params p;
	uint8_t in[PRM_FLOW_CMD_SIZE] = {0}, out[OUT_SMALL];
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.ctx.level = level;
	p.ctx.log_size = log_size;
	if (miss_pipe != NULL) {
		p.ctx.table_miss_action = PRM_FLOW_TABLE_MISS_GOTO_TBL;
		p.ctx.table_miss_id = miss_pipe->table_id;
	} else {
		p.ctx.table_miss_action = PRM_FLOW_TABLE_MISS_DEFAULT;
	}
	err = prm_create_flow_table_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = create(port, in, sizeof(in), out, sizeof(out), obj, "CREATE_FLOW_TABLE");
	if (err == DOCA_SUCCESS)
		err = prm_create_flow_table_out_parse(out, sizeof(out), id);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, obj, "flow table");
	return err;
}

doca_error_t flow_hw_root_attach(struct doca_flow_pipe *p)
{
	struct doca_flow_port *port = p->port;
	doca_error_t err = port->devx->ops->rx_root_attach(port->devx, p->table, p->table_id, &p->rx_root);

	if (err != DOCA_SUCCESS) {
		p->rx_root = NULL;
		OGDA_LOG_ERR("port %u (%s): pipe \"%s\": its table 0x%x cannot become the receive root: %s",
			     (unsigned)port->port_id, port->devx->name, p->name, p->table_id, doca_error_get_descr(err));
	}
	return err;
}

void flow_hw_root_detach(struct doca_flow_pipe *p)
{
	struct doca_flow_port *port = p->port;
	doca_error_t err;

	if (p->rx_root == NULL)
		return;
	err = port->devx->ops->rx_root_detach(p->rx_root);
	p->rx_root = NULL; /* gone either way (devx.h) */
	if (err != DOCA_SUCCESS)
		OGDA_LOG_ERR("port %u (%s): disconnecting the receive root (table 0x%x) failed: %s",
			     (unsigned)port->port_id, port->devx->name, p->table_id, doca_error_get_descr(err));
}

/* The NIC's outer header set from our fields (network order bytes to host-order members). */
static void to_prm(const struct flow_fields *f, struct prm_match_lyr_2_4 *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->smac, f->smac, sizeof(m->smac));
	memcpy(m->dmac, f->dmac, sizeof(m->dmac));
	m->ethertype = (uint16_t)(f->ethertype[0] << 8 | f->ethertype[1]);
	m->ip_version = f->ip_version;
	m->ip_protocol = f->ip_protocol;
	m->ip_dscp = f->ip_dscp;
	m->ip_ecn = f->ip_ecn;
	m->ttl_hoplimit = f->ttl_hoplimit;
	m->frag = f->frag;
	m->tcp_flags = f->tcp_flags;
	m->tcp_sport = (uint16_t)(f->tcp_sport[0] << 8 | f->tcp_sport[1]);
	m->tcp_dport = (uint16_t)(f->tcp_dport[0] << 8 | f->tcp_dport[1]);
	m->udp_sport = (uint16_t)(f->udp_sport[0] << 8 | f->udp_sport[1]);
	m->udp_dport = (uint16_t)(f->udp_dport[0] << 8 | f->udp_dport[1]);
	memcpy(m->src_ip, f->src_ip, sizeof(m->src_ip));
	memcpy(m->dst_ip, f->dst_ip, sizeof(m->dst_ip));
}

doca_error_t flow_hw_group_create(struct doca_flow_port *port, uint32_t table_id, uint32_t start, uint32_t end,
				  const struct flow_fields *criteria, struct ogda_devx_obj **obj, uint32_t *id)
{
	struct prm_create_flow_group_params p;
	uint8_t *in, out[OUT_SMALL];
	doca_error_t err;

	in = calloc(1, PRM_CREATE_FLOW_GROUP_IN_SIZE);
	if (in == NULL) {
		OGDA_LOG_ERR("port %u: out of memory", (unsigned)port->port_id);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(&p, 0, sizeof(p));
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.table_id = table_id;
	p.start_flow_index = start;
	p.end_flow_index = end;
	p.match_criteria_enable = flow_fields_is_zero(criteria) ? 0 : PRM_MATCH_CRITERIA_OUTER;
	to_prm(criteria, &p.match_criteria);
	err = prm_create_flow_group_in_build(&p, in, PRM_CREATE_FLOW_GROUP_IN_SIZE);
	if (err == DOCA_SUCCESS)
		err = create(port, in, PRM_CREATE_FLOW_GROUP_IN_SIZE, out, sizeof(out), obj, "CREATE_FLOW_GROUP");
	if (err == DOCA_SUCCESS)
		err = prm_create_flow_group_out_parse(out, sizeof(out), id);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, obj, "flow group");
	free(in);
	return err;
}

doca_error_t flow_hw_fte_set(struct doca_flow_port *port, uint32_t table_id, uint32_t group_id, uint32_t index,
			     const struct flow_spec *spec, const struct flow_hw_action *act, struct ogda_devx_obj **obj)
{
	struct prm_set_fte_params p;
	uint8_t *in, out[OUT_SMALL];
	size_t len;
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.op_mod = PRM_SET_FTE_OP_MOD_NEW;
	p.table_type = PRM_FLOW_TABLE_NIC_RX;
	p.table_id = table_id;
	p.flow_index = index;
	p.ctx.group_id = group_id;
	to_prm(&spec->v, &p.ctx.match_value);
	switch (act->kind) {
	case FLOW_DEST_RSS:
		p.ctx.action = PRM_FLOW_ACTION_FWD_DEST;
		p.ctx.dest[0].type = PRM_FLOW_DEST_TIR;
		p.ctx.dest[0].id = act->dest_id;
		p.ctx.destination_list_size = 1;
		break;
	case FLOW_DEST_PIPE:
	case FLOW_DEST_KERNEL:
		p.ctx.action = PRM_FLOW_ACTION_FWD_DEST;
		p.ctx.dest[0].type = PRM_FLOW_DEST_FLOW_TABLE;
		p.ctx.dest[0].id = act->dest_id;
		p.ctx.destination_list_size = 1;
		break;
	case FLOW_DEST_DROP:
		p.ctx.action = PRM_FLOW_ACTION_DROP;
		break;
	default:
		OGDA_LOG_ERR("port %u: an entry with forward \"%s\" cannot be written", (unsigned)port->port_id,
			     flow_dest_name(act->kind));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (act->count) {
		p.ctx.action |= PRM_FLOW_ACTION_COUNT;
		p.ctx.counter_id[0] = act->counter_id;
		p.ctx.flow_counter_list_size = 1;
	}
	len = prm_set_fte_in_size(p.ctx.destination_list_size, p.ctx.flow_counter_list_size);
	in = calloc(1, len);
	if (in == NULL) {
		OGDA_LOG_ERR("port %u: out of memory", (unsigned)port->port_id);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = prm_set_fte_in_build(&p, in, len);
	if (err == DOCA_SUCCESS)
		err = create(port, in, len, out, sizeof(out), obj, "SET_FLOW_TABLE_ENTRY");
	free(in);
	return err;
}

doca_error_t flow_hw_counter_alloc(struct doca_flow_port *port, struct ogda_devx_obj **obj, uint32_t *id)
{
	uint8_t in[PRM_FLOW_SMALL_CMD_SIZE] = {0}, out[OUT_SMALL];
	doca_error_t err = prm_alloc_flow_counter_in_build(0, 0, in, sizeof(in));

	if (err == DOCA_SUCCESS)
		err = create(port, in, sizeof(in), out, sizeof(out), obj, "ALLOC_FLOW_COUNTER");
	if (err == DOCA_SUCCESS)
		err = prm_alloc_flow_counter_out_parse(out, sizeof(out), id);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, obj, "flow counter");
	return err;
}

doca_error_t flow_hw_counter_query(struct doca_flow_port *port, struct ogda_devx_obj *obj, uint32_t id,
				   uint64_t *packets, uint64_t *bytes)
{
	struct prm_query_flow_counter_params p = {.flow_counter_id = id};
	uint8_t in[PRM_QUERY_FLOW_COUNTER_IN_SIZE] = {0};
	size_t outlen = prm_query_flow_counter_out_size(1);
	struct prm_traffic_counter c = {0};
	uint8_t out[PRM_FLOW_SMALL_CMD_SIZE + PRM_TRAFFIC_COUNTER_SIZE] = {0};
	doca_error_t err;

	if (outlen == 0 || outlen > sizeof(out))
		outlen = sizeof(out);
	err = prm_query_flow_counter_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = port->devx->ops->obj_query(obj, in, sizeof(in), out, outlen);
	err = result(port, err, out, outlen, "QUERY_FLOW_COUNTER");
	if (err == DOCA_SUCCESS)
		err = prm_query_flow_counter_out_parse(out, outlen, &c, 1);
	if (err == DOCA_SUCCESS) {
		*packets = c.packets;
		*bytes = c.octets;
	}
	return err;
}

doca_error_t flow_hw_rqt_create(struct doca_flow_port *port, const uint32_t *rqns, uint32_t n,
				struct ogda_devx_obj **obj, uint32_t *rqtn)
{
	struct prm_create_rqt_params *p;
	size_t len = prm_create_rqt_in_size(n);
	uint8_t *in, out[PRM_TIR_SMALL_CMD_SIZE];
	doca_error_t err;
	uint32_t i;

	if (len == 0 || n == 0) {
		OGDA_LOG_ERR("port %u: an RQT of %u queues is not possible (1 .. %u)", (unsigned)port->port_id, n,
			     PRM_RQT_MAX_RQS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = calloc(1, sizeof(*p));
	in = calloc(1, len);
	if (p == NULL || in == NULL) {
		free(p);
		free(in);
		OGDA_LOG_ERR("port %u: out of memory", (unsigned)port->port_id);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->rqtc.rqt_max_size = (uint16_t)n;
	p->rqtc.rqt_actual_size = (uint16_t)n;
	for (i = 0; i < n; i++)
		p->rqtc.rq_num[i] = rqns[i];
	err = prm_create_rqt_in_build(p, in, len);
	if (err == DOCA_SUCCESS)
		err = create(port, in, len, out, sizeof(out), obj, "CREATE_RQT");
	if (err == DOCA_SUCCESS)
		err = prm_create_rqt_out_parse(out, sizeof(out), rqtn);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, obj, "RQT");
	free(in);
	free(p);
	return err;
}

doca_error_t flow_hw_tir_create(struct doca_flow_port *port, const struct flow_rss_key *key, uint32_t rqn,
				uint32_t rqtn, struct ogda_devx_obj **obj, uint32_t *tirn)
{
	struct prm_create_tir_params p;
	struct prm_rx_hash_field_select *sel = &p.tirc.rx_hash_field_selector_outer;
	uint8_t in[PRM_TIR_CMD_SIZE] = {0}, out[PRM_TIR_SMALL_CMD_SIZE];
	doca_error_t err;

	memset(&p, 0, sizeof(p));
	p.tirc.transport_domain = port->tdn;
	if (key->nr_queues == 1) {
		p.tirc.disp_type = PRM_TIR_DISP_DIRECT;
		p.tirc.inline_rqn = rqn;
	} else {
		p.tirc.disp_type = PRM_TIR_DISP_INDIRECT;
		p.tirc.indirect_table = rqtn;
		p.tirc.rx_hash_fn = PRM_RX_HASH_FN_TOEPLITZ;
		p.tirc.rx_hash_symmetric = key->symmetric;
		memcpy(p.tirc.rx_hash_toeplitz_key, flow_g.cfg.rss_key, PRM_TIR_TOEPLITZ_KEY_LEN);
		sel->l3_prot_type = key->l3 == 6 ? PRM_RX_HASH_L3_IPV6 : PRM_RX_HASH_L3_IPV4;
		sel->l4_prot_type = key->l4 == DOCA_FLOW_PROTO_UDP ? PRM_RX_HASH_L4_UDP : PRM_RX_HASH_L4_TCP;
		if (key->fields & FLOW_HASH_SRC_IP)
			sel->selected_fields |= PRM_RX_HASH_SRC_IP;
		if (key->fields & FLOW_HASH_DST_IP)
			sel->selected_fields |= PRM_RX_HASH_DST_IP;
		if (key->fields & FLOW_HASH_L4_SPORT)
			sel->selected_fields |= PRM_RX_HASH_L4_SPORT;
		if (key->fields & FLOW_HASH_L4_DPORT)
			sel->selected_fields |= PRM_RX_HASH_L4_DPORT;
	}
	err = prm_create_tir_in_build(&p, in, sizeof(in));
	if (err == DOCA_SUCCESS)
		err = create(port, in, sizeof(in), out, sizeof(out), obj, "CREATE_TIR");
	if (err == DOCA_SUCCESS)
		err = prm_create_tir_out_parse(out, sizeof(out), tirn);
	if (err != DOCA_SUCCESS)
		flow_hw_destroy(port, obj, "TIR");
	return err;
}
