/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Forwarding to a DOCA SDK (docs/sdk-forwarding.md). When DOCA_SDK_LIB_PATH names a
 * directory holding libdoca_common.so, libdoca_verbs.so and libdoca_gpunetio.so, every
 * host function listed in sdk_forward_table.h is answered by the SDK's function of the same
 * name instead of ours, as the open DOCA GPUNetIO release does ("SDK mode"). The libraries
 * are opened and every symbol resolved once per process, on the first forwarded call
 * (thread-safe); anything missing logs an error and leaves our implementation in charge
 * of every function. Without DOCA_SDK_LIB_PATH nothing is loaded and nothing is logged.
 *
 * Each public entry point starts with one hook:
 *   OGDA_SDK_FORWARD(doca_verbs_cq_create, (verbs_ctx, cq_attr, verbs_cq));
 * which returns the SDK's answer in SDK mode and does nothing otherwise.
 */
#ifndef OGDA_SDK_SDK_FORWARD_H_
#define OGDA_SDK_SDK_FORWARD_H_

#define OGDA_SDK_ENV "DOCA_SDK_LIB_PATH"

/* One index per forwarded function, in table order. */
enum ogda_sdk_fn {
#define OGDA_SDK_FN(lib, name, label) OGDA_SDK_FN_##name,
#include "sdk/sdk_forward_table.h"
#undef OGDA_SDK_FN
	OGDA_SDK_FN_COUNT
};

/*
 * The SDK's function for fn in SDK mode, NULL otherwise (our implementation answers).
 * For a constructor (a table entry with a label) it logs, like the open release, at
 * WARNING whether the SDK is in use and at INFO "Use DOCA <label> SDK" or "... open",
 * the latter in the name of the caller (file, line, func); only when DOCA_SDK_LIB_PATH is
 * set.
 */
void *ogda_sdk_fn(enum ogda_sdk_fn fn, const char *file, int line, const char *func);

/* True when the SDK answers the forwarded functions (resolves on first call). */
int ogda_sdk_in_use(void);

/*
 * The hooks. args is the parenthesised argument list of the enclosing function; the
 * function pointer takes the type of our own declaration, which is the SDK's prototype.
 */
#define OGDA_SDK_FORWARD(name, args)                                                               \
	do {                                                                                       \
		void *sdk_fn_ = ogda_sdk_fn(OGDA_SDK_FN_##name, __FILE__, __LINE__, __func__);     \
		if (sdk_fn_ != NULL)                                                               \
			return ((__typeof__(&name))sdk_fn_)args;                                   \
	} while (0)

#define OGDA_SDK_FORWARD_VOID(name, args)                                                          \
	do {                                                                                       \
		void *sdk_fn_ = ogda_sdk_fn(OGDA_SDK_FN_##name, __FILE__, __LINE__, __func__);     \
		if (sdk_fn_ != NULL) {                                                             \
			((__typeof__(&name))sdk_fn_)args;                                          \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#endif /* OGDA_SDK_SDK_FORWARD_H_ */
