/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQEs: exact images of requester, responder and error CQEs, the error view offsets, and
 * the ownership rule across many wraps of a small CQ (reference/mlx5.md B.6, B.7).
 */
/* First, so that the header is compiled on its own with -pedantic. */
#include "opengda_mlx5.h"

#include "queue_test_util.h"

#define LOG_CQ 2u
#define NCQE (1u << LOG_CQ)

static _Alignas(64) struct opengda_mlx5_cqe64 cq[NCQE];

static void test_cq_init_not_owned(void **state)
{
	uint8_t image[64] = {0};
	uint32_t ci;

	(void)state;
	memset(cq, 0x77, sizeof(cq));
	assert_int_equal(opengda_mlx5_cq_init(cq, LOG_CQ), 0);
	image[63] = 0xf1; /* opcode INVALID, owner 1 */
	for (ci = 0; ci < NCQE; ci++)
		assert_memory_equal(&cq[ci], image, 64);
	/* Neither on the first pass (owner 0 expected) nor on the second (opcode INVALID). */
	for (ci = 0; ci < 4 * NCQE; ci++)
		assert_false(opengda_mlx5_cqe_is_sw_owned(opengda_mlx5_cq_entry(cq, LOG_CQ, ci), ci, LOG_CQ));
	/* rdma-core's initial value 0xF0 is refused only because of its opcode. */
	assert_false(opengda_mlx5_op_own_is_sw_owned(0xf0, 0, LOG_CQ));
	assert_false(opengda_mlx5_op_own_is_sw_owned(0xff, NCQE, LOG_CQ));
	assert_true(opengda_mlx5_op_own_is_sw_owned(0x00, 0, LOG_CQ));
	assert_false(opengda_mlx5_op_own_is_sw_owned(0x00, NCQE, LOG_CQ));
	assert_true(opengda_mlx5_op_own_is_sw_owned(0xd1, NCQE, LOG_CQ));
}

static void test_owner_bits(void **state)
{
	(void)state;
	assert_int_equal(opengda_mlx5_cqe_owner_expected(0, 2), 0);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(3, 2), 0);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(4, 2), 1);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(7, 2), 1);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(8, 2), 0);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(0xffffff, 10), 1);
	assert_int_equal(opengda_mlx5_cqe_hw_owner(5, 2), 1);
	assert_int_equal(opengda_mlx5_cqe_hw_owner(1024, 10), 1);
	assert_int_equal(opengda_mlx5_cqe_hw_owner(2047, 10), 1);
	assert_int_equal(opengda_mlx5_cqe_hw_owner(2048, 10), 0);
	/* The 24-bit consumer index wraps to 0 without breaking the owner sequence. */
	assert_int_equal(opengda_mlx5_cq_ci_next(0xffffff), 0);
	assert_int_equal(opengda_mlx5_cqe_owner_expected(opengda_mlx5_cq_ci_next(0xffffff), 2), 0);
	assert_ptr_equal(opengda_mlx5_cq_entry(cq, LOG_CQ, 6), &cq[2]);
	assert_ptr_equal(opengda_mlx5_cq_entry(cq, LOG_CQ, 0x1000003), &cq[3]);
}

/* The NIC side: one requester CQE for sequence number seq at producer index pi. */
static void produce(uint32_t pi, uint16_t seq)
{
	struct opengda_mlx5_cqe_fields f = {0};

	f.opcode = OPENGDA_MLX5_CQE_REQ;
	f.wqe_opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
	f.qpn = QT_QPN;
	f.wqe_counter = seq;
	f.byte_cnt = 64;
	assert_int_equal(opengda_mlx5_cqe_write(opengda_mlx5_cq_entry(cq, LOG_CQ, pi), &f,
						opengda_mlx5_cqe_hw_owner(pi, LOG_CQ)),
			 0);
}

/* The consumer side: everything SW owns from *ci on; returns how many CQEs it took. */
static uint32_t consume(uint32_t *ci, uint16_t *next_seq)
{
	uint32_t n = 0;

	for (;;) {
		struct opengda_mlx5_cqe64 *cqe = opengda_mlx5_cq_entry(cq, LOG_CQ, *ci);

		if (!opengda_mlx5_cqe_is_sw_owned(cqe, *ci, LOG_CQ))
			return n;
		assert_int_equal(opengda_mlx5_cqe_opcode(cqe), OPENGDA_MLX5_CQE_REQ);
		assert_int_equal(opengda_mlx5_cqe_wqe_counter(cqe), *next_seq);
		assert_int_equal(opengda_mlx5_cqe_owner(cqe), opengda_mlx5_cqe_owner_expected(*ci, LOG_CQ));
		(*next_seq)++;
		*ci = opengda_mlx5_cq_ci_next(*ci);
		n++;
	}
}

