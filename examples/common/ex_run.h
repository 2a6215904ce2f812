/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame every GPUNetIO Verbs example runs in (ex_main): command line, device and executor
 * (CUDA kernels on a GPU, or host threads), one high-level QP, one registered data buffer per
 * side, the out-of-band exchange, and a loop over the rows of the result table. Each row runs
 * twice, a warm-up pass and a timed pass; for each pass:
 *
 *   client                                  server
 *   STEP_BEGIN(row, pass)      ------->     ops->server_begin (clear / fill / launch)
 *                              <-------     STEP_READY
 *   ops->client_run (launch, wait, check)
 *   STEP_DONE(status, counts, time) ---->   ops->server_end (wait, check every byte)
 *                              <-------     STEP_RESULT(ok, why)
 *
 * Either side that fails says why to the other (an ERROR message) and both exit 1; the run
 * exits 0 on both sides only when every pass of every row was checked and found correct.
 */
#ifndef EX_RUN_H_
#define EX_RUN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_gpunetio.h"
#include "doca_gpunetio_high_level.h"
#include "doca_gpunetio_verbs_dev.h"
#include "ex_config.h"
#include "ex_cuda.h"
#include "ex_host.h"
#include "sample_verbs.h"

#define EX_MAX_ROWS EX_MAX_SIZES

/* Memory the data path reaches: GPU memory with kernels, host memory on host threads. */
struct ex_buf {
	uint8_t *dev;  /* address for device code and the NIC */
	size_t len;
	struct opengda_mr *mr; /* NULL when not registered with the NIC */
	uint32_t lkey, rkey;
	const char *reg; /* how it was registered, for the header */
};

/* The peer's data buffer. */
struct ex_remote {
	uint64_t addr;
	uint32_t rkey;
	uint64_t len;
};

struct ex_step {
	uint32_t row;
	uint64_t size; /* message size of the row */
	bool timed;    /* false: the warm-up pass */
};

/* How a row's numbers turn into the table's two metric columns. */
enum ex_metric {
	EX_METRIC_BW,       /* BW average[Gb/s], MsgRate[Mpps] */
	EX_METRIC_PINGPONG, /* Unidirectional[usec] (time / 2N), Bidirectional[usec] (time / N) */
	EX_METRIC_RTT_RATE, /* Avg latency[usec] per operation per thread, MsgRate[Mpps] */
};

struct ex_row {
	uint64_t size;
	uint64_t iters;   /* messages (or round trips) of the timed pass */
	uint32_t threads; /* threads that issued them */
	uint64_t ns;      /* kernel (or host-thread) time of the timed pass */
	double m1, m2;
	bool done;
};

struct ex_ctx;

struct ex_ops {
	const struct ex_spec *spec;
	enum ex_metric metric;
	const char *row_title;                         /* optional first column ("mode") */
	const char *(*row_label)(uint32_t row);        /* its value per row */
	uint32_t (*nrows)(const struct ex_ctx *x);     /* NULL: one row per message size */
	uint64_t (*row_size)(const struct ex_ctx *x, uint32_t row); /* NULL: the row's message size */
	uint64_t (*buf_bytes)(const struct ex_ctx *x); /* each side's registered data buffer */
	uint64_t (*aux_bytes)(const struct ex_ctx *x); /* unregistered device memory (per-thread results) */
	int (*check_config)(struct ex_ctx *x);         /* optional: refuse a combination (error line) */
	int (*server_begin)(struct ex_ctx *x, const struct ex_step *s); /* optional */
	int (*server_end)(struct ex_ctx *x, const struct ex_step *s);   /* check; ex_fail() on a mismatch */
	int (*client_run)(struct ex_ctx *x, const struct ex_step *s, struct ex_row *r);
};

struct ex_ctx {
	struct ex_config cfg;
	const struct ex_ops *ops;
	bool server;
	bool cuda; /* kernels on a GPU; false: host threads */
	struct ex_gpu_desc gpu_desc;
	char exec_why[200]; /* why host threads */
	struct doca_gpu *gpu;
	struct sample_dev dev;
	doca_gpu_verbs_service_t service;
	struct doca_gpu_verbs_qp_hl *qp;
	struct doca_gpu_dev_verbs_qp *dqp; /* device view of qp */
	struct doca_gpu_verbs_qp_group_hl *group; /* spec->qp_group: qp is its main QP */
	struct doca_gpu_dev_verbs_qp *dcomp;      /* device view of the group's companion, or NULL */
	uint32_t sq_nwqe;                  /* its send queue's WQEs */
	uint32_t blocks, threads;          /* geometry in use */
	uint64_t seed;                     /* the client's; both sides derive patterns from it */
	struct ex_buf buf;                 /* registered data buffer */
	struct ex_buf aux;                 /* unregistered, for per-thread results */
	struct ex_remote peer;             /* the peer's data buffer */
	int oob_fd;
	char fail[320];                    /* why the current step failed */
	struct ex_row rows[EX_MAX_ROWS];
	uint32_t nrows;
	uint64_t checked_bytes;            /* bytes compared over the run */
	bool peer_failed;
	struct ex_launch_async *launch;    /* ex_launch_start()'s launch in flight; NULL when none */
};

