/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file doca_verbs_open_api.h
 * @brief The host-API shapes of NVIDIA's open DOCA GPUNetIO releases 2.0 and 3.0, served beside
 *        the DOCA Verbs guide's (included by doca_verbs.h; see docs/open-release.md).
 *
 * The open releases create Verbs objects from a `struct ibv_context *` (2.0) or a `doca_dev_t *`
 * opened on an `ibv_pd` (3.0), and some getters return their value where the guide's return a
 * status and fill an out-parameter. Both shapes compile against OpenGDA's headers:
 *
 * - **C++** (the open releases' own language): overloads. A call with an `ibv_context *`,
 *   `ibv_pd *` or `doca_dev_t *`, or with the other arity of a getter, resolves to an inline
 *   overload below that calls the `opengda_open_*` entry point.
 * - **C11**: a macro of the function's own name dispatches with `_Generic` on the first
 *   argument's type (creation from `ibv_context *` / `doca_dev_t *`, `set_pd` from `ibv_pd *` /
 *   `doca_dev_t *`) or on the number of arguments (getters). Taking a function's address, or
 *   calling it as `(doca_verbs_qp_get_qpn)(...)`, bypasses the macro. Define
 *   `OPENGDA_NO_OPEN_API_DISPATCH` before including to turn the macros off.
 * - **`OPENGDA_DOCA_OPEN_API`** (2 or 3), only where nothing else can tell the shapes apart: the
 *   PD getters of the init attributes return the `ibv_pd *` they were given (as the open releases
 *   do) instead of a `struct doca_verbs_pd *`.
 *
 * Objects made from an `ibv_context *` live in a DOCA Verbs context imported for it on first use
 * (the one `doca_verbs_bridge_verbs_context_import()` would give, shared by every open-release
 * call on that ibv_context) and released with the last object made in it. An `ibv_pd *` is
 * imported into that context once and released with it. On a ConnectX this is rdma-core's own
 * device; on the software NIC it is a device of the rdma-core front end (docs/rdma-core-front.md).
 */
#ifndef DOCA_VERBS_OPEN_API_H_
#define DOCA_VERBS_OPEN_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_dev.h"
#include "doca_error.h"

struct ibv_context;
struct ibv_pd;
struct doca_gpu;

/** @name DOCA 3.0 handle types (pointers to OpenGDA's objects) */
/** @{ */
typedef struct doca_dev doca_dev_t;                           /**< A device from doca_verbs_dev_open(). */
typedef struct doca_verbs_qp doca_verbs_qp_t;                 /**< QP. */
typedef struct doca_verbs_cq doca_verbs_cq_t;                 /**< CQ. */
typedef struct doca_verbs_cq_attr doca_verbs_cq_attr_t;       /**< CQ attributes. */
typedef struct doca_verbs_qp_attr doca_verbs_qp_attr_t;       /**< QP attributes. */
typedef struct doca_verbs_qp_init_attr doca_verbs_qp_init_attr_t; /**< QP creation attributes. */
typedef struct doca_verbs_ah_attr doca_verbs_ah_attr_t;       /**< AH attributes. */
typedef struct doca_verbs_umem doca_verbs_umem_t;             /**< UMEM. */
typedef struct doca_verbs_uar doca_verbs_uar_t;               /**< UAR. */
/** @} */

#ifdef __cplusplus
extern "C" {
#endif

/** @name Entry points behind the open-release shapes (usable directly from C) */
/** @{ */

/**
 * @brief AH attributes for the device of an ibv_context (2.0 shape).
 * @return as doca_verbs_ah_attr_create(); DOCA_ERROR_NOT_SUPPORTED / DOCA_ERROR_DRIVER when the
 *         ibv_context is not an mlx5 device with DevX (a ConnectX, or the rdma-core front end).
 */
doca_error_t opengda_open_ah_attr_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_ah_attr **verbs_ah);
/** @brief doca_verbs_qp_create() on an ibv_context (2.0). @return as doca_verbs_qp_create(). */
doca_error_t opengda_open_qp_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_qp_init_attr *init_attr,
					struct doca_verbs_qp **verbs_qp);
