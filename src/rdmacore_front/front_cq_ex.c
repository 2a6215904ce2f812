/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibv_create_cq_ex and the extended polling API: ibv_start_poll takes the CQ's poll lock and
 * the first completion, ibv_next_poll the next, ibv_end_poll releases the lock; between them
 * the read_* ops report the current completion. It is the same CQ and CQE path as ibv_poll_cq
 * (which works on the CQ too, through ibv_cq_ex_to_cq). The work-completion fields offered are
 * rdma-core's standard ones (IBV_WC_STANDARD_FLAGS); timestamps, VLAN, flow tags and tag
 * matching are not modelled (EOPNOTSUPP at creation), nor parent domains or ignoring overrun.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"

#include <errno.h>
#include <string.h>

static struct front_cq *fcq(struct ibv_cq_ex *c)
{
	return (struct front_cq *)c;
}

/* One completion into cur; ENOENT when none, and the status / wr_id fields the API exposes. */
static int take_one(struct front_cq *cq)
{
	int n = front_poll_cq_locked(cq, 1, &cq->cur);

	if (n < 0)
		return -n;
	if (n == 0)
		return ENOENT;
	cq->ibvx.status = cq->cur.status;
	cq->ibvx.wr_id = cq->cur.wr_id;
	return 0;
}

static int start_poll(struct ibv_cq_ex *c, struct ibv_poll_cq_attr *attr)
{
	struct front_cq *cq = fcq(c);
	int ret;

	if (attr != NULL && attr->comp_mask != 0)
		return EINVAL;
	pthread_mutex_lock(&cq->poll_lock);
	ret = take_one(cq);
	if (ret != 0) /* no poll in progress: end_poll is not called after a failed start */
		pthread_mutex_unlock(&cq->poll_lock);
	return ret;
}

static int next_poll(struct ibv_cq_ex *c)
{
	return take_one(fcq(c));
}

static void end_poll(struct ibv_cq_ex *c)
{
	pthread_mutex_unlock(&fcq(c)->poll_lock);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.opcode;
}

static uint32_t read_vendor_err(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.vendor_err;
}

static uint32_t read_byte_len(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.byte_len;
}

static __be32 read_imm_data(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.imm_data;
}

static uint32_t read_qp_num(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.qp_num;
}

static uint32_t read_src_qp(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.src_qp;
}

static unsigned int read_wc_flags(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.wc_flags;
}

/* RoCE: no LID, SL or path bits in a completion (0, as libmlx5 reports them on Ethernet). */
static uint32_t read_slid(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.slid;
}

static uint8_t read_sl(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.sl;
}

static uint8_t read_dlid_path_bits(struct ibv_cq_ex *c)
{
	return fcq(c)->cur.dlid_path_bits;
}

#define SUPPORTED_WC_FLAGS ((uint64_t)IBV_WC_STANDARD_FLAGS)

struct ibv_cq_ex *front_create_cq_ex_op(struct ibv_context *context, struct ibv_cq_init_attr_ex *attr)
{
	struct ibv_cq *ibv;
	struct ibv_cq_ex *c;

	if (context == NULL || attr == NULL || attr->cqe == 0 || attr->cqe > INT32_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if ((attr->wc_flags & ~SUPPORTED_WC_FLAGS) != 0 || (attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS) != 0 ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) != 0 &&
	     (attr->flags & ~(uint32_t)IBV_CREATE_CQ_ATTR_SINGLE_THREADED) != 0)) {
		OGDA_LOG_ERR("%s: ibv_create_cq_ex: wc_flags 0x%llx / comp_mask 0x%x / flags 0x%x: timestamps, VLAN, flow "
			     "tags, tag matching, parent domains and ignoring overrun are not supported by the software NIC",
			     context->device->name, (unsigned long long)attr->wc_flags, attr->comp_mask, attr->flags);
		errno = EOPNOTSUPP;
		return NULL;
	}
	ibv = ibv_create_cq(context, (int)attr->cqe, attr->cq_context, attr->channel, (int)attr->comp_vector);
	if (ibv == NULL)
		return NULL;
	c = &((struct front_cq *)ibv)->ibvx;
	c->start_poll = start_poll;
	c->next_poll = next_poll;
	c->end_poll = end_poll;
	c->read_opcode = read_opcode;
	c->read_vendor_err = read_vendor_err;
	c->read_byte_len = read_byte_len;
	c->read_imm_data = read_imm_data;
	c->read_qp_num = read_qp_num;
	c->read_src_qp = read_src_qp;
	c->read_wc_flags = read_wc_flags;
	c->read_slid = read_slid;
	c->read_sl = read_sl;
	c->read_dlid_path_bits = read_dlid_path_bits;
	return c;
}
