/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Address handles. The software NIC executes no UD QP, so an AH carries no traffic; it
 * exists for what programs use it for on RoCE besides UD: resolving a GID's next hop (the
 * destination MAC in the mlx5 address vector that mlx5dv_init_obj(MLX5DV_OBJ_AH) shows,
 * which is how our own ConnectX path finds a QP's rmac). The MAC is the software NIC's
 * (devx resolve_rmac: derived from the GID's endpoint).
 */
#include "rdmacore_front/front.h"

#include "core/log.h"
#include "verbs/verbs_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define AV_GRH (1u << 30)  /* grh_gid_fl: a GRH follows */

FRONT_EXPORT struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct doca_verbs_context *dctx;
	struct front_ah *ah;
	doca_error_t err;

	if (pd == NULL || attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (!attr->is_global) {
		OGDA_LOG_ERR("%s: ibv_create_ah: the port is RoCE: the AH needs a GRH (is_global = 1)",
			     pd->context->device->name);
		errno = EINVAL;
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (ah == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dctx = front_ctx(pd->context)->dctx;
	err = dctx->devx->ops->resolve_rmac(dctx->devx, 1, attr->grh.sgid_index, attr->grh.dgid.raw, ah->av.rmac);
	if (err != DOCA_SUCCESS) {
		free(ah);
		errno = err == DOCA_ERROR_NOT_FOUND ? EHOSTUNREACH : front_errno(err);
		return NULL;
	}
	ah->attr = *attr;
	ah->av.stat_rate_sl = (uint8_t)(attr->sl & 0xf);
	ah->av.tclass = attr->grh.traffic_class;
	ah->av.hop_limit = attr->grh.hop_limit;
	ah->av.grh_gid_fl = htobe32(AV_GRH | ((uint32_t)attr->grh.sgid_index << 20) | (attr->grh.flow_label & 0xfffff));
	memcpy(ah->av.rgid, attr->grh.dgid.raw, sizeof(ah->av.rgid));
	ah->ibv.context = pd->context;
	ah->ibv.pd = pd;
	front_track(pd->context, &ah->link, FRONT_AH, &ah->ibv);
	return &ah->ibv;
}

FRONT_EXPORT int ibv_destroy_ah(struct ibv_ah *ah)
{
	if (ah == NULL)
		return front_fail(EINVAL);
	front_untrack(ah->context, &((struct front_ah *)ah)->link);
	free(ah);
	return 0;
}

int front_ah_init_obj(struct ibv_ah *in, struct mlx5dv_ah *out)
{
	memset(out, 0, sizeof(*out));
	out->av = &((struct front_ah *)in)->av;
	return 0;
}