/** @brief doca_verbs_cq_create() on an ibv_context (2.0). @return as doca_verbs_cq_create(). */
doca_error_t opengda_open_cq_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_cq_attr *cq_attr,
					struct doca_verbs_cq **verbs_cq);
/** @brief doca_verbs_srq_create() on an ibv_context (2.0, 3.0). @return as doca_verbs_srq_create(). */
doca_error_t opengda_open_srq_create_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_srq_init_attr *init_attr,
					 struct doca_verbs_srq **verbs_srq);
/** @brief doca_verbs_query_device() on an ibv_context (2.0, 3.0). @return as doca_verbs_query_device(). */
doca_error_t opengda_open_query_device_ibv(struct ibv_context *ibv_ctx, struct doca_verbs_device_attr **attr);
/** @brief doca_verbs_umem_create() on an ibv_context (2.0). @return as doca_verbs_umem_create(). */
doca_error_t opengda_open_umem_create_ibv(struct ibv_context *ibv_ctx, void *address, size_t size,
					  uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
					  struct doca_verbs_umem **umem);
/** @brief doca_verbs_uar_create() on an ibv_context (2.0). @return as doca_verbs_uar_create(). */
doca_error_t opengda_open_uar_create_ibv(struct ibv_context *ibv_ctx,
					 enum doca_verbs_uar_allocation_type allocation_type, struct doca_verbs_uar **uar);
/**
 * @brief The QP's PD as an ibv_pd (2.0): imported into the context of its ibv_context.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; as doca_verbs_bridge_verbs_pd_import().
 */
doca_error_t opengda_open_qp_init_attr_set_pd_ibv(struct doca_verbs_qp_init_attr *init_attr, struct ibv_pd *ibpd);
/** @brief The SRQ's PD as an ibv_pd (2.0, 3.0). @return as opengda_open_qp_init_attr_set_pd_ibv(). */
doca_error_t opengda_open_srq_init_attr_set_pd_ibv(struct doca_verbs_srq_init_attr *init_attr, struct ibv_pd *ibpd);
/** @brief The ibv_pd an init attribute was given (NULL for a PD not made from one). */
struct ibv_pd *opengda_open_qp_init_attr_get_pd_ibv(const struct doca_verbs_qp_init_attr *init_attr);
/** @brief The ibv_pd an SRQ init attribute was given (NULL for a PD not made from one). */
struct ibv_pd *opengda_open_srq_init_attr_get_pd_ibv(const struct doca_verbs_srq_init_attr *init_attr);

/**
 * @brief doca_verbs_dev_open() on an ibv_pd (3.0): the device of the PD's context, for the
 *        doca_dev_t forms below. Close it with doca_verbs_dev_close().
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE; as doca_verbs_bridge_verbs_pd_import().
 */
doca_error_t opengda_open_dev_open_ibv(struct ibv_pd *ibpd, struct doca_dev **dev);
/** @brief doca_verbs_ah_attr_create() on a device from doca_verbs_dev_open() (3.0). */
doca_error_t opengda_open_ah_attr_create_dev(struct doca_dev *dev, struct doca_verbs_ah_attr **verbs_ah);
/** @brief doca_verbs_qp_create() on a device from doca_verbs_dev_open() (3.0). */
doca_error_t opengda_open_qp_create_dev(struct doca_dev *dev, struct doca_verbs_qp_init_attr *init_attr,
					struct doca_verbs_qp **verbs_qp);
/** @brief doca_verbs_cq_create() on a device from doca_verbs_dev_open() (3.0). */
doca_error_t opengda_open_cq_create_dev(struct doca_dev *dev, struct doca_verbs_cq_attr *cq_attr,
					struct doca_verbs_cq **verbs_cq);
/** @brief doca_verbs_srq_create() on a device from doca_verbs_dev_open(). */
doca_error_t opengda_open_srq_create_dev(struct doca_dev *dev, struct doca_verbs_srq_init_attr *init_attr,
					 struct doca_verbs_srq **verbs_srq);
