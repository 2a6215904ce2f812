/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mlx5dv_devx_{qp,cq,srq}_{query,modify}: PRM query / modify commands on objects made through
 * ibv_* calls, as programs use them to read or adjust what verbs created (a QP's context, a
 * CQ's moderation). The bytes go to the software NIC device's command ops for that object,
 * which refuse a command naming another object (EINVAL). A modify issued this way is the
 * program's own: the verbs view of the object (ibv_query_qp reads the device) follows it, the
 * front end's cached attributes do not.
 */
#include "rdmacore_front/front.h"
#include "rdmacore_front/front_dv.h"

#include "verbs/verbs_priv.h"

#include <errno.h>

static int obj_cmd(struct ibv_context *context, struct ogda_devx_obj *obj, bool query, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct ogda_devx *dev = front_ctx(context)->dctx->devx;
	doca_error_t err;

	if (in == NULL || out == NULL)
		return front_fail(EINVAL);
	err = query ? dev->ops->obj_query(obj, in, inlen, out, outlen) : dev->ops->obj_modify(obj, in, inlen, out, outlen);
	return front_fail(front_devx_errno(err, out, outlen));
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_qp_cmd(struct ibv_qp *qp, bool query, const void *in, size_t inlen, void *out,
					       size_t outlen)
{
	if (qp == NULL)
		return front_fail(EINVAL);
	return obj_cmd(qp->context, ((struct front_qp *)qp)->dqp->obj, query, in, inlen, out, outlen);
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_cq_cmd(struct ibv_cq *cq, bool query, const void *in, size_t inlen, void *out,
					       size_t outlen)
{
	if (cq == NULL)
		return front_fail(EINVAL);
	return obj_cmd(cq->context, ((struct front_cq *)cq)->dcq->obj, query, in, inlen, out, outlen);
}

FRONT_EXPORT int ogda_front_mlx5dv_devx_srq_cmd(struct ibv_srq *srq, bool query, const void *in, size_t inlen,
						void *out, size_t outlen)
{
	if (srq == NULL)
		return front_fail(EINVAL);
	return obj_cmd(srq->context, ((struct front_srq *)srq)->dsrq->obj, query, in, inlen, out, outlen);
}
