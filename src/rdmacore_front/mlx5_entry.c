/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The front end's libmlx5.so.1: rdma-core's mlx5dv_* entry points (MLX5_1.x versions, see
 * libmlx5.map), each forwarded to its implementation in the front end's libibverbs.so.1
 * (front_dv.h says why it lives there). Calls for features the software NIC does not model
 * (DC and other mlx5dv_create_qp extensions, mkeys, crypto) fail with EOPNOTSUPP.
 */
#include "rdmacore_front/front_dv.h"

#include <errno.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT bool mlx5dv_is_supported(struct ibv_device *device)
{
	return ogda_front_mlx5dv_is_supported(device);
}

EXPORT struct ibv_context *mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	return ogda_front_mlx5dv_open_device(device, attr);
}

EXPORT int mlx5dv_query_device(struct ibv_context *context, struct mlx5dv_context *attrs)
{
	return ogda_front_mlx5dv_query_device(context, attrs);
}

EXPORT int mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	return ogda_front_mlx5dv_init_obj(obj, obj_type);
}

EXPORT int mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in, size_t inlen, void *out,
				   size_t outlen)
{
	return ogda_front_mlx5dv_devx_general_cmd(context, in, inlen, out, outlen);
}

EXPORT struct mlx5dv_devx_obj *mlx5dv_devx_obj_create(struct ibv_context *context, const void *in, size_t inlen,
						      void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_obj_create(context, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_obj_modify(obj, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_obj_query(obj, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	return ogda_front_mlx5dv_devx_obj_destroy(obj);
}

EXPORT struct mlx5dv_devx_umem *mlx5dv_devx_umem_reg(struct ibv_context *context, void *addr, size_t size,
						     uint32_t access)
{
	struct mlx5dv_devx_umem_in in = {.addr = addr, .size = size, .access = access, .dmabuf_fd = -1};

	return ogda_front_mlx5dv_devx_umem_reg_ex(context, &in);
}

EXPORT struct mlx5dv_devx_umem *mlx5dv_devx_umem_reg_ex(struct ibv_context *context, struct mlx5dv_devx_umem_in *in)
{
	return ogda_front_mlx5dv_devx_umem_reg_ex(context, in);
}

EXPORT int mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	return ogda_front_mlx5dv_devx_umem_dereg(umem);
}

EXPORT struct mlx5dv_devx_uar *mlx5dv_devx_alloc_uar(struct ibv_context *context, uint32_t flags)
{
	return ogda_front_mlx5dv_devx_alloc_uar(context, flags);
}

EXPORT void mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	ogda_front_mlx5dv_devx_free_uar(uar);
}

EXPORT int mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn)
{
	return ogda_front_mlx5dv_devx_query_eqn(context, vector, eqn);
}

EXPORT struct mlx5dv_devx_event_channel *
mlx5dv_devx_create_event_channel(struct ibv_context *context, enum mlx5dv_devx_create_event_channel_flags flags)
{
	return ogda_front_mlx5dv_devx_create_event_channel(context, (int)flags);
}

EXPORT void mlx5dv_devx_destroy_event_channel(struct mlx5dv_devx_event_channel *channel)
{
	ogda_front_mlx5dv_devx_destroy_event_channel(channel);
}

EXPORT int mlx5dv_devx_subscribe_devx_event(struct mlx5dv_devx_event_channel *channel, struct mlx5dv_devx_obj *obj,
					    uint16_t events_sz, uint16_t events_num[], uint64_t cookie)
{
	return ogda_front_mlx5dv_devx_subscribe_devx_event(channel, obj, events_sz, events_num, cookie);
}

EXPORT ssize_t mlx5dv_devx_get_event(struct mlx5dv_devx_event_channel *channel,
				     struct mlx5dv_devx_async_event_hdr *event_data, size_t event_resp_len)
{
	return ogda_front_mlx5dv_devx_get_event(channel, event_data, event_resp_len);
}

EXPORT int mlx5dv_devx_qp_query(struct ibv_qp *qp, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_qp_cmd(qp, true, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_qp_cmd(qp, false, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_cq_query(struct ibv_cq *cq, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_cq_cmd(cq, true, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_cq_cmd(cq, false, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_srq_query(struct ibv_srq *srq, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_srq_cmd(srq, true, in, inlen, out, outlen);
}

EXPORT int mlx5dv_devx_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen, void *out, size_t outlen)
{
	return ogda_front_mlx5dv_devx_srq_cmd(srq, false, in, inlen, out, outlen);
}

/* ---- not modelled ---- */

EXPORT struct ibv_qp *mlx5dv_create_qp(struct ibv_context *context, struct ibv_qp_init_attr_ex *qp_attr,
				       struct mlx5dv_qp_init_attr *mlx5_qp_attr)
{
	(void)context;
	(void)qp_attr;
	(void)mlx5_qp_attr;
	ogda_front_mlx5dv_unsupported("mlx5dv_create_qp (DC, scatter-to-CQE and other mlx5 QP extensions)");
	return NULL;
}

EXPORT struct mlx5dv_qp_ex *mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp)
{
	(void)qp;
	ogda_front_mlx5dv_unsupported("mlx5dv_qp_ex_from_ibv_qp_ex");
	return NULL;
}

EXPORT struct mlx5dv_mkey *mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *mkey_init_attr)
{
	(void)mkey_init_attr;
	ogda_front_mlx5dv_unsupported("mlx5dv_create_mkey");
	return NULL;
}

EXPORT int mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey)
{
	(void)mkey;
	ogda_front_mlx5dv_unsupported("mlx5dv_destroy_mkey");
	return EOPNOTSUPP;
}

EXPORT int mlx5dv_crypto_login(struct ibv_context *context, struct mlx5dv_crypto_login_attr *login_attr)
{
	(void)context;
	(void)login_attr;
	ogda_front_mlx5dv_unsupported("mlx5dv_crypto_login");
	return EOPNOTSUPP;
}

EXPORT struct mlx5dv_dek *mlx5dv_dek_create(struct ibv_context *context, struct mlx5dv_dek_init_attr *init_attr)
{
	(void)context;
	(void)init_attr;
	ogda_front_mlx5dv_unsupported("mlx5dv_dek_create");
	return NULL;
}

EXPORT int mlx5dv_dek_destroy(struct mlx5dv_dek *dek)
{
	(void)dek;
	ogda_front_mlx5dv_unsupported("mlx5dv_dek_destroy");
	return EOPNOTSUPP;
}