/** @brief doca_verbs_query_device() on a device from doca_verbs_dev_open(). */
doca_error_t opengda_open_query_device_dev(struct doca_dev *dev, struct doca_verbs_device_attr **attr);
/**
 * @brief doca_verbs_umem_create() on a device from doca_verbs_dev_open() (3.0). @p gpu may be
 *        NULL; OpenGDA finds GPU memory from the address itself.
 */
doca_error_t opengda_open_umem_create_dev(struct doca_dev *dev, struct doca_gpu *gpu, void *address, size_t size,
					  uint32_t access_flags, int dmabuf_fd, size_t dmabuf_offset,
					  struct doca_verbs_umem **umem);
/** @brief doca_verbs_uar_create() on a device from doca_verbs_dev_open() (3.0). */
doca_error_t opengda_open_uar_create_dev(struct doca_dev *dev, enum doca_verbs_uar_allocation_type allocation_type,
					 struct doca_verbs_uar **uar);
/** @brief The PD of a device from doca_verbs_dev_open() (3.0). */
doca_error_t opengda_open_qp_init_attr_set_pd_dev(struct doca_verbs_qp_init_attr *init_attr, struct doca_dev *dev);

/** @brief The QP number, or 0 (with a log line) for a NULL QP (2.0 shape). */
uint32_t opengda_open_qp_get_qpn_value(const struct doca_verbs_qp *verbs_qp);
/** @brief The doorbell record, or NULL (2.0 shape). */
void *opengda_open_qp_get_dbr_addr_value(const struct doca_verbs_qp *verbs_qp);
/** @brief The doorbell register, or NULL (2.0 shape). */
void *opengda_open_qp_get_uar_addr_value(const struct doca_verbs_qp *verbs_qp);
/** @brief The send DBR mode (DBR_VALID for a NULL QP, with a log line) (2.0 shape). */
enum doca_verbs_qp_send_dbr_mode opengda_open_qp_get_send_dbr_mode_value(const struct doca_verbs_qp *verbs_qp);
/** @brief The CQ number, or 0 (2.0 shape). */
uint32_t opengda_open_cq_get_cqn_value(const struct doca_verbs_cq *verbs_cq);
/** @brief The SRQ number, or 0 (2.0, 3.0 shape). */
uint32_t opengda_open_srq_get_srqn_value(const struct doca_verbs_srq *verbs_srq);
/** @brief The SRQ doorbell record, or NULL (2.0, 3.0 shape). */
void *opengda_open_srq_get_dbr_addr_value(const struct doca_verbs_srq *verbs_srq);
/** @brief doca_verbs_qp_query() without the mask (2.0 shape). */
doca_error_t opengda_open_qp_query_nomask(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *qp_attr,
					  struct doca_verbs_qp_init_attr *init_attr);
/** @brief The send DBR mode into @p mode (3.0 shape). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t opengda_open_qp_init_attr_get_send_dbr_mode_out(const struct doca_verbs_qp_init_attr *init_attr,
							     enum doca_verbs_qp_send_dbr_mode *mode);
/** @brief Whether DBR-less mode is emulated, into @p out (3.0 shape). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t opengda_open_qp_init_attr_get_emulate_no_dbr_ext_out(const struct doca_verbs_qp_init_attr *init_attr,
								  bool *out);
/** @brief The current state into @p state (3.0 shape). @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE. */
doca_error_t opengda_open_qp_attr_get_current_state_out(const struct doca_verbs_qp_attr *qp_attr,
							enum doca_verbs_qp_state *state);

/** @} */

#ifdef __cplusplus
} /* extern "C" */

/* ---- C++: overloads beside the guide's declarations ------------------------------------- */

