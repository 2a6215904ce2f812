/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mlx5dv surface of the front end. Its code lives in the front end's libibverbs.so.1,
 * next to the objects it reads (an ibv_qp's rings, a context's software NIC), and is exported
 * there under the private version OPENGDA_FRONT_PRIVATE_1 with an ogda_front_ prefix; the
 * front end's libmlx5.so.1 forwards each mlx5dv_* call (MLX5_1.x versions) to it. This keeps
 * one copy of the software NIC per process whichever library a program calls.
 */
#ifndef OGDA_RDMACORE_FRONT_FRONT_DV_H_
#define OGDA_RDMACORE_FRONT_FRONT_DV_H_

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

bool ogda_front_mlx5dv_is_supported(struct ibv_device *device);
struct ibv_context *ogda_front_mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr);
int ogda_front_mlx5dv_query_device(struct ibv_context *context, struct mlx5dv_context *attrs);
int ogda_front_mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);

int ogda_front_mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in, size_t inlen, void *out,
				       size_t outlen);
struct mlx5dv_devx_obj *ogda_front_mlx5dv_devx_obj_create(struct ibv_context *context, const void *in, size_t inlen,
							  void *out, size_t outlen);
int ogda_front_mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
				      size_t outlen);
int ogda_front_mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen, void *out,
				     size_t outlen);
int ogda_front_mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj);
struct mlx5dv_devx_umem *ogda_front_mlx5dv_devx_umem_reg_ex(struct ibv_context *context,
							    struct mlx5dv_devx_umem_in *in);
int ogda_front_mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem);
struct mlx5dv_devx_uar *ogda_front_mlx5dv_devx_alloc_uar(struct ibv_context *context, uint32_t flags);
void ogda_front_mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *uar);
int ogda_front_mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector, uint32_t *eqn);
struct mlx5dv_devx_event_channel *ogda_front_mlx5dv_devx_create_event_channel(struct ibv_context *context,
									      int flags);
void ogda_front_mlx5dv_devx_destroy_event_channel(struct mlx5dv_devx_event_channel *channel);
int ogda_front_mlx5dv_devx_subscribe_devx_event(struct mlx5dv_devx_event_channel *channel,
						struct mlx5dv_devx_obj *obj, uint16_t events_sz,
						uint16_t events_num[], uint64_t cookie);
ssize_t ogda_front_mlx5dv_devx_get_event(struct mlx5dv_devx_event_channel *channel,
					 struct mlx5dv_devx_async_event_hdr *event_data, size_t event_resp_len);

/* PRM query (query true) or modify commands on a QP / CQ / SRQ made through ibv_* calls. */
int ogda_front_mlx5dv_devx_qp_cmd(struct ibv_qp *qp, bool query, const void *in, size_t inlen, void *out,
				  size_t outlen);
int ogda_front_mlx5dv_devx_cq_cmd(struct ibv_cq *cq, bool query, const void *in, size_t inlen, void *out,
				  size_t outlen);
int ogda_front_mlx5dv_devx_srq_cmd(struct ibv_srq *srq, bool query, const void *in, size_t inlen, void *out,
				   size_t outlen);

/* An mlx5dv call the front end does not provide: logs it, sets errno to EOPNOTSUPP. */
void ogda_front_mlx5dv_unsupported(const char *what);

#endif /* OGDA_RDMACORE_FRONT_FRONT_DV_H_ */
