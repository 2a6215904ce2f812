/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device-op recorder: replaces a device's ops table with one that records every call in a
 * struct cmd_log (the vocabulary of the fake rdma-core's record) and then runs the
 * original op. One recorded device at a time.
 */
#ifndef OGDA_TESTS_DEVX_SW_RECORD_H_
#define OGDA_TESTS_DEVX_SW_RECORD_H_

#include "cmd_log.h"
#include "devx/devx.h"

/* Starts recording dev's ops into log (dev keeps working as before). */
void sw_record_wrap(struct ogda_devx *dev, struct cmd_log *log);

/*
 * Makes the software NIC's random numbers (QPNs, key variants) a fixed sequence that
 * starts over at each call, so that two runs of the same script get the same numbers.
 */
void sw_record_replay_random(void);

#endif /* OGDA_TESTS_DEVX_SW_RECORD_H_ */
