/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The front end's libmlx5.so.1 through rdma-core's mlx5dv API, as GPU-initiated code uses it:
 * mlx5dv_init_obj hands out the QP's real send ring, doorbell record and BlueFlame register
 * and the CQ's real ring; this program writes an mlx5 RDMA WRITE WQE itself (the public
 * opengda_mlx5.h encoders), rings the doorbell, and reads the CQE itself, and the software
 * NIC executes it. DevX commands go to the NIC's command executor with the kernel's error
 * convention (EREMOTEIO + the status in the out mailbox).
 */
#include "front_fixture.h"

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "opengda_mlx5.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define CMD_HDR 16u
#define PRM_QUERY_HCA_CAP 0x100u
#define PRM_BAD_OPCODE 0x7ffu
#define PRM_STATUS_BAD_OP 0x02u

static void cmd_in(uint8_t *in, uint16_t opcode, uint16_t op_mod)
{
	memset(in, 0, CMD_HDR);
	in[0] = (uint8_t)(opcode >> 8);
	in[1] = (uint8_t)opcode;
	in[6] = (uint8_t)(op_mod >> 8);
	in[7] = (uint8_t)op_mod;
}

static void test_device(void **state)
{
	struct fx *f = *state;
	struct mlx5dv_context_attr attr = {.flags = MLX5DV_CONTEXT_FLAGS_DEVX};
	struct mlx5dv_context dv;
	struct ibv_context *ctx;

	assert_true(mlx5dv_is_supported(f->list[0]));
	ctx = mlx5dv_open_device(f->list[0], &attr);
	assert_non_null(ctx);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = ~0ull;
	assert_int_equal(mlx5dv_query_device(ctx, &dv), 0);
	assert_true(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	assert_int_equal(dv.comp_mask, 0); /* no extended capability is claimed */
	assert_int_equal(ibv_close_device(ctx), 0);
	attr.flags = 1u << 30;
	errno = 0;
	assert_null(mlx5dv_open_device(f->list[0], &attr));
	assert_int_equal(errno, EOPNOTSUPP);
}

static void test_general_cmd(void **state)
{
	struct fx *f = *state;
	uint8_t in[CMD_HDR];
	uint8_t *out = calloc(1, CMD_HDR + 4096);

	assert_non_null(out);
	cmd_in(in, PRM_QUERY_HCA_CAP, 1); /* general capabilities, current */
	assert_int_equal(mlx5dv_devx_general_cmd(f->ctx, in, sizeof(in), out, CMD_HDR + 4096), 0);
	assert_int_equal(out[0], 0);
	/* An opcode the device does not know: executed, refused with BAD_OP, errno EREMOTEIO. */
	cmd_in(in, PRM_BAD_OPCODE, 0);
	memset(out, 0, CMD_HDR);
	assert_int_equal(mlx5dv_devx_general_cmd(f->ctx, in, sizeof(in), out, CMD_HDR), EREMOTEIO);
	assert_int_equal(out[0], PRM_STATUS_BAD_OP);
	errno = 0;
	assert_null(mlx5dv_devx_obj_create(f->ctx, in, sizeof(in), out, CMD_HDR));
	assert_int_not_equal(errno, 0);
	free(out);
}

static void test_devx_resources(void **state)
{
	struct fx *f = *state;
	struct mlx5dv_devx_umem_in uin;
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_uar *uar, *uar2;
	uint8_t evbuf[128];
	uint32_t eqn = 0;
	void *mem = aligned_alloc(4096, 8192);

	assert_non_null(mem);
	umem = mlx5dv_devx_umem_reg(f->ctx, mem, 8192, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(umem);
	memset(&uin, 0, sizeof(uin));
	uin.addr = 0;
	uin.size = 4096;
	uin.comp_mask = MLX5DV_UMEM_MASK_DMABUF;
	uin.dmabuf_fd = 0;
	errno = 0;
	assert_null(mlx5dv_devx_umem_reg_ex(f->ctx, &uin)); /* the software NIC registers addresses only */
	assert_int_equal(errno, EOPNOTSUPP);
	uar = mlx5dv_devx_alloc_uar(f->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	assert_non_null(uar);
	assert_ptr_equal((uint8_t *)uar->reg_addr, (uint8_t *)uar->base_addr + 0x800);
	assert_null(mlx5dv_devx_alloc_uar(f->ctx, 77));
	/* The dedicated NC type of rdma-core 50+ (1 << 31), which our ConnectX path asks for. */
	uar2 = mlx5dv_devx_alloc_uar(f->ctx, 1u << 31);
	assert_non_null(uar2);
	mlx5dv_devx_free_uar(uar2);
	assert_int_equal(mlx5dv_devx_query_eqn(f->ctx, 0, &eqn), 0);
	assert_int_equal(mlx5dv_devx_query_eqn(f->ctx, 1, &eqn), EINVAL);
	ch = mlx5dv_devx_create_event_channel(f->ctx, 0);
	assert_non_null(ch);
	assert_true(ch->fd >= 0);
	/* Handed out blocking, as the kernel's; a program that sets O_NONBLOCK gets EAGAIN when idle. */
	assert_int_equal(fcntl(ch->fd, F_GETFL) & O_NONBLOCK, 0);
	assert_int_equal(fcntl(ch->fd, F_SETFL, O_NONBLOCK), 0);
	errno = 0;
	assert_int_equal(mlx5dv_devx_get_event(ch, (struct mlx5dv_devx_async_event_hdr *)evbuf, sizeof(evbuf)), -1);
	assert_int_equal(errno, EAGAIN);
	mlx5dv_devx_destroy_event_channel(ch);
	mlx5dv_devx_free_uar(uar);
	assert_int_equal(mlx5dv_devx_umem_dereg(umem), 0);
	free(mem);
}

/* The program writes the WQE and reads the CQE itself; the software NIC executes it. */
static void test_own_wqe(void **state)
{
	struct fx *f = *state;
	struct mlx5dv_qp dqp;
	struct mlx5dv_cq dcq;
	struct mlx5dv_pd dpd;
	struct mlx5dv_obj obj;
	struct opengda_mlx5_sq sq;
	const struct opengda_mlx5_cqe64 *cqe;
	uint32_t log = 0, cq_log = 0;
	uint64_t end;
	int ds;

	memset(&obj, 0, sizeof(obj));
	obj.qp.in = f->a.qp;
	obj.qp.out = &dqp;
	obj.cq.in = f->a.cq;
	obj.cq.out = &dcq;
	obj.pd.in = f->pd;
	obj.pd.out = &dpd;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ | MLX5DV_OBJ_PD), 0);
	assert_non_null(dqp.sq.buf);
	assert_int_equal(dqp.sq.stride, 64);
	assert_true(dqp.sq.wqe_cnt >= 32);
	assert_non_null(dqp.dbrec);
	assert_non_null(dqp.bf.reg);
	assert_int_equal(dqp.bf.size, 256);
	assert_int_equal(dcq.cqe_size, 64);
	assert_int_equal(dcq.cqn, f->a.cq->handle);
	assert_true(dcq.cqe_cnt >= 64);
	while ((1u << log) < dqp.sq.wqe_cnt)
		log++;
	while ((1u << cq_log) < dcq.cqe_cnt)
		cq_log++;
	/* An SRQ is not made by the front end: init_obj says so. */
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_SRQ), EOPNOTSUPP);

	for (int i = 0; i < 512; i++)
		f->a.buf[i] = (uint8_t)(255 - i);
	sq.ring = dqp.sq.buf;
	sq.log_wqebbs = log;
	sq.qpn = f->a.qp->qp_num;
	ds = opengda_mlx5_wqe_rdma_write(&sq, 0, (uint8_t)opengda_mlx5_fm_ce_se(0, OPENGDA_MLX5_CE_ALWAYS, 0), (uintptr_t)f->b.buf + 2048,
					 f->b.mr->rkey, (uintptr_t)f->a.buf, f->a.mr->lkey, 512);
	assert_int_equal(ds, 3);
	/* The doorbell as libmlx5 rings it: record, then the ctrl segment's first 8 bytes to BlueFlame. */
	__atomic_store_n(&dqp.dbrec[1], htobe32(1), __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)dqp.bf.reg, *(uint64_t *)dqp.sq.buf, __ATOMIC_RELEASE);
	cqe = (const struct opengda_mlx5_cqe64 *)dcq.buf;
	end = fx_now_ms() + FX_WAIT_MS;
	/* The owner byte with acquire ordering, as a poller reads it before the other fields. */
	while (!opengda_mlx5_op_own_is_sw_owned(__atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE), 0, cq_log) &&
	       fx_now_ms() < end)
		;
	assert_true(opengda_mlx5_op_own_is_sw_owned(__atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE), 0, cq_log));
	assert_int_equal(opengda_mlx5_cqe_opcode(cqe), OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), 0);
	assert_int_equal(opengda_mlx5_cqe_qpn(cqe), f->a.qp->qp_num);
	assert_memory_equal(f->b.buf + 2048, f->a.buf, 512);
}