/*
 * A producer and a consumer take turns on a 4-entry CQ for 7 wraps, with batches of
 * 1..4 CQEs: the consumer sees exactly the CQEs written since its last poll, in order, and
 * never an entry left over from an earlier pass.
 */
static void test_ownership_across_wraps(void **state)
{
	static const uint32_t batches[] = {1, 3, 4, 2, 2, 4, 1, 1, 3, 4, 4, 1, 2};
	uint32_t pi = 0, ci = 0, b, i, total = 0;
	uint16_t produced_seq = 0, next_seq = 0;

	(void)state;
	assert_int_equal(opengda_mlx5_cq_init(cq, LOG_CQ), 0);
	assert_int_equal(consume(&ci, &next_seq), 0);
	for (b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		for (i = 0; i < batches[b]; i++)
			produce(pi++, produced_seq++);
		assert_int_equal(consume(&ci, &next_seq), batches[b]);
		assert_int_equal(ci, pi);
		total += batches[b];
		/* Every entry now holds a consumed CQE of this pass or the previous one: none is owned. */
		for (i = 0; i < NCQE; i++)
			assert_false(opengda_mlx5_cqe_is_sw_owned(opengda_mlx5_cq_entry(cq, LOG_CQ, ci + i),
								  ci + i, LOG_CQ));
	}
	assert_int_equal(total, 32);
	assert_true(total / NCQE >= 4);
	assert_int_equal(next_seq, 32);
}

/* After the first pass, entry 0 still holds its owner-0 CQE; at ci 4 the consumer expects owner 1. */
static void test_stale_entry_refused(void **state)
{
	uint32_t ci = 0, i;
	uint16_t seq = 0;

	(void)state;
	assert_int_equal(opengda_mlx5_cq_init(cq, LOG_CQ), 0);
	for (i = 0; i < NCQE; i++)
		produce(i, (uint16_t)i);
	assert_int_equal(consume(&ci, &seq), NCQE);
	assert_int_equal(cq[0].op_own, 0x00);
	assert_false(opengda_mlx5_cqe_is_sw_owned(&cq[0], 4, LOG_CQ));
	produce(4, 4);
	assert_int_equal(cq[0].op_own, 0x01);
	assert_true(opengda_mlx5_cqe_is_sw_owned(&cq[0], 4, LOG_CQ));
	assert_false(opengda_mlx5_cqe_is_sw_owned(&cq[0], 8, LOG_CQ));
}

/* Field by field: the structure has padding, so memcmp would compare garbage. */
static void expect_fields(const struct opengda_mlx5_cqe_fields *a, const struct opengda_mlx5_cqe_fields *b)
{
	assert_int_equal(a->opcode, b->opcode);
	assert_int_equal(a->wqe_opcode, b->wqe_opcode);
	assert_int_equal(a->se, b->se);
	assert_int_equal(a->syndrome, b->syndrome);
	assert_int_equal(a->vendor_syndrome, b->vendor_syndrome);
	assert_int_equal(a->hw_syndrome, b->hw_syndrome);
	assert_int_equal(a->hw_syndrome_type, b->hw_syndrome_type);
	assert_int_equal(a->wqe_counter, b->wqe_counter);
	assert_int_equal(a->qpn, b->qpn);
	assert_int_equal(a->user_index, b->user_index);
	assert_int_equal(a->byte_cnt, b->byte_cnt);
	assert_int_equal(a->imm, b->imm);
	assert_int_equal(a->timestamp, b->timestamp);
}

