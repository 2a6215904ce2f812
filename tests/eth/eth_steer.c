/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive steering from PRM commands for the Ethernet tests (eth_steer.h). */
#include "eth_steer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "doca_core/core_priv.h"
#include "devx/devx.h"
#include "prm/prm_cmd.h"
#include "prm/prm_flow.h"
#include "prm/prm_pd_uar.h"
#include "prm/prm_tir.h"

static struct ogda_devx_obj *create(struct ogda_devx *devx, const void *in, size_t inlen, void *out, size_t outlen)
{
	struct ogda_devx_obj *obj = NULL;

	memset(out, 0, outlen);
	assert_int_equal(devx->ops->obj_create(devx, in, inlen, out, outlen, &obj), DOCA_SUCCESS);
	assert_non_null(obj);
	return obj;
}

static void make_tir(struct est *e, const uint32_t *rqn, uint32_t n)
{
	struct prm_create_tir_params tp;
	uint8_t in[PRM_TIR_CMD_SIZE], out[PRM_TIR_SMALL_CMD_SIZE];
	uint32_t i;

	memset(&tp, 0, sizeof(tp));
	tp.tirc.transport_domain = e->tdn;
	if (n == 1) {
		tp.tirc.disp_type = PRM_TIR_DISP_DIRECT;
		tp.tirc.inline_rqn = rqn[0];
	} else {
		struct prm_create_rqt_params *rp = calloc(1, sizeof(*rp));
		size_t len = prm_create_rqt_in_size(n);
		uint8_t *rin = calloc(1, len);

		assert_non_null(rp);
		assert_non_null(rin);
		rp->rqtc.rqt_max_size = (uint16_t)n;
		rp->rqtc.rqt_actual_size = (uint16_t)n;
		for (i = 0; i < n; i++)
			rp->rqtc.rq_num[i] = rqn[i];
		assert_int_equal(prm_create_rqt_in_build(rp, rin, len), DOCA_SUCCESS);
		e->rqt = create(e->devx, rin, len, out, sizeof(out));
		assert_int_equal(prm_create_rqt_out_parse(out, sizeof(out), &e->rqtn), DOCA_SUCCESS);
		free(rin);
		free(rp);
		tp.tirc.disp_type = PRM_TIR_DISP_INDIRECT;
		tp.tirc.indirect_table = e->rqtn;
		tp.tirc.rx_hash_fn = PRM_RX_HASH_FN_TOEPLITZ;
		for (i = 0; i < PRM_TIR_TOEPLITZ_KEY_LEN; i++)
			tp.tirc.rx_hash_toeplitz_key[i] = (uint8_t)(0x6d + 7 * i);
		tp.tirc.rx_hash_field_selector_outer.l3_prot_type = PRM_RX_HASH_L3_IPV4;
		tp.tirc.rx_hash_field_selector_outer.l4_prot_type = PRM_RX_HASH_L4_UDP;
		tp.tirc.rx_hash_field_selector_outer.selected_fields =
			PRM_RX_HASH_SRC_IP | PRM_RX_HASH_DST_IP | PRM_RX_HASH_L4_SPORT | PRM_RX_HASH_L4_DPORT;
	}
	assert_int_equal(prm_create_tir_in_build(&tp, in, sizeof(in)), DOCA_SUCCESS);
	e->tir = create(e->devx, in, sizeof(in), out, sizeof(out));
	assert_int_equal(prm_create_tir_out_parse(out, sizeof(out), &e->tirn), DOCA_SUCCESS);
}

