/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU data path of DOCA Ethernet queues in the tests (eth_cpu_util.h). */
#include "eth_cpu_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

static void tx_done(struct doca_eth_txq_task_send *task, union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct ecpu_tx *t = ctx_user_data.ptr;
	struct doca_task *dt = doca_eth_txq_task_send_as_doca_task(task);

	(void)task_user_data;
	t->last_status = doca_task_get_status(dt);
	if (t->last_status == DOCA_SUCCESS)
		t->ok++;
	else
		t->failed++;
	if (t->free_in_cb)
		doca_task_free(dt);
}

void ecpu_tx_start(struct doca_dev *dev, uint32_t burst, uint32_t tasks, bool l3, bool l4, struct ecpu_tx *t)
{
	struct doca_ctx *ctx;

	memset(t, 0, sizeof(*t));
	t->free_in_cb = true;
	assert_int_equal(doca_pe_create(&t->pe), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_create(dev, burst, &t->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_set_type(t->q, DOCA_ETH_TXQ_TYPE_REGULAR), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_set_l3_chksum_offload(t->q, l3 ? 1 : 0), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_set_l4_chksum_offload(t->q, l4 ? 1 : 0), DOCA_SUCCESS);
	assert_int_equal(doca_eth_txq_task_send_set_conf(t->q, tx_done, tx_done, tasks), DOCA_SUCCESS);
	ctx = doca_eth_txq_as_doca_ctx(t->q);
	assert_int_equal(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = t}), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(t->pe, ctx), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
}

void ecpu_start_refused(struct doca_ctx *ctx, doca_error_t want, const char *needle)
{
	char log[4096];

	stderr_capture_begin();
	assert_int_equal(doca_ctx_start(ctx), want);
	assert_non_null(strstr(stderr_capture_end(log, sizeof(log)), needle));
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_IDLE);
}

enum doca_ctx_states ecpu_state(struct doca_ctx *ctx)
{
	enum doca_ctx_states s;

	assert_int_equal(doca_ctx_get_state(ctx, &s), DOCA_SUCCESS);
	return s;
}

