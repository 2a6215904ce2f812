/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stand-in "DOCA SDK" for test_sdk_forward, built four times, as libdoca_common.so,
 * libdoca_verbs.so, libdoca_gpunetio.so and libdoca_eth.so (STANDIN_LIB_COMMON, _VERBS, _GPUNETIO or _ETH
 * defined), each exporting the functions sdk_forward_table.h assigns to that library.
 * Every function records its call in libdoca_common's counters (the other two link it,
 * as the SDK's libraries do) and answers STANDIN_ANSWER. sdk_standin_ctor.c replaces two
 * constructors, so that the test sees an SDK object travel back into the SDK. Building
 * with -D<function>=<other name> leaves that function out (the "missing symbol" case).
 *
 * These generic functions take four integer arguments whatever the real prototype: on the
 * x86-64 and AArch64 calling conventions the caller's pointer and integer arguments land
 * in those registers, and the stand-in only counts the call.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "sdk_standin.h"

#define STANDIN_EXPORT __attribute__((visibility("default")))

void standin_record(const char *name);

#ifdef STANDIN_LIB_COMMON
static struct {
	const char *name;
	unsigned int calls;
} counts[512];
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int *count_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (counts[i].name == NULL)
			counts[i].name = name;
		if (strcmp(counts[i].name, name) == 0)
			return &counts[i].calls;
	}
	return NULL;
}

STANDIN_EXPORT void standin_record(const char *name)
{
	unsigned int *c;

	pthread_mutex_lock(&counts_lock);
	c = count_of(name);
	if (c != NULL)
		(*c)++;
	pthread_mutex_unlock(&counts_lock);
}

STANDIN_EXPORT unsigned int standin_calls(const char *name);
STANDIN_EXPORT unsigned int standin_calls(const char *name)
{
	unsigned int *c, v;

	pthread_mutex_lock(&counts_lock);
	c = count_of(name);
	v = c != NULL ? *c : 0;
	pthread_mutex_unlock(&counts_lock);
	return v;
}
#endif

/* Weak, so that sdk_standin_ctor.c's constructors take their place. */
#define STANDIN_DEFINE(name)                                                                       \
	STANDIN_EXPORT __attribute__((weak)) long name(uintptr_t a0, uintptr_t a1, uintptr_t a2,   \
							uintptr_t a3);                             \
	long name(uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3)                          \
	{                                                                                          \
		(void)a0, (void)a1, (void)a2, (void)a3;                                            \
		standin_record(#name);                                                             \
		return STANDIN_ANSWER;                                                             \
	}
#define STANDIN_SKIP(name)

#ifdef STANDIN_LIB_COMMON
#define STANDIN_COMMON STANDIN_DEFINE
#else
#define STANDIN_COMMON STANDIN_SKIP
#endif
#ifdef STANDIN_LIB_VERBS
#define STANDIN_VERBS STANDIN_DEFINE
#else
#define STANDIN_VERBS STANDIN_SKIP
#endif
#ifdef STANDIN_LIB_GPUNETIO
#define STANDIN_GPUNETIO STANDIN_DEFINE
#else
#define STANDIN_GPUNETIO STANDIN_SKIP
#endif

#ifdef STANDIN_LIB_ETH
#define STANDIN_ETH STANDIN_DEFINE
#else
#define STANDIN_ETH STANDIN_SKIP
#endif

#define OGDA_SDK_FN(lib, name, label) STANDIN_##lib(name)
#include "sdk/sdk_forward_table.h"
#undef OGDA_SDK_FN
