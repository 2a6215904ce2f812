/* SPDX-License-Identifier: BSD-3-Clause */
/* What the stand-in SDK (sdk_standin*.c) answers, shared with test_sdk_forward.c. */
#ifndef OGDA_TESTS_SDK_STANDIN_H_
#define OGDA_TESTS_SDK_STANDIN_H_

/* The return value of every generic stand-in function: no function of ours returns it. */
#define STANDIN_ANSWER 93
/* The objects the stand-in constructors hand out (never dereferenced). */
#define STANDIN_CQ_ATTR 0x5d0c0001ul
#define STANDIN_GPU 0x5d0c0002ul

/* Exported by the stand-in libdoca_common.so: calls of a function, by name. */
typedef unsigned int (*standin_calls_fn)(const char *name);

#endif /* OGDA_TESTS_SDK_STANDIN_H_ */
