/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCE next-hop MAC on a ConnectX. User space cannot read the kernel's neighbour table
 * directly; creating an address handle towards the destination GID makes the kernel
 * resolve it (ARP / ND through the GID's netdev), and mlx5dv_init_obj(MLX5DV_OBJ_AH) shows
 * the resolved MAC in the handle's address vector (struct mlx5_wqe_av.rmac). The handle is
 * released at once; its PD is made on first use and kept with the device, so that each
 * resolution costs no ALLOC_PD / DEALLOC_PD firmware commands.
 */
#include "core/log.h"
#include "devx/hw_priv.h"

#include <errno.h>
#include <string.h>

#define AH_HOP_LIMIT 64

static doca_error_t not_found(const struct hw_dev *d, const char *call, int err)
{
	OGDA_LOG_ERR("%s: cannot resolve the next-hop MAC: %s failed: %s (errno %d)", d->base.name, call,
		     strerror(err), err);
	return DOCA_ERROR_NOT_FOUND;
}

/* The MAC the address vector of an AH towards dgid carries. */
static doca_error_t rmac_through_ah(struct hw_dev *d, struct ibv_pd *pd, uint8_t port, uint8_t sgid_index,
				    const uint8_t dgid[16], uint8_t mac[6])
{
	struct ibv_ah_attr attr;
	struct mlx5dv_obj obj;
	struct mlx5dv_ah dvah;
	struct ibv_ah *ah;
	doca_error_t err = DOCA_SUCCESS;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.is_global = 1;
	memcpy(attr.grh.dgid.raw, dgid, 16);
	attr.grh.sgid_index = sgid_index;
	attr.grh.hop_limit = AH_HOP_LIMIT;
	attr.port_num = port;
	errno = 0;
	ah = d->rc->ibv.create_ah(pd, &attr);
	if (ah == NULL)
		return not_found(d, "ibv_create_ah", errno != 0 ? errno : EIO);
	memset(&obj, 0, sizeof(obj));
	memset(&dvah, 0, sizeof(dvah));
	obj.ah.in = ah;
	obj.ah.out = &dvah;
	errno = 0;
	ret = d->rc->dv.init_obj(&obj, MLX5DV_OBJ_AH);
	if (ret != 0 || dvah.av == NULL)
		err = not_found(d, "mlx5dv_init_obj(AH)", ret != 0 ? hw_call_errno(ret) : EINVAL);
	else
		memcpy(mac, dvah.av->rmac, 6);
	if (d->rc->ibv.destroy_ah(ah) != 0)
		OGDA_LOG_WARN("%s: ibv_destroy_ah failed: %s", d->base.name, strerror(errno));
	return err;
}

doca_error_t hw_resolve_rmac(struct ogda_devx *dev, uint8_t port, uint32_t sgid_index, const uint8_t dgid[16],
			     uint8_t mac[6])
{
	struct hw_dev *d = hw_dev_of(dev);
	struct ibv_pd *pd;
	doca_error_t err;

	if (d == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (dgid == NULL || mac == NULL || port == 0 || sgid_index > UINT8_MAX) {
		OGDA_LOG_ERR("%s: dgid and mac must not be NULL, port starts at 1, sgid_index below 256 (got port %u, "
			     "sgid_index %u)",
			     d->base.name, port, sgid_index);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = hw_need(d,
		      d->rc->ibv.alloc_pd != NULL && d->rc->ibv.dealloc_pd != NULL && d->rc->ibv.create_ah != NULL &&
			      d->rc->ibv.destroy_ah != NULL && d->rc->dv.init_obj != NULL,
		      "ibv_alloc_pd / ibv_create_ah / ibv_destroy_ah / mlx5dv_init_obj");
	if (err != DOCA_SUCCESS)
		return err;
	pthread_mutex_lock(&d->ah_lock);
	if (d->ah_pd == NULL) {
		errno = 0;
		d->ah_pd = d->rc->ibv.alloc_pd(d->ctx);
		if (d->ah_pd == NULL) {
			err = not_found(d, "ibv_alloc_pd", errno != 0 ? errno : EIO);
			pthread_mutex_unlock(&d->ah_lock);
			return err;
		}
	}
	pd = d->ah_pd;
	pthread_mutex_unlock(&d->ah_lock);
	return rmac_through_ah(d, pd, port, (uint8_t)sgid_index, dgid, mac);
}
