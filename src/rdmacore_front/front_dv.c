/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mlx5dv device calls: support check, opening with DevX, the device query, and
 * mlx5dv_init_obj, which hands out the real rings, doorbell records and BlueFlame registers
 * of objects made through ibv_* calls (the memory the software NIC reads and writes), so a
 * program may write WQEs and read CQEs itself, as it would on a ConnectX.
 */
#include "rdmacore_front/front.h"
#include "rdmacore_front/front_dv.h"

#include "core/log.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <string.h>

#define KNOWN_CONTEXT_FLAGS (MLX5DV_CONTEXT_FLAGS_DEVX)

FRONT_EXPORT void ogda_front_mlx5dv_unsupported(const char *what)
{
	OGDA_LOG_ERR("%s is not supported by the software NIC front end", what);
	errno = EOPNOTSUPP;
}

/* The front end's devices are its own: ibv_open_device refuses any other pointer. */
FRONT_EXPORT bool ogda_front_mlx5dv_is_supported(struct ibv_device *device)
{
	return device != NULL && strncmp(device->name, FRONT_DEV_PREFIX, strlen(FRONT_DEV_PREFIX)) == 0;
}

FRONT_EXPORT struct ibv_context *ogda_front_mlx5dv_open_device(struct ibv_device *device,
							       struct mlx5dv_context_attr *attr)
{
	if (attr != NULL && ((attr->flags & ~(uint32_t)KNOWN_CONTEXT_FLAGS) != 0 || attr->comp_mask != 0)) {
		OGDA_LOG_ERR("mlx5dv_open_device: flags 0x%x / comp_mask 0x%llx: only MLX5DV_CONTEXT_FLAGS_DEVX is "
			     "supported by the software NIC front end",
			     attr->flags, (unsigned long long)attr->comp_mask);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return ibv_open_device(device); /* every context of the front end has DevX */
}

/*
 * What a ConnectX-6 Dx context reports that applies here: CQE format version 1. Extended
 * capabilities (compression, striding RQ, ...) are not modelled: their comp_mask bits are
 * cleared, which tells the caller so.
 */
FRONT_EXPORT int ogda_front_mlx5dv_query_device(struct ibv_context *context, struct mlx5dv_context *attrs)
{
	if (context == NULL || attrs == NULL)
		return front_fail(EINVAL);
	attrs->version = 0;
	attrs->flags = MLX5DV_CONTEXT_FLAGS_CQE_V1;
	attrs->comp_mask = 0;
	return 0;
}

static int init_qp(struct ibv_qp *in, struct mlx5dv_qp *out)
{
	const struct doca_verbs_qp *q = ((struct front_qp *)in)->dqp;

	memset(out, 0, sizeof(*out));
	out->dbrec = (__be32 *)q->dbr;
	out->sq.buf = q->sq;
	out->sq.wqe_cnt = q->sq_wqebbs;
	out->sq.stride = 64;
	out->rq.buf = q->rq;
	out->rq.wqe_cnt = q->rq_wqes;
	out->rq.stride = q->rq_stride;
	out->bf.reg = q->uar->info.reg_addr;
	out->bf.size = q->uar->info.bf_reg_size / 2; /* one half; the halves alternate */
	return 0;
}

static int init_cq(struct ibv_cq *in, struct mlx5dv_cq *out)
{
	const struct doca_verbs_cq *c = ((struct front_cq *)in)->dcq;

	memset(out, 0, sizeof(*out));
	out->buf = c->ring;
	out->dbrec = (__be32 *)c->dbr;
	out->cqe_cnt = c->ncqe;
	out->cqe_size = c->cqe_size;
	out->cq_uar = c->uar->info.base_addr;
	out->cqn = c->cqn;
	return 0;
}

FRONT_EXPORT int ogda_front_mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	uint64_t known = MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ | MLX5DV_OBJ_PD | MLX5DV_OBJ_AH;
	int ret = 0;

	if (obj == NULL)
		return EINVAL;
	if ((obj_type & ~known) != 0) {
		OGDA_LOG_ERR("mlx5dv_init_obj: object types 0x%llx (SRQ, RWQ, DM) are not made by the software NIC "
			     "front end",
			     (unsigned long long)(obj_type & ~known));
		return EOPNOTSUPP;
	}
	if ((obj_type & MLX5DV_OBJ_QP) != 0)
		ret = obj->qp.in == NULL || obj->qp.out == NULL ? EINVAL : init_qp(obj->qp.in, obj->qp.out);
	if (ret == 0 && (obj_type & MLX5DV_OBJ_CQ) != 0)
		ret = obj->cq.in == NULL || obj->cq.out == NULL ? EINVAL : init_cq(obj->cq.in, obj->cq.out);
	if (ret == 0 && (obj_type & MLX5DV_OBJ_PD) != 0) {
		if (obj->pd.in == NULL || obj->pd.out == NULL)
			return EINVAL;
		memset(obj->pd.out, 0, sizeof(*obj->pd.out));
		obj->pd.out->pdn = ((struct front_pd *)obj->pd.in)->dpd->pdn;
	}
	if (ret == 0 && (obj_type & MLX5DV_OBJ_AH) != 0)
		ret = obj->ah.in == NULL || obj->ah.out == NULL ? EINVAL : front_ah_init_obj(obj->ah.in, obj->ah.out);
	return ret;
}