static void test_requester_cqe_image(void **state)
{
	static const uint8_t expected[64] = {
		/*  0..31: zero */
		[32] = 0x00, 0x12, 0x34, 0x56, /* srqn_uidx: user index 0x123456 */
		[36] = 0x00, 0x00, 0x00, 0x00, /* imm */
		[40] = 0x00, 0x00, 0x00, 0x00, /* app, app_op, app_info */
		[44] = 0x00, 0x00, 0x10, 0x00, /* byte_cnt */
		[48] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* timestamp */
		[56] = 0x08, 0x00, 0xab, 0xcd, /* WQE opcode RDMA_WRITE | qpn */
		[60] = 0x12, 0x34,             /* wqe_counter */
		[62] = 0x00,                   /* signature */
		[63] = 0x01,                   /* opcode REQ << 4 | owner 1 */
	};
	struct opengda_mlx5_cqe_fields f = {0}, back;
	struct opengda_mlx5_cqe64 cqe;

	(void)state;
	memset(&cqe, 0xee, sizeof(cqe));
	f.opcode = OPENGDA_MLX5_CQE_REQ;
	f.wqe_opcode = OPENGDA_MLX5_OPCODE_RDMA_WRITE;
	f.qpn = QT_QPN;
	f.wqe_counter = 0x1234;
	f.byte_cnt = 0x1000;
	f.user_index = 0x123456;
	f.timestamp = 0x0102030405060708ull;
	f.syndrome = 0x13; /* ignored outside error CQEs */
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 1), 0);
	assert_memory_equal(&cqe, expected, 64);

	assert_int_equal(opengda_mlx5_cqe_opcode(&cqe), OPENGDA_MLX5_CQE_REQ);
	assert_int_equal(opengda_mlx5_cqe_format(&cqe), OPENGDA_MLX5_CQE_FORMAT_NORMAL);
	assert_int_equal(opengda_mlx5_cqe_owner(&cqe), 1);
	assert_int_equal(opengda_mlx5_cqe_se(&cqe), 0);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(&cqe), 0x1234);
	assert_int_equal(opengda_mlx5_cqe_byte_cnt(&cqe), 0x1000);
	assert_int_equal(opengda_mlx5_cqe_qpn(&cqe), QT_QPN);
	assert_int_equal(opengda_mlx5_cqe_wqe_opcode(&cqe), OPENGDA_MLX5_OPCODE_RDMA_WRITE);
	assert_int_equal(opengda_mlx5_cqe_user_index(&cqe), 0x123456);
	assert_int_equal(opengda_mlx5_cqe_timestamp(&cqe), 0x0102030405060708ull);
	assert_false(opengda_mlx5_cqe_is_error(&cqe));

	opengda_mlx5_cqe_read(&cqe, &back);
	f.syndrome = 0;
	expect_fields(&back, &f);
}

static void test_responder_cqe_image(void **state)
{
	static const uint8_t expected[64] = {
		[32] = 0x00, 0x00, 0x00, 0x07, /* user index 7 */
		[36] = 0xde, 0xad, 0xbe, 0xef, /* immediate */
		[44] = 0x00, 0x00, 0x00, 0x40, /* 64 bytes received */
		[56] = 0x00, 0x00, 0xab, 0xcd, /* responder: no WQE opcode */
		[60] = 0x00, 0x05,             /* RQ WQE index 5 */
		[63] = 0x32,                   /* RESP_SEND_IMM << 4 | SE | owner 0 */
	};
	struct opengda_mlx5_cqe_fields f = {0}, back;
	struct opengda_mlx5_cqe64 cqe;

	(void)state;
	f.opcode = OPENGDA_MLX5_CQE_RESP_SEND_IMM;
	f.se = 1;
	f.qpn = QT_QPN;
	f.wqe_counter = 5;
	f.byte_cnt = 64;
	f.imm = 0xdeadbeef;
	f.user_index = 7;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 0), 0);
	assert_memory_equal(&cqe, expected, 64);
	assert_int_equal(opengda_mlx5_cqe_imm(&cqe), 0xdeadbeef);
	assert_int_equal(opengda_mlx5_cqe_se(&cqe), 1);
	opengda_mlx5_cqe_read(&cqe, &back);
	expect_fields(&back, &f);
}