/* Runs the example: returns the process exit code (0 only when everything was checked). */
int ex_main(const struct ex_ops *ops, int argc, char **argv);

/* ---- helpers for the examples' callbacks ------------------------------------------------------ */

/* Records why the step failed (sent to the peer and printed); returns -1. */
int ex_fail(struct ex_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copies between host memory and b + off; fills b + off. Return 0, or -1 with an error line. */
int ex_buf_read(const struct ex_ctx *x, const struct ex_buf *b, size_t off, void *dst, size_t len);
int ex_buf_write(const struct ex_ctx *x, struct ex_buf *b, size_t off, const void *src, size_t len);
int ex_buf_fill(const struct ex_ctx *x, struct ex_buf *b, size_t off, uint8_t v, size_t len);

/* Device addresses with big-endian keys: this side's buffer (lkey) and the peer's (rkey). */
struct doca_gpu_dev_verbs_addr ex_laddr(const struct ex_ctx *x, size_t off);
struct doca_gpu_dev_verbs_addr ex_raddr(const struct ex_ctx *x, size_t off);

/*
 * Test hook: with OGDA_EXAMPLE_CORRUPT=1 in the environment, flips the last byte of the len
 * bytes at p (data this side is about to send), so tests can see the peer's check fail.
 * Examples call it once per pass on one message of their outgoing data.
 */
void ex_test_corrupt(void *p, size_t len);

/* Pattern id of (row, slot): what slot `slot` of row `row` carries. */
uint32_t ex_pattern_id(uint32_t row, uint32_t slot);
/* Fills / checks len bytes of host memory with the pattern of (x->seed, id). check: ex_fail on a mismatch. */
void ex_pattern_fill(const struct ex_ctx *x, void *p, size_t len, uint32_t id);
int ex_pattern_check(struct ex_ctx *x, const void *p, size_t len, uint32_t id, const char *what);

/*
 * Runs the step's device code: with kernels, launch(arg, blocks, threads) (a function of the
 * example's .cu file) timed by CUDA events; on host threads, host_fn on blocks x threads threads.
 * *ns is the time. Returns 0, or -1 with an error line.
 */
typedef int (*ex_cuda_launch_fn)(const void *arg, uint32_t blocks, uint32_t threads);
int ex_launch(struct ex_ctx *x, uint32_t blocks, uint32_t threads, ex_host_fn host_fn, ex_cuda_launch_fn launch,
	      void *arg, uint64_t *ns);

/*
 * The same, asynchronous, for a side whose device code must run while the frame goes on (the
 * ping-pong server: its kernel waits for the client's first message, which comes only after
 * the frame has sent STEP_READY). ex_launch_start() starts it and returns: on host threads
 * ex_host_run() runs in a helper pthread, with kernels the launch is queued between
 * ex_cuda_begin() and ex_cuda_end(). ex_launch_finish() waits for it, bounded by twice --timeout
 * (device code still running then cannot be stopped: the process ends with an error line), and
 * sets *ns. One launch at a time per process; arg must stay valid until ex_launch_finish().
 * Both return 0, or -1 with an error line.
 */
int ex_launch_start(struct ex_ctx *x, uint32_t blocks, uint32_t threads, ex_host_fn host_fn, ex_cuda_launch_fn launch,
		    void *arg);
int ex_launch_finish(struct ex_ctx *x, uint64_t *ns);

/* The sharing mode a QP used by blocks x threads threads at the configured scope needs. */
int ex_sharing(const struct ex_ctx *x, uint32_t blocks, uint32_t threads);

/* A device operation's error as text: an error completion with its syndrome, a timeout, ... */
const char *ex_dev_error_str(int rc);

/* Bound of device waits, in ns (from --timeout). */
uint64_t ex_timeout_ns(const struct ex_ctx *x);

#endif /* EX_RUN_H_ */