static inline doca_error_t doca_verbs_ah_attr_create(struct ibv_context *c, struct doca_verbs_ah_attr **a)
{
	return opengda_open_ah_attr_create_ibv(c, a);
}
static inline doca_error_t doca_verbs_ah_attr_create(struct doca_dev *d, struct doca_verbs_ah_attr **a)
{
	return opengda_open_ah_attr_create_dev(d, a);
}
static inline doca_error_t doca_verbs_qp_create(struct ibv_context *c, struct doca_verbs_qp_init_attr *i,
						struct doca_verbs_qp **q)
{
	return opengda_open_qp_create_ibv(c, i, q);
}
static inline doca_error_t doca_verbs_qp_create(struct doca_dev *d, struct doca_verbs_qp_init_attr *i,
						struct doca_verbs_qp **q)
{
	return opengda_open_qp_create_dev(d, i, q);
}
static inline doca_error_t doca_verbs_cq_create(struct ibv_context *c, struct doca_verbs_cq_attr *a,
						struct doca_verbs_cq **q)
{
	return opengda_open_cq_create_ibv(c, a, q);
}
static inline doca_error_t doca_verbs_cq_create(struct doca_dev *d, struct doca_verbs_cq_attr *a,
						struct doca_verbs_cq **q)
{
	return opengda_open_cq_create_dev(d, a, q);
}
static inline doca_error_t doca_verbs_srq_create(struct ibv_context *c, struct doca_verbs_srq_init_attr *a,
						 struct doca_verbs_srq **s)
{
	return opengda_open_srq_create_ibv(c, a, s);
}
static inline doca_error_t doca_verbs_srq_create(struct doca_dev *d, struct doca_verbs_srq_init_attr *a,
						 struct doca_verbs_srq **s)
{
	return opengda_open_srq_create_dev(d, a, s);
}
static inline doca_error_t doca_verbs_query_device(struct ibv_context *c, struct doca_verbs_device_attr **a)
{
	return opengda_open_query_device_ibv(c, a);
}
static inline doca_error_t doca_verbs_query_device(struct doca_dev *d, struct doca_verbs_device_attr **a)
{
	return opengda_open_query_device_dev(d, a);
}
static inline doca_error_t doca_verbs_umem_create(struct ibv_context *c, void *addr, size_t size, uint32_t access,
						  int fd, size_t off, struct doca_verbs_umem **u)
{
	return opengda_open_umem_create_ibv(c, addr, size, access, fd, off, u);
}
static inline doca_error_t doca_verbs_umem_create(struct doca_dev *d, struct doca_gpu *g, void *addr, size_t size,
						  uint32_t access, int fd, size_t off, struct doca_verbs_umem **u)
{
	return opengda_open_umem_create_dev(d, g, addr, size, access, fd, off, u);
}
static inline doca_error_t doca_verbs_uar_create(struct ibv_context *c, enum doca_verbs_uar_allocation_type t,
						 struct doca_verbs_uar **u)
{
	return opengda_open_uar_create_ibv(c, t, u);
}
static inline doca_error_t doca_verbs_uar_create(struct doca_dev *d, enum doca_verbs_uar_allocation_type t,
						 struct doca_verbs_uar **u)
{
	return opengda_open_uar_create_dev(d, t, u);
}
static inline doca_error_t doca_verbs_qp_init_attr_set_pd(struct doca_verbs_qp_init_attr *i, struct ibv_pd *p)
{
	return opengda_open_qp_init_attr_set_pd_ibv(i, p);
}
static inline doca_error_t doca_verbs_qp_init_attr_set_pd(struct doca_verbs_qp_init_attr *i, struct doca_dev *d)
{
	return opengda_open_qp_init_attr_set_pd_dev(i, d);
}
static inline doca_error_t doca_verbs_srq_init_attr_set_pd(struct doca_verbs_srq_init_attr *i, struct ibv_pd *p)
{
	return opengda_open_srq_init_attr_set_pd_ibv(i, p);
}
static inline doca_error_t doca_verbs_dev_open(struct ibv_pd *p, struct doca_dev **d)
{
	return opengda_open_dev_open_ibv(p, d);
}
static inline uint32_t doca_verbs_qp_get_qpn(const struct doca_verbs_qp *q)
{
	return opengda_open_qp_get_qpn_value(q);
}
static inline void *doca_verbs_qp_get_dbr_addr(const struct doca_verbs_qp *q)
{
	return opengda_open_qp_get_dbr_addr_value(q);
}
static inline void *doca_verbs_qp_get_uar_addr(const struct doca_verbs_qp *q)
{
	return opengda_open_qp_get_uar_addr_value(q);
}
static inline enum doca_verbs_qp_send_dbr_mode doca_verbs_qp_get_send_dbr_mode(const struct doca_verbs_qp *q)
{
	return opengda_open_qp_get_send_dbr_mode_value(q);
}
static inline uint32_t doca_verbs_cq_get_cqn(const struct doca_verbs_cq *c)
{
	return opengda_open_cq_get_cqn_value(c);
}
static inline uint32_t doca_verbs_srq_get_srqn(const struct doca_verbs_srq *s)
{
	return opengda_open_srq_get_srqn_value(s);
}
static inline void *doca_verbs_srq_get_dbr_addr(const struct doca_verbs_srq *s)
{
	return opengda_open_srq_get_dbr_addr_value(s);
}
static inline doca_error_t doca_verbs_qp_query(struct doca_verbs_qp *q, struct doca_verbs_qp_attr *a,
					       struct doca_verbs_qp_init_attr *i)
{
	return opengda_open_qp_query_nomask(q, a, i);
}
static inline doca_error_t doca_verbs_qp_init_attr_get_send_dbr_mode(const struct doca_verbs_qp_init_attr *i,
								   enum doca_verbs_qp_send_dbr_mode *m)
{
	return opengda_open_qp_init_attr_get_send_dbr_mode_out(i, m);
}
static inline doca_error_t doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(const struct doca_verbs_qp_init_attr *i,
									bool *o)
{
	return opengda_open_qp_init_attr_get_emulate_no_dbr_ext_out(i, o);
}
static inline doca_error_t doca_verbs_qp_attr_get_current_state(const struct doca_verbs_qp_attr *a,
								enum doca_verbs_qp_state *s)
{
	return opengda_open_qp_attr_get_current_state_out(a, s);
}
/* 2.0 passes the 3.0 enumerators to the 2.0 setter, and the reverse happens too (same values). */
static inline doca_error_t doca_verbs_qp_attr_set_allow_remote_atomic(struct doca_verbs_qp_attr *a,
								    enum doca_verbs_qp_atomic_mode m)
{
	return doca_verbs_qp_attr_set_allow_remote_atomic(a, (enum doca_verbs_qp_atomic_type)m);
}
static inline doca_error_t doca_verbs_qp_attr_set_atomic_mode(struct doca_verbs_qp_attr *a,
							     enum doca_verbs_qp_atomic_type t)
{
	return doca_verbs_qp_attr_set_atomic_mode(a, (enum doca_verbs_qp_atomic_mode)t);
}