static void test_error_cqe_image(void **state)
{
	static const uint8_t expected[64] = {
		[32] = 0x00, 0x00, 0x00, 0x09, /* srqn / user index */
		/* 36..51: zero (imm, byte_cnt and time stamp are not reported) */
		[52] = 0x11,                   /* hw_err_synd */
		[53] = 0x22,                   /* hw_synd_type */
		[54] = 0x88,                   /* vendor_err_synd */
		[55] = 0x13,                   /* syndrome REMOTE_ACCESS */
		[56] = 0x10, 0x00, 0xab, 0xcd, /* failed WQE: RDMA_READ | qpn */
		[60] = 0x00, 0x42,
		[63] = 0xd0,                   /* REQ_ERR << 4 | owner 0 */
	};
	struct opengda_mlx5_cqe_fields f = {0}, back;
	struct opengda_mlx5_cqe64 cqe;
	struct opengda_mlx5_err_cqe view;

	(void)state;
	memset(&cqe, 0xee, sizeof(cqe));
	f.opcode = OPENGDA_MLX5_CQE_REQ_ERR;
	f.wqe_opcode = OPENGDA_MLX5_OPCODE_RDMA_READ;
	f.qpn = QT_QPN;
	f.wqe_counter = 0x42;
	f.user_index = 9;
	f.syndrome = OPENGDA_MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	f.vendor_syndrome = 0x88;
	f.hw_syndrome = 0x11;
	f.hw_syndrome_type = 0x22;
	f.byte_cnt = 0x999; /* not part of an error CQE */
	f.imm = 0x999;
	f.timestamp = 0x999;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 0), 0);
	assert_memory_equal(&cqe, expected, 64);

	assert_true(opengda_mlx5_cqe_is_error(&cqe));
	assert_int_equal(opengda_mlx5_cqe_syndrome(&cqe), 0x13);
	assert_int_equal(opengda_mlx5_cqe_vendor_syndrome(&cqe), 0x88);
	assert_int_equal(opengda_mlx5_cqe_hw_syndrome(&cqe), 0x11);
	assert_int_equal(opengda_mlx5_cqe_hw_syndrome_type(&cqe), 0x22);
	assert_int_equal(opengda_mlx5_cqe_wqe_opcode(&cqe), OPENGDA_MLX5_OPCODE_RDMA_READ);
	assert_int_equal(opengda_mlx5_cqe_qpn(&cqe), QT_QPN);
	assert_int_equal(opengda_mlx5_cqe_wqe_counter(&cqe), 0x42);

	/* The error view struct reads the same bytes. */
	memcpy(&view, &cqe, sizeof(view));
	assert_int_equal(view.syndrome, 0x13);
	assert_int_equal(view.vendor_err_synd, 0x88);
	assert_int_equal(view.hw_err_synd, 0x11);
	assert_int_equal(view.hw_synd_type, 0x22);
	assert_int_equal(opengda_mlx5_be32toh(view.s_wqe_opcode_qpn), 0x1000abcdu);
	assert_int_equal(opengda_mlx5_be32toh(view.srqn), 9);
	assert_int_equal(opengda_mlx5_be16toh(view.wqe_counter), 0x42);
	assert_int_equal(view.op_own, 0xd0);

	opengda_mlx5_cqe_read(&cqe, &back);
	f.byte_cnt = 0;
	f.imm = 0;
	f.timestamp = 0;
	expect_fields(&back, &f);

	/* The flush error that follows the first error on a QP. */
	f.opcode = OPENGDA_MLX5_CQE_REQ_ERR;
	f.syndrome = OPENGDA_MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 1), 0);
	assert_int_equal(((const uint8_t *)&cqe)[55], 0x05);
	assert_int_equal(((const uint8_t *)&cqe)[63], 0xd1);
}

static void test_cqe_write_rejects(void **state)
{
	struct opengda_mlx5_cqe_fields f = {0};
	struct opengda_mlx5_cqe64 cqe, before;

	(void)state;
	memset(&cqe, 0xee, sizeof(cqe));
	before = cqe;
	f.opcode = OPENGDA_MLX5_CQE_INVALID;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 0), OPENGDA_MLX5_EINVAL);
	f.opcode = OPENGDA_MLX5_CQE_REQ;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 2), OPENGDA_MLX5_EINVAL);
	f.qpn = 0x1000000;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 0), OPENGDA_MLX5_EINVAL);
	f.qpn = 0;
	f.user_index = 0x1000000;
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, &f, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_cqe_write(NULL, &f, 0), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_cqe_write(&cqe, NULL, 0), OPENGDA_MLX5_EINVAL);
	assert_memory_equal(&cqe, &before, sizeof(cqe));

	assert_int_equal(opengda_mlx5_cq_init(NULL, 2), OPENGDA_MLX5_EINVAL);
	assert_int_equal(opengda_mlx5_cq_init(cq, 25), OPENGDA_MLX5_EINVAL);
	assert_null(opengda_mlx5_cq_entry(NULL, 2, 0));
	assert_null(opengda_mlx5_cq_entry(cq, 25, 0));
}

/* Completion coalescing: one CQE retires its WQE and every earlier one, across the 16-bit wrap. */
static void test_wqe_index_retired(void **state)
{
	(void)state;
	assert_true(opengda_mlx5_wqe_index_retired(0x0001, 0xfffe, 0xfffe));
	assert_true(opengda_mlx5_wqe_index_retired(0x0001, 0xffff, 0xfffe));
	assert_true(opengda_mlx5_wqe_index_retired(0x0001, 0x0000, 0xfffe));
	assert_true(opengda_mlx5_wqe_index_retired(0x0001, 0x0001, 0xfffe));
	assert_false(opengda_mlx5_wqe_index_retired(0x0001, 0x0002, 0xfffe));
	assert_false(opengda_mlx5_wqe_index_retired(0xffff, 0x0000, 0xfffe));
	assert_int_equal(opengda_mlx5_wqe_counter_distance(0xfff0, 0x0010), 0x20);
	assert_int_equal(opengda_mlx5_wqe_counter_distance(5, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cq_init_not_owned),
		cmocka_unit_test(test_owner_bits),
		cmocka_unit_test(test_ownership_across_wraps),
		cmocka_unit_test(test_stale_entry_refused),
		cmocka_unit_test(test_requester_cqe_image),
		cmocka_unit_test(test_responder_cqe_image),
		cmocka_unit_test(test_error_cqe_image),
		cmocka_unit_test(test_cqe_write_rejects),
		cmocka_unit_test(test_wqe_index_retired),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
