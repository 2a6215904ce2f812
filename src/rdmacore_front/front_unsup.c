/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of libibverbs' ABI: calls for what the software NIC does not model (UD address
 * handles from completions, multicast, SRQs through the front end, ECE, importing
 * objects of another process's context, the kernel's marshalling helpers). They exist so
 * that programs and libraries linked against rdma-core load (perftest and librdmacm bind
 * to them at start-up), and they fail the way rdma-core fails a call the provider lacks:
 * EOPNOTSUPP, with a log line, never a crash.
 */
#include "rdmacore_front/front.h"

#include "core/log.h"

#include <errno.h>

#define UNSUPPORTED(what) OGDA_LOG_ERR("%s is not supported by the software NIC front end", what)

static int unsupported_int(const char *what)
{
	UNSUPPORTED(what);
	return front_fail(EOPNOTSUPP);
}

static void *unsupported_ptr(const char *what)
{
	UNSUPPORTED(what);
	errno = EOPNOTSUPP;
	return NULL;
}

FRONT_EXPORT int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc,
				     struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)
{
	(void)context;
	(void)port_num;
	(void)wc;
	(void)grh;
	(void)ah_attr;
	return unsupported_int("ibv_init_ah_from_wc (UD QPs)");
}

FRONT_EXPORT struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh,
						  uint8_t port_num)
{
	(void)pd;
	(void)wc;
	(void)grh;
	(void)port_num;
	return unsupported_ptr("ibv_create_ah_from_wc (UD QPs)");
}

FRONT_EXPORT int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	return unsupported_int("ibv_attach_mcast");
}

FRONT_EXPORT int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	return unsupported_int("ibv_detach_mcast");
}

FRONT_EXPORT int ibv_resolve_eth_l2_from_gid(struct ibv_context *context, struct ibv_ah_attr *attr,
					     uint8_t eth_mac[ETHERNET_LL_SIZE], uint16_t *vid)
{
	(void)context;
	(void)attr;
	(void)eth_mac;
	(void)vid;
	return unsupported_int("ibv_resolve_eth_l2_from_gid");
}

FRONT_EXPORT int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	return unsupported_int("ibv_query_ece");
}

FRONT_EXPORT int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	return unsupported_int("ibv_set_ece");
}

/* No ordering guarantee beyond the IB spec's is promised: 0, which every caller must handle. */
FRONT_EXPORT int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)
{
	(void)qp;
	(void)op;
	(void)flags;
	return 0;
}

FRONT_EXPORT struct ibv_context *ibv_import_device(int cmd_fd)
{
	(void)cmd_fd;
	return unsupported_ptr("ibv_import_device");
}

FRONT_EXPORT struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)
{
	(void)context;
	(void)pd_handle;
	return unsupported_ptr("ibv_import_pd");
}

FRONT_EXPORT void ibv_unimport_pd(struct ibv_pd *pd)
{
	(void)pd;
	UNSUPPORTED("ibv_unimport_pd");
}

FRONT_EXPORT struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	(void)pd;
	(void)mr_handle;
	return unsupported_ptr("ibv_import_mr");
}

FRONT_EXPORT void ibv_unimport_mr(struct ibv_mr *mr)
{
	(void)mr;
	UNSUPPORTED("ibv_unimport_mr");
}

FRONT_EXPORT struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)
{
	(void)context;
	(void)dm_handle;
	return unsupported_ptr("ibv_import_dm");
}

FRONT_EXPORT void ibv_unimport_dm(struct ibv_dm *dm)
{
	(void)dm;
	UNSUPPORTED("ibv_unimport_dm");
}

/* Providers register with the real libibverbs; there is nothing to register with here. */
FRONT_EXPORT void ibv_register_driver(const char *name, void *init_func)
{
	(void)init_func;
	OGDA_LOG_ERR("ibv_register_driver(%s): providers do not load into the software NIC front end",
		     name != NULL ? name : "?");
}

/* Kernel ABI marshalling (rdma_cm's kernel paths, which the front end does not have). */
FRONT_EXPORT void ibv_copy_qp_attr_from_kern(void *dst, void *src)
{
	(void)dst;
	(void)src;
	UNSUPPORTED("ibv_copy_qp_attr_from_kern");
}

FRONT_EXPORT void ibv_copy_ah_attr_from_kern(void *dst, void *src)
{
	(void)dst;
	(void)src;
	UNSUPPORTED("ibv_copy_ah_attr_from_kern");
}

FRONT_EXPORT void ibv_copy_path_rec_from_kern(void *dst, void *src)
{
	(void)dst;
	(void)src;
	UNSUPPORTED("ibv_copy_path_rec_from_kern");
}

FRONT_EXPORT void ibv_copy_path_rec_to_kern(void *dst, void *src)
{
	(void)dst;
	(void)src;
	UNSUPPORTED("ibv_copy_path_rec_to_kern");
}