/* PRM queries on objects made through ibv_*: QUERY_QP shows the QP in RTS; naming another QP is refused. */
static void test_devx_on_verbs_objects(void **state)
{
	struct fx *f = *state;
	uint8_t in[CMD_HDR];
	uint8_t *out = calloc(1, 0x400);

	assert_non_null(out);
	cmd_in(in, 0x50b /* QUERY_QP */, 0);
	in[9] = (uint8_t)(f->a.qp->qp_num >> 16);
	in[10] = (uint8_t)(f->a.qp->qp_num >> 8);
	in[11] = (uint8_t)f->a.qp->qp_num;
	assert_int_equal(mlx5dv_devx_qp_query(f->a.qp, in, sizeof(in), out, 0x400), 0);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[0x18] >> 4, 3); /* qpc.state: RTS */
	assert_int_equal(mlx5dv_devx_qp_query(f->b.qp, in, sizeof(in), out, 0x400), EINVAL);
	cmd_in(in, 0x402 /* QUERY_CQ */, 0);
	in[9] = (uint8_t)(f->a.cq->handle >> 16);
	in[10] = (uint8_t)(f->a.cq->handle >> 8);
	in[11] = (uint8_t)f->a.cq->handle;
	memset(out, 0xff, 0x400);
	assert_int_equal(mlx5dv_devx_cq_query(f->a.cq, in, sizeof(in), out, 0x400), 0);
	assert_int_equal(out[0], 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_device, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_general_cmd, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_devx_resources, fx_open_dev, fx_close_dev),
		cmocka_unit_test_setup_teardown(test_own_wqe, fx_pair_up, fx_pair_down),
		cmocka_unit_test_setup_teardown(test_devx_on_verbs_objects, fx_pair_up, fx_pair_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
