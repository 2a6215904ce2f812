/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Slots: the bandwidth examples give thread t of the launch the bytes [t x size, (t + 1) x size)
 * of each side's buffer. Filling, clearing and checking slots, and running the slot loop of
 * put_bw and get_bw (ex_slot_body.h).
 */
#ifndef EX_SLOTS_H_
#define EX_SLOTS_H_

#include "ex_run.h"
#include "ex_slot_body.h"

/* Threads of the launch (= slots). */
uint64_t ex_slots(const struct ex_ctx *x);
/* Buffer sizes: slots x the largest message; per-thread results on the client. */
uint64_t ex_slots_buf_bytes(const struct ex_ctx *x);
uint64_t ex_slots_aux_bytes(const struct ex_ctx *x);

/*
 * Slot t gets the pattern of (row, t); the last slot goes through the corruption hook. Done in
 * the row's warm-up pass only: slots filled this way are only read by the NIC.
 */
int ex_slots_fill(struct ex_ctx *x, const struct ex_step *s);
/* Zeroes the slots of the step's size. */
int ex_slots_clear(struct ex_ctx *x, const struct ex_step *s);
/*
 * Every slot holds the pattern of (row, t) and the 256 bytes after the last slot are still
 * zero (nothing longer than its message landed). side names the buffer in the failure text
 * ("server slot 7: byte 255 of 256 is 0x.., expected 0x..").
 */
int ex_slots_check(struct ex_ctx *x, const struct ex_step *s, const char *side);
/* The same, with the zero bytes after the last slot probed only below buffer offset end. */
int ex_slots_check_range(struct ex_ctx *x, const struct ex_step *s, const char *side, uint64_t end);

/*
 * Reads the n per-thread results from aux memory: the first thread that failed is reported (op
 * names the operation: "put"), and the completed operations must add up to -i. *done: their sum.
 */
int ex_results_collect(struct ex_ctx *x, uint64_t n, uint32_t per_thread, const char *op, uint64_t *done);

/* Runs ex_slot_thread() for the step (kind EX_OP_WRITE or EX_OP_READ) and collects the results into r. */
int ex_slots_run(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r, enum ex_op_kind kind,
		 ex_host_fn host_fn, ex_cuda_launch_fn launch);

#endif /* EX_SLOTS_H_ */