/* Stops @ctx unless it is stopped already, letting its engine drain it (bounded: 5 s). */
static void stop_drained(struct doca_pe *pe, struct doca_ctx *ctx)
{
	doca_error_t err = DOCA_SUCCESS;
	int i;

	if (ecpu_state(ctx) == DOCA_CTX_STATE_RUNNING)
		err = doca_ctx_stop(ctx);
	assert_true(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	for (i = 0; i < 5000 && ecpu_state(ctx) != DOCA_CTX_STATE_IDLE; i++) {
		(void)doca_pe_progress(pe);
		usleep(1000);
	}
	assert_int_equal(ecpu_state(ctx), DOCA_CTX_STATE_IDLE);
}

void ecpu_tx_destroy(struct ecpu_tx *t)
{
	stop_drained(t->pe, doca_eth_txq_as_doca_ctx(t->q));
	assert_int_equal(doca_eth_txq_destroy(t->q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(t->pe), DOCA_SUCCESS);
}

/* A started mmap of [buf, + len) on @dev for local read and write (the NIC writes frames there). */
static struct doca_mmap *host_mmap(struct doca_dev *dev, uint8_t *buf, size_t len)
{
	struct doca_mmap *m = NULL;

	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(m, buf, len), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	return m;
}

/* Copies the first @cap bytes of @pkt's data to @out; its data_len. */
static size_t record(struct doca_buf *pkt, uint8_t *out, size_t cap)
{
	void *data = NULL;
	size_t len = 0;

	assert_int_equal(doca_buf_get_data(pkt, &data), DOCA_SUCCESS);
	assert_int_equal(doca_buf_get_data_len(pkt, &len), DOCA_SUCCESS);
	memcpy(out, data, len < cap ? len : cap);
	return len;
}

static void rx_got(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data user_data)
{
	struct ecpu_rx *r = user_data.ptr;
	uint32_t i = r->n;

	assert_int_equal(doca_eth_rxq_event_managed_recv_get_status(ev), DOCA_SUCCESS);
	assert_non_null(pkt);
	assert_true(i < ECPU_MAX_PKTS);
	r->len[i] = record(pkt, r->data[i], sizeof(r->data[i]));
	assert_int_equal(doca_eth_rxq_event_managed_recv_get_flow_tag(ev, &r->flow_tag[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_event_managed_recv_get_rx_hash(ev, &r->rx_hash[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_event_managed_recv_get_timestamp(ev, &r->ts[i]), DOCA_SUCCESS);
	r->pkt[i] = r->keep ? pkt : NULL;
	r->n++;
	if (!r->keep)
		assert_int_equal(doca_buf_dec_refcount(pkt, NULL), DOCA_SUCCESS);
}

static void rx_err(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data user_data)
{
	struct ecpu_rx *r = user_data.ptr;

	r->err_status = doca_eth_rxq_event_managed_recv_get_status(ev);
	r->err_pkt_null = pkt == NULL;
	r->errors++;
}

void ecpu_rx_start(struct doca_dev *dev, uint8_t *buf, size_t size, uint32_t burst, uint32_t pkt_size, uint16_t queue_id,
		   struct ecpu_rx *r)
{
	struct doca_ctx *ctx;
	uint32_t need = 0;

	memset(r, 0, sizeof(*r));
	assert_int_equal(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, 0, 0, pkt_size, burst, 0,
							       0, 0, &need),
			 DOCA_SUCCESS);
	assert_true(need <= size);
	r->m = host_mmap(dev, buf, need);
	assert_int_equal(doca_pe_create(&r->pe), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_create(dev, burst, pkt_size, &r->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(r->q, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_pkt_buf(r->q, r->m, 0, need), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_event_managed_recv_register(r->q, (union doca_data){.ptr = r}, rx_got, rx_err),
			 DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(r->q, queue_id), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(r->q);
	assert_int_equal(doca_pe_connect_ctx(r->pe, ctx), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
}

void ecpu_rx_destroy(struct ecpu_rx *r)
{
	stop_drained(r->pe, doca_eth_rxq_as_doca_ctx(r->q));
	assert_int_equal(doca_eth_rxq_destroy(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(r->pe), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
}

uint32_t ecpu_progress_until(struct doca_pe *pe, const uint32_t *counter, uint32_t want, unsigned ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		(void)doca_pe_progress(pe);
		if (*counter >= want)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= (long)ms)
			break;
		usleep(200);
	}
	return *counter;
}

/* The completion callback of a REGULAR queue's tasks (success and error alike). */
static void reg_done(struct doca_eth_rxq_task_recv *task, union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct ecpu_reg *r = ctx_user_data.ptr;
	struct doca_task *dt = doca_eth_rxq_task_recv_as_doca_task(task);
	uint32_t i = r->n, k = (uint32_t)task_user_data.u64;
	struct doca_buf *pkt = NULL;

	assert_true(i < ECPU_MAX_PKTS && k < r->ntasks);
	assert_ptr_equal(r->task[k], task);
	r->in_flight[k] = false;
	r->order[i] = k;
	r->status[i] = doca_task_get_status(dt);
	assert_int_equal(doca_eth_rxq_task_recv_get_pkt(task, &pkt), DOCA_SUCCESS);
	assert_ptr_equal(pkt, r->buf[k]);
	r->len[i] = record(pkt, r->data[i], sizeof(r->data[i]));
	assert_int_equal(doca_eth_rxq_task_recv_get_flow_tag(task, &r->flow_tag[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_get_rx_hash(task, &r->rx_hash[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_get_l3_ok(task, &r->l3_ok[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_get_l4_ok(task, &r->l4_ok[i]), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_get_timestamp(task, &r->ts[i]), DOCA_SUCCESS);
	if (r->status[i] == DOCA_SUCCESS)
		r->ok++;
	else
		r->failed++;
	r->n++;
	if (r->free_in_cb) {
		doca_task_free(dt);
		r->task[k] = NULL;
	}
}

void ecpu_reg_start(struct doca_dev *dev, uint8_t *buf, size_t size, uint32_t burst, uint32_t pkt_size,
		    uint32_t ntasks, uint32_t buf_size, uint16_t queue_id, struct ecpu_reg *r)
{
	struct doca_ctx *ctx;

	memset(r, 0, sizeof(*r));
	assert_true(ntasks <= ECPU_REG_TASKS && (size_t)ntasks * buf_size <= size);
	r->ntasks = ntasks;
	r->m = host_mmap(dev, buf, size);
	assert_int_equal(doca_buf_inventory_create(ECPU_REG_TASKS, &r->inv), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_start(r->inv), DOCA_SUCCESS);
	assert_int_equal(doca_pe_create(&r->pe), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_create(dev, burst, pkt_size, &r->q), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_set_type(r->q, DOCA_ETH_RXQ_TYPE_REGULAR), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_task_recv_set_conf(r->q, reg_done, reg_done, ntasks), DOCA_SUCCESS);
	assert_int_equal(doca_eth_rxq_apply_queue_id(r->q, queue_id), DOCA_SUCCESS);
	ctx = doca_eth_rxq_as_doca_ctx(r->q);
	assert_int_equal(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = r}), DOCA_SUCCESS);
	assert_int_equal(doca_pe_connect_ctx(r->pe, ctx), DOCA_SUCCESS);
	assert_int_equal(doca_ctx_start(ctx), DOCA_SUCCESS);
	for (uint32_t i = 0; i < ntasks; i++) {
		assert_int_equal(doca_buf_inventory_buf_get_by_addr(r->inv, r->m, buf + (size_t)i * buf_size, buf_size,
								    &r->buf[i]),
				 DOCA_SUCCESS);
		assert_int_equal(doca_eth_rxq_task_recv_allocate_init(r->q, r->buf[i], (union doca_data){.u64 = i},
								      &r->task[i]),
				 DOCA_SUCCESS);
	}
}

doca_error_t ecpu_reg_submit(struct ecpu_reg *r, uint32_t i)
{
	doca_error_t err;

	assert_true(i < r->ntasks && r->task[i] != NULL);
	err = doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(r->task[i]));
	if (err == DOCA_SUCCESS)
		r->in_flight[i] = true;
	return err;
}

void ecpu_reg_destroy(struct ecpu_reg *r)
{
	struct doca_ctx *ctx = doca_eth_rxq_as_doca_ctx(r->q);

	/* The stop flushes what is in flight (the callbacks free those); the others are freed here. */
	r->free_in_cb = true;
	if (ecpu_state(ctx) == DOCA_CTX_STATE_RUNNING) {
		doca_error_t err = doca_ctx_stop(ctx);

		assert_true(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	}
	for (uint32_t i = 0; i < r->ntasks; i++) {
		if (r->task[i] != NULL && !r->in_flight[i]) {
			doca_task_free(doca_eth_rxq_task_recv_as_doca_task(r->task[i]));
			r->task[i] = NULL;
		}
	}
	stop_drained(r->pe, ctx);
	assert_int_equal(doca_eth_rxq_destroy(r->q), DOCA_SUCCESS);
	assert_int_equal(doca_pe_destroy(r->pe), DOCA_SUCCESS);
	for (uint32_t i = 0; i < r->ntasks; i++)
		assert_int_equal(doca_buf_dec_refcount(r->buf[i], NULL), DOCA_SUCCESS);
	assert_int_equal(doca_buf_inventory_destroy(r->inv), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_stop(r->m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_destroy(r->m), DOCA_SUCCESS);
}
