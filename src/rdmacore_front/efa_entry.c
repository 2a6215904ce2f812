/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The front end's libefa.so.1. perftest links rdma-core's EFA provider library and binds
 * two of its calls at start-up; the real one needs libibverbs' provider interface, which
 * the front end does not have. The software NIC is no EFA device: both calls fail with
 * EOPNOTSUPP, as they do on any non-EFA device.
 */
#include <infiniband/efadv.h>

#include <errno.h>
#include <stdio.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int efadv_query_device(struct ibv_context *ibvctx, struct efadv_device_attr *attr, uint32_t inlen)
{
	(void)ibvctx;
	(void)attr;
	(void)inlen;
	return EOPNOTSUPP;
}

EXPORT struct ibv_qp *efadv_create_qp_ex(struct ibv_context *ibvctx, struct ibv_qp_init_attr_ex *attr_ex,
					 struct efadv_qp_init_attr *efa_attr, uint32_t inlen)
{
	(void)ibvctx;
	(void)attr_ex;
	(void)efa_attr;
	(void)inlen;
	fprintf(stderr, "efadv_create_qp_ex: the OpenGDA software NIC is not an EFA device\n");
	errno = EOPNOTSUPP;
	return NULL;
}