#elif !defined(OPENGDA_NO_OPEN_API_DISPATCH)

/* ---- C11: dispatch by the first argument's type, or by the number of arguments ----------- */

#define OPENGDA_OPEN_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define OPENGDA_OPEN_NARGS(...) OPENGDA_OPEN_NARGS_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define OPENGDA_OPEN_CAT_(a, b) a##b
#define OPENGDA_OPEN_CAT(a, b) OPENGDA_OPEN_CAT_(a, b)
/* By type: ibv_context, doca_dev, or (default) the guide's own function. */
#define OPENGDA_OPEN_BY_DEV(native, x)                                                                 \
	_Generic((x), struct ibv_context *: native##_open_ibv_, struct doca_dev *: native##_open_dev_,     \
		 default: native##_open_native_)

#define doca_verbs_ah_attr_create(c, ...) OPENGDA_OPEN_BY_DEV(opengda_ah, c)(c, __VA_ARGS__)
#define opengda_ah_open_ibv_ opengda_open_ah_attr_create_ibv
#define opengda_ah_open_dev_ opengda_open_ah_attr_create_dev
#define opengda_ah_open_native_ (doca_verbs_ah_attr_create)
#define doca_verbs_qp_create(c, ...) OPENGDA_OPEN_BY_DEV(opengda_qp, c)(c, __VA_ARGS__)
#define opengda_qp_open_ibv_ opengda_open_qp_create_ibv
#define opengda_qp_open_dev_ opengda_open_qp_create_dev
#define opengda_qp_open_native_ (doca_verbs_qp_create)
#define doca_verbs_cq_create(c, ...) OPENGDA_OPEN_BY_DEV(opengda_cq, c)(c, __VA_ARGS__)
#define opengda_cq_open_ibv_ opengda_open_cq_create_ibv
#define opengda_cq_open_dev_ opengda_open_cq_create_dev
#define opengda_cq_open_native_ (doca_verbs_cq_create)
#define doca_verbs_srq_create(c, ...) OPENGDA_OPEN_BY_DEV(opengda_srq, c)(c, __VA_ARGS__)
#define opengda_srq_open_ibv_ opengda_open_srq_create_ibv
#define opengda_srq_open_dev_ opengda_open_srq_create_dev
#define opengda_srq_open_native_ (doca_verbs_srq_create)
#define doca_verbs_query_device(c, ...) OPENGDA_OPEN_BY_DEV(opengda_qd, c)(c, __VA_ARGS__)
#define opengda_qd_open_ibv_ opengda_open_query_device_ibv
#define opengda_qd_open_dev_ opengda_open_query_device_dev
#define opengda_qd_open_native_ (doca_verbs_query_device)
#define doca_verbs_uar_create(c, ...) OPENGDA_OPEN_BY_DEV(opengda_uar, c)(c, __VA_ARGS__)
#define opengda_uar_open_ibv_ opengda_open_uar_create_ibv
#define opengda_uar_open_dev_ opengda_open_uar_create_dev
#define opengda_uar_open_native_ (doca_verbs_uar_create)
/* umem: 3.0 has one argument more (the doca_gpu); the type of the first tells 2.0 from ours. */
#define doca_verbs_umem_create(...) OPENGDA_OPEN_CAT(opengda_open_umem_, OPENGDA_OPEN_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define opengda_open_umem_8 opengda_open_umem_create_dev
#define opengda_open_umem_7(c, ...)                                                                    \
	_Generic((c), struct ibv_context *: opengda_open_umem_create_ibv, default: (doca_verbs_umem_create))(c, \
														 __VA_ARGS__)
#define doca_verbs_qp_init_attr_set_pd(a, p)                                                           \
	_Generic((p), struct ibv_pd *: opengda_open_qp_init_attr_set_pd_ibv,                               \
		 struct doca_dev *: opengda_open_qp_init_attr_set_pd_dev, default: (doca_verbs_qp_init_attr_set_pd))(a, p)
#define doca_verbs_srq_init_attr_set_pd(a, p)                                                          \
	_Generic((p), struct ibv_pd *: opengda_open_srq_init_attr_set_pd_ibv,                              \
		 default: (doca_verbs_srq_init_attr_set_pd))(a, p)
#define doca_verbs_dev_open(p, d)                                                                      \
	_Generic((p), struct ibv_pd *: opengda_open_dev_open_ibv, default: (doca_verbs_dev_open))(p, d)

/* Both atomic enums name the same values; 2.0's samples pass 3.0's to the 2.0 setter. */
#define doca_verbs_qp_attr_set_allow_remote_atomic(a, m)                                               \
	(doca_verbs_qp_attr_set_allow_remote_atomic)((a), (enum doca_verbs_qp_atomic_type)(m))
#define doca_verbs_qp_attr_set_atomic_mode(a, m) (doca_verbs_qp_attr_set_atomic_mode)((a), (enum doca_verbs_qp_atomic_mode)(m))

/* Getters: the value (one argument, open releases) or status + out-parameter (the guide). */
#define OPENGDA_OPEN_BY_ARITY(name, ...) OPENGDA_OPEN_CAT(name##_, OPENGDA_OPEN_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define doca_verbs_qp_get_qpn(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qpn, __VA_ARGS__)
#define opengda_open_qpn_1 opengda_open_qp_get_qpn_value
#define opengda_open_qpn_2 (doca_verbs_qp_get_qpn)
#define doca_verbs_qp_get_dbr_addr(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qpdbr, __VA_ARGS__)
#define opengda_open_qpdbr_1 opengda_open_qp_get_dbr_addr_value
#define opengda_open_qpdbr_2 (doca_verbs_qp_get_dbr_addr)
#define doca_verbs_qp_get_uar_addr(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qpuar, __VA_ARGS__)
#define opengda_open_qpuar_1 opengda_open_qp_get_uar_addr_value
#define opengda_open_qpuar_2 (doca_verbs_qp_get_uar_addr)
#define doca_verbs_qp_get_send_dbr_mode(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qpdbrm, __VA_ARGS__)
#define opengda_open_qpdbrm_1 opengda_open_qp_get_send_dbr_mode_value
#define opengda_open_qpdbrm_2 (doca_verbs_qp_get_send_dbr_mode)
#define doca_verbs_cq_get_cqn(...) OPENGDA_OPEN_BY_ARITY(opengda_open_cqn, __VA_ARGS__)
#define opengda_open_cqn_1 opengda_open_cq_get_cqn_value
#define opengda_open_cqn_2 (doca_verbs_cq_get_cqn)
#define doca_verbs_srq_get_srqn(...) OPENGDA_OPEN_BY_ARITY(opengda_open_srqn, __VA_ARGS__)
#define opengda_open_srqn_1 opengda_open_srq_get_srqn_value
#define opengda_open_srqn_2 (doca_verbs_srq_get_srqn)
#define doca_verbs_srq_get_dbr_addr(...) OPENGDA_OPEN_BY_ARITY(opengda_open_srqdbr, __VA_ARGS__)
#define opengda_open_srqdbr_1 opengda_open_srq_get_dbr_addr_value
#define opengda_open_srqdbr_2 (doca_verbs_srq_get_dbr_addr)
#define doca_verbs_qp_query(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qpq, __VA_ARGS__)
#define opengda_open_qpq_3 opengda_open_qp_query_nomask
#define opengda_open_qpq_4 (doca_verbs_qp_query)
#define doca_verbs_qp_init_attr_get_send_dbr_mode(...) OPENGDA_OPEN_BY_ARITY(opengda_open_iadbrm, __VA_ARGS__)
#define opengda_open_iadbrm_1 (doca_verbs_qp_init_attr_get_send_dbr_mode)
#define opengda_open_iadbrm_2 opengda_open_qp_init_attr_get_send_dbr_mode_out
#define doca_verbs_qp_init_attr_get_emulate_no_dbr_ext(...) OPENGDA_OPEN_BY_ARITY(opengda_open_iaemu, __VA_ARGS__)
#define opengda_open_iaemu_1 (doca_verbs_qp_init_attr_get_emulate_no_dbr_ext)
#define opengda_open_iaemu_2 opengda_open_qp_init_attr_get_emulate_no_dbr_ext_out
#define doca_verbs_qp_attr_get_current_state(...) OPENGDA_OPEN_BY_ARITY(opengda_open_qacs, __VA_ARGS__)
#define opengda_open_qacs_1 (doca_verbs_qp_attr_get_current_state)
#define opengda_open_qacs_2 opengda_open_qp_attr_get_current_state_out

#endif /* __cplusplus / C dispatch */

/* ---- Where only a compile-time choice can serve: the PD getters' return type ------------ */
#if defined(OPENGDA_DOCA_OPEN_API) && !defined(OPENGDA_NO_OPEN_API_DISPATCH)
#if OPENGDA_DOCA_OPEN_API != 2 && OPENGDA_DOCA_OPEN_API != 3
#error "OPENGDA_DOCA_OPEN_API must be 2 or 3 (the open release whose host API the code was written for)"
#endif
#define doca_verbs_qp_init_attr_get_pd opengda_open_qp_init_attr_get_pd_ibv
#define doca_verbs_srq_init_attr_get_pd opengda_open_srq_init_attr_get_pd_ibv
#endif

#endif /* DOCA_VERBS_OPEN_API_H_ */