void est_udp_to_rqs(struct doca_dev *dev, const uint32_t *rqn, uint32_t n, uint16_t dport, struct est *e)
{
	struct prm_create_flow_table_params ftp;
	struct prm_create_flow_group_params *gp = calloc(1, sizeof(*gp));
	struct prm_set_fte_params *sp = calloc(1, sizeof(*sp));
	struct prm_set_flow_table_root_params rp;
	struct ogda_devx_pd *pd = NULL;
	uint8_t small[PRM_FLOW_SMALL_CMD_SIZE], cmd[PRM_FLOW_CMD_SIZE], out[PRM_FLOW_SMALL_CMD_SIZE];
	uint8_t *gin = calloc(1, PRM_CREATE_FLOW_GROUP_IN_SIZE);
	size_t fte_len = prm_set_fte_in_size(1, 1);
	uint8_t *fin = calloc(1, fte_len);

	assert_non_null(gp);
	assert_non_null(sp);
	assert_non_null(gin);
	assert_non_null(fin);
	memset(e, 0, sizeof(*e));
	assert_int_equal(core_dev_resolve(dev, &e->devx, &pd, NULL), DOCA_SUCCESS);

	assert_int_equal(prm_alloc_td_in_build(0, small, sizeof(small)), DOCA_SUCCESS);
	e->td = create(e->devx, small, sizeof(small), out, sizeof(out));
	assert_int_equal(prm_alloc_td_out_parse(out, sizeof(out), &e->tdn), DOCA_SUCCESS);
	make_tir(e, rqn, n);

	memset(&ftp, 0, sizeof(ftp));
	ftp.table_type = PRM_FLOW_TABLE_NIC_RX;
	ftp.ctx.log_size = 4;
	assert_int_equal(prm_create_flow_table_in_build(&ftp, cmd, sizeof(cmd)), DOCA_SUCCESS);
	e->ft = create(e->devx, cmd, sizeof(cmd), out, sizeof(out));
	assert_int_equal(prm_create_flow_table_out_parse(out, sizeof(out), &e->ft_id), DOCA_SUCCESS);

	gp->table_type = PRM_FLOW_TABLE_NIC_RX;
	gp->table_id = e->ft_id;
	gp->start_flow_index = 0;
	gp->end_flow_index = 0;
	gp->match_criteria_enable = PRM_MATCH_CRITERIA_OUTER;
	gp->match_criteria.ip_version = 0xf;
	gp->match_criteria.ip_protocol = 0xff;
	gp->match_criteria.udp_dport = 0xffff;
	assert_int_equal(prm_create_flow_group_in_build(gp, gin, PRM_CREATE_FLOW_GROUP_IN_SIZE), DOCA_SUCCESS);
	e->fg = create(e->devx, gin, PRM_CREATE_FLOW_GROUP_IN_SIZE, out, sizeof(out));
	assert_int_equal(prm_create_flow_group_out_parse(out, sizeof(out), &e->fg_id), DOCA_SUCCESS);

	assert_int_equal(prm_alloc_flow_counter_in_build(0, 0, small, sizeof(small)), DOCA_SUCCESS);
	e->counter = create(e->devx, small, sizeof(small), out, sizeof(out));
	assert_int_equal(prm_alloc_flow_counter_out_parse(out, sizeof(out), &e->counter_id), DOCA_SUCCESS);

	sp->table_type = PRM_FLOW_TABLE_NIC_RX;
	sp->table_id = e->ft_id;
	sp->flow_index = 0;
	sp->ctx.group_id = e->fg_id;
	sp->ctx.flow_tag = EST_FLOW_TAG;
	sp->ctx.action = PRM_FLOW_ACTION_FWD_DEST | PRM_FLOW_ACTION_COUNT;
	sp->ctx.destination_list_size = 1;
	sp->ctx.dest[0].type = PRM_FLOW_DEST_TIR;
	sp->ctx.dest[0].id = e->tirn;
	sp->ctx.flow_counter_list_size = 1;
	sp->ctx.counter_id[0] = e->counter_id;
	sp->ctx.match_value.ip_version = 4;
	sp->ctx.match_value.ip_protocol = 17;
	sp->ctx.match_value.udp_dport = dport;
	assert_int_equal(prm_set_fte_in_build(sp, fin, fte_len), DOCA_SUCCESS);
	e->fte = create(e->devx, fin, fte_len, out, sizeof(out));

	memset(&rp, 0, sizeof(rp));
	rp.table_type = PRM_FLOW_TABLE_NIC_RX;
	rp.table_id = e->ft_id;
	assert_int_equal(prm_set_flow_table_root_in_build(&rp, cmd, sizeof(cmd)), DOCA_SUCCESS);
	memset(out, 0, sizeof(out));
	assert_int_equal(e->devx->ops->general_cmd(e->devx, cmd, sizeof(cmd), out, sizeof(out)), DOCA_SUCCESS);
	free(fin);
	free(gin);
	free(sp);
	free(gp);
}

uint64_t est_counted(struct est *e)
{
	struct prm_query_flow_counter_params q;
	struct prm_traffic_counter tc;
	uint8_t in[PRM_QUERY_FLOW_COUNTER_IN_SIZE];
	size_t outlen = prm_query_flow_counter_out_size(1);
	uint8_t *out = calloc(1, outlen);

	assert_non_null(out);
	memset(&q, 0, sizeof(q));
	q.flow_counter_id = e->counter_id;
	assert_int_equal(prm_query_flow_counter_in_build(&q, in, sizeof(in)), DOCA_SUCCESS);
	assert_int_equal(e->devx->ops->obj_query(e->counter, in, sizeof(in), out, outlen), DOCA_SUCCESS);
	assert_int_equal(prm_query_flow_counter_out_parse(out, outlen, &tc, 1), DOCA_SUCCESS);
	free(out);
	return tc.packets;
}

int est_tir_busy(struct est *e)
{
	return e->devx->ops->obj_destroy(e->tir) != DOCA_SUCCESS;
}

void est_destroy(struct est *e)
{
	struct ogda_devx_obj *objs[] = {e->fte, e->counter, e->fg, NULL, e->tir, e->rqt, e->td};
	uint8_t cmd[PRM_FLOW_CMD_SIZE], out[PRM_FLOW_SMALL_CMD_SIZE] = {0};
	struct prm_set_flow_table_root_params rp;
	size_t i;

	/* the root goes before its table can */
	memset(&rp, 0, sizeof(rp));
	rp.op_mod = 1;
	rp.table_type = PRM_FLOW_TABLE_NIC_RX;
	assert_int_equal(prm_set_flow_table_root_in_build(&rp, cmd, sizeof(cmd)), DOCA_SUCCESS);
	assert_int_equal(e->devx->ops->general_cmd(e->devx, cmd, sizeof(cmd), out, sizeof(out)), DOCA_SUCCESS);
	objs[3] = e->ft;
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		if (objs[i] != NULL)
			assert_int_equal(e->devx->ops->obj_destroy(objs[i]), DOCA_SUCCESS);
	memset(e, 0, sizeof(*e));
}
