/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A put_bw written the way code for NVIDIA's open DOCA GPUNetIO release is written (its host
 * flow: ibv_open_device, ibv_alloc_pd, ibv_reg_mr, doca_gpu_create, the high-level QP on the
 * ibv_pd, AH attributes from the ibv_context, three doca_verbs_qp_modify calls with the 2.0
 * setters, the QP number as a return value, doca_gpu_verbs_get_qp_dev), built against OpenGDA's
 * headers with nothing OpenGDA-specific in the host flow. One source, compiled as C11
 * (open_put_bw_c: the dispatch macros) and as C++17 (open_put_bw_cpp: the overloads).
 *
 * Two processes: `-s` serves a buffer, `-c HOST` writes it. The client's "kernel" is host threads
 * here (`--host`, the only mode CI has; it needs opengda_gpu_create_host and the device core
 * the DOCA templates are built on); each thread puts its messages and waits for its last one. The
 * server then checks every byte against the client's pattern and says so; both exit 0 only then.
 * The RDMA device is rdma-core's first (or -d NAME): a ConnectX, or the software NIC through
 * `opengda-swnic-run` (docs/rdma-core-front.md).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* usleep, as a program built with -std=c11 asks for it */
#endif
#include <doca_error.h>
#include <doca_gpunetio.h>
#include <doca_gpunetio_high_level.h>
#include <doca_verbs.h>
#include <infiniband/verbs.h>
#include <opengda_gpunetio.h>

#include "device/ogda_dev_ops.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define OPB_THREADS 4u
#define OPB_PER_THREAD 64u
#define OPB_MSG 256u
#define OPB_BYTES (OPB_THREADS * OPB_PER_THREAD * OPB_MSG)
#define OPB_WAIT_NS 10000000000ull

struct opb_peer { /* what the two sides exchange, network order where it is a number */
	uint32_t qpn;
	uint32_t rkey;
	uint64_t addr;
	uint8_t gid[16];
};

struct opb {
	const char *dev_name;
	const char *server; /* NULL: serve */
	uint16_t port;
	struct ibv_context *ibv_ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint8_t *buf;
	struct doca_gpu *gpu;
	struct doca_gpu_verbs_qp_hl *qp;
	struct doca_verbs_ah_attr *ah;
	int sock;
};

#define OPB_CHECK(what, cond)                                                                          \
	do {                                                                                           \
		if (!(cond)) {                                                                         \
			fprintf(stderr, "open_put_bw: %s failed (%s:%d)\n", what, __FILE__, __LINE__); \
			return 1;                                                                      \
		}                                                                                      \
	} while (0)
#define OPB_DOCA(what, call) OPB_CHECK(what, (call) == DOCA_SUCCESS)

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 131u + 7u);
}

static int full_io(int fd, void *p, size_t n, int out)
{
	uint8_t *b = (uint8_t *)p;

	while (n > 0) {
		ssize_t r = out ? send(fd, b, n, MSG_NOSIGNAL) : recv(fd, b, n, 0);

		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

static int opb_connect_socket(struct opb *o)
{
	struct sockaddr_in a;
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(o->port);
	OPB_CHECK("socket", fd >= 0);
	if (o->server == NULL) {
		int lfd = fd;

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		OPB_CHECK("bind", bind(lfd, (struct sockaddr *)&a, sizeof(a)) == 0);
		OPB_CHECK("listen", listen(lfd, 1) == 0);
		fd = accept(lfd, NULL, NULL);
		close(lfd);
		OPB_CHECK("accept", fd >= 0);
	} else {
		int tries = 0;

		OPB_CHECK("server address", inet_pton(AF_INET, o->server, &a.sin_addr) == 1);
		while (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
			OPB_CHECK("connect", ++tries < 200);
			close(fd);
			fd = socket(AF_INET, SOCK_STREAM, 0);
			usleep(50000);
		}
	}
	o->sock = fd;
	return 0;
}

/* The open release's host flow: device, PD, memory, GPU handle, high-level QP on the ibv_pd. */
static int opb_setup(struct opb *o)
{
	struct ibv_device **list;
	struct doca_gpu_verbs_qp_init_attr_hl attr;
	int n = 0;

	list = ibv_get_device_list(&n);
	OPB_CHECK("ibv_get_device_list (no RDMA device: run under opengda-swnic-run)", list != NULL && n > 0);
	for (int i = 0; i < n && o->ibv_ctx == NULL; i++)
		if (o->dev_name == NULL || strcmp(ibv_get_device_name(list[i]), o->dev_name) == 0)
			o->ibv_ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	OPB_CHECK("ibv_open_device", o->ibv_ctx != NULL);
	o->pd = ibv_alloc_pd(o->ibv_ctx);
	OPB_CHECK("ibv_alloc_pd", o->pd != NULL);
	o->buf = (uint8_t *)aligned_alloc(4096, OPB_BYTES);
	OPB_CHECK("aligned_alloc", o->buf != NULL);
	for (size_t i = 0; i < OPB_BYTES; i++)
		o->buf[i] = o->server == NULL ? 0 : pattern(i);
	o->mr = ibv_reg_mr(o->pd, o->buf, OPB_BYTES,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	OPB_CHECK("ibv_reg_mr", o->mr != NULL);
	OPB_DOCA("opengda_gpu_create_host", opengda_gpu_create_host(&o->gpu));

	memset(&attr, 0, sizeof(attr));
	attr.gpu_dev = o->gpu;
	attr.ibpd = o->pd;
	attr.sq_nwqe = 1024;
	attr.nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO;
	attr.mreg_type = DOCA_GPUNETIO_VERBS_MEM_REG_TYPE_DEFAULT;
	OPB_DOCA("doca_gpu_verbs_create_qp_hl", doca_gpu_verbs_create_qp_hl(&attr, &o->qp));
	return 0;
}

/* AH attributes from the ibv_context, then RST -> INIT -> RTR -> RTS with the 2.0 setters. */
static int opb_connect_qp(struct opb *o, const struct opb_peer *remote)
{
	struct doca_verbs_qp_attr *qa = NULL;
	struct doca_verbs_gid gid;
	struct doca_verbs_qp *qp = o->qp->qp;

	memcpy(gid.raw, remote->gid, sizeof(gid.raw));
	OPB_DOCA("doca_verbs_ah_attr_create", doca_verbs_ah_attr_create(o->ibv_ctx, &o->ah));
	OPB_DOCA("ah set_gid", doca_verbs_ah_attr_set_gid(o->ah, gid));
	OPB_DOCA("ah set_addr_type", doca_verbs_ah_attr_set_addr_type(o->ah, DOCA_VERBS_ADDR_TYPE_IPv6));
	OPB_DOCA("ah set_sgid_index", doca_verbs_ah_attr_set_sgid_index(o->ah, 0));
	OPB_DOCA("ah set_hop_limit", doca_verbs_ah_attr_set_hop_limit(o->ah, 255));

	OPB_DOCA("doca_verbs_qp_attr_create", doca_verbs_qp_attr_create(&qa));
	OPB_DOCA("set_next_state INIT", doca_verbs_qp_attr_set_next_state(qa, DOCA_VERBS_QP_STATE_INIT));
	OPB_DOCA("set_allow_remote_write", doca_verbs_qp_attr_set_allow_remote_write(qa, 1));
	OPB_DOCA("set_allow_remote_read", doca_verbs_qp_attr_set_allow_remote_read(qa, 1));
	OPB_DOCA("set_allow_remote_atomic",
		 doca_verbs_qp_attr_set_allow_remote_atomic(qa, DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC));
	OPB_DOCA("set_pkey_index", doca_verbs_qp_attr_set_pkey_index(qa, 0));
	OPB_DOCA("set_port_num", doca_verbs_qp_attr_set_port_num(qa, 1));
	OPB_DOCA("modify to INIT",
		 doca_verbs_qp_modify(qp, qa,
				      DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE |
					      DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ | DOCA_VERBS_QP_ATTR_ATOMIC_MODE |
					      DOCA_VERBS_QP_ATTR_PKEY_INDEX | DOCA_VERBS_QP_ATTR_PORT_NUM));
	OPB_DOCA("set_next_state RTR", doca_verbs_qp_attr_set_next_state(qa, DOCA_VERBS_QP_STATE_RTR));
	OPB_DOCA("set_path_mtu", doca_verbs_qp_attr_set_path_mtu(qa, DOCA_VERBS_MTU_SIZE_1K_BYTES));
	OPB_DOCA("set_rq_psn", doca_verbs_qp_attr_set_rq_psn(qa, 0));
	OPB_DOCA("set_dest_qp_num", doca_verbs_qp_attr_set_dest_qp_num(qa, ntohl(remote->qpn)));
	OPB_DOCA("set_ah_attr", doca_verbs_qp_attr_set_ah_attr(qa, o->ah));
	OPB_DOCA("set_min_rnr_timer", doca_verbs_qp_attr_set_min_rnr_timer(qa, 1));
	OPB_DOCA("modify to RTR",
		 doca_verbs_qp_modify(qp, qa,
				      DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_RQ_PSN |
					      DOCA_VERBS_QP_ATTR_DEST_QP_NUM | DOCA_VERBS_QP_ATTR_PATH_MTU |
					      DOCA_VERBS_QP_ATTR_AH_ATTR | DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER));
	OPB_DOCA("set_next_state RTS", doca_verbs_qp_attr_set_next_state(qa, DOCA_VERBS_QP_STATE_RTS));
	OPB_DOCA("set_sq_psn", doca_verbs_qp_attr_set_sq_psn(qa, 0));
	OPB_DOCA("set_ack_timeout", doca_verbs_qp_attr_set_ack_timeout(qa, 14));
	OPB_DOCA("set_retry_cnt", doca_verbs_qp_attr_set_retry_cnt(qa, 7));
	OPB_DOCA("set_rnr_retry", doca_verbs_qp_attr_set_rnr_retry(qa, 1));
	OPB_DOCA("modify to RTS",
		 doca_verbs_qp_modify(qp, qa,
				      DOCA_VERBS_QP_ATTR_NEXT_STATE | DOCA_VERBS_QP_ATTR_SQ_PSN |
					      DOCA_VERBS_QP_ATTR_ACK_TIMEOUT | DOCA_VERBS_QP_ATTR_RETRY_CNT |
					      DOCA_VERBS_QP_ATTR_RNR_RETRY));
	OPB_DOCA("doca_verbs_qp_attr_destroy", doca_verbs_qp_attr_destroy(qa));
	return 0;
}

struct opb_thread {
	struct doca_gpu_dev_verbs_qp *dqp;
	const struct opb *o;
	struct opb_peer remote;
	unsigned int index;
	int rc;
};

/* One "GPU thread": its messages into its slice of the server's buffer, then its last completion. */
static void *opb_thread_main(void *arg)
{
	struct opb_thread *t = (struct opb_thread *)arg;
	uint64_t ticket = 0;

	for (unsigned int i = 0; i < OPB_PER_THREAD && t->rc == 0; i++) {
		uint64_t off = ((uint64_t)t->index * OPB_PER_THREAD + i) * OPB_MSG;
		struct doca_gpu_dev_verbs_addr raddr, laddr;

		raddr.addr = t->remote.addr + off;
		raddr.key = t->remote.rkey; /* big-endian, as the device API takes keys */
		laddr.addr = (uint64_t)(uintptr_t)(t->o->buf + off);
		laddr.key = htonl(t->o->mr->lkey);
		t->rc = ogda_dev_op_put(t->dqp, raddr, laddr, OPB_MSG, OGDA_DEV_SHARE_GPU,
					DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, 0, &ticket);
	}
	if (t->rc == 0)
		t->rc = ogda_dev_op_wait(t->dqp, ticket, OGDA_DEV_SHARE_GPU);
	return NULL;
}

static int opb_client_puts(struct opb *o, const struct opb_peer *remote)
{
	struct doca_gpu_dev_verbs_qp *dqp = NULL;
	struct opb_thread th[OPB_THREADS];
	pthread_t tid[OPB_THREADS];
	int rc = 0;

	OPB_DOCA("doca_gpu_verbs_get_qp_dev", doca_gpu_verbs_get_qp_dev(o->qp->qp_gverbs, &dqp));
	OPB_DOCA("opengda_gpu_verbs_qp_set_wait_timeout",
		 opengda_gpu_verbs_qp_set_wait_timeout(o->qp->qp_gverbs, OPB_WAIT_NS));
	for (unsigned int i = 0; i < OPB_THREADS; i++) {
		th[i].dqp = dqp;
		th[i].o = o;
		th[i].remote = *remote;
		th[i].index = i;
		th[i].rc = 0;
		OPB_CHECK("pthread_create", pthread_create(&tid[i], NULL, opb_thread_main, &th[i]) == 0);
	}
	for (unsigned int i = 0; i < OPB_THREADS; i++) {
		pthread_join(tid[i], NULL);
		if (th[i].rc != 0) {
			fprintf(stderr, "open_put_bw: thread %u: put or wait failed (%d)\n", i, th[i].rc);
			rc = 1;
		}
	}
	return rc;
}

static void opb_teardown(struct opb *o)
{
	if (o->ah != NULL)
		(void)doca_verbs_ah_attr_destroy(o->ah);
	if (o->qp != NULL)
		(void)doca_gpu_verbs_destroy_qp_hl(o->qp);
	if (o->gpu != NULL)
		(void)doca_gpu_destroy(o->gpu);
	if (o->mr != NULL)
		ibv_dereg_mr(o->mr);
	free(o->buf);
	if (o->pd != NULL)
		ibv_dealloc_pd(o->pd);
	if (o->ibv_ctx != NULL)
		ibv_close_device(o->ibv_ctx);
	if (o->sock >= 0)
		close(o->sock);
}

static int opb_run(struct opb *o)
{
	struct opb_peer mine, remote;
	union ibv_gid gid;
	uint8_t verdict = 1;

	if (opb_setup(o) != 0 || opb_connect_socket(o) != 0)
		return 1;
	OPB_CHECK("ibv_query_gid", ibv_query_gid(o->ibv_ctx, 1, 0, &gid) == 0);
	memset(&mine, 0, sizeof(mine));
	mine.qpn = htonl(doca_verbs_qp_get_qpn(o->qp->qp)); /* the 2.0 value form */
	mine.rkey = htonl(o->mr->rkey);
	mine.addr = (uint64_t)(uintptr_t)o->buf;
	memcpy(mine.gid, gid.raw, sizeof(mine.gid));
	OPB_CHECK("exchange", full_io(o->sock, &mine, sizeof(mine), 1) == 0 &&
				      full_io(o->sock, &remote, sizeof(remote), 0) == 0);
	if (opb_connect_qp(o, &remote) != 0)
		return 1;
	/* Both QPs in RTS before the client writes. */
	OPB_CHECK("ready", full_io(o->sock, &verdict, 1, 1) == 0 && full_io(o->sock, &verdict, 1, 0) == 0);
	if (o->server != NULL) {
		verdict = (uint8_t)(opb_client_puts(o, &remote) == 0);
		OPB_CHECK("done", full_io(o->sock, &verdict, 1, 1) == 0 && full_io(o->sock, &verdict, 1, 0) == 0);
		printf("open_put_bw client: %u puts of %u bytes; server says %s\n", OPB_THREADS * OPB_PER_THREAD,
		       OPB_MSG, verdict ? "every byte landed" : "bytes missing or wrong");
		return verdict ? 0 : 1;
	}
	OPB_CHECK("done", full_io(o->sock, &verdict, 1, 0) == 0);
	if (verdict) {
		for (size_t i = 0; i < OPB_BYTES; i++) {
			if (o->buf[i] != pattern(i)) {
				fprintf(stderr, "open_put_bw server: byte %zu is 0x%02x, expected 0x%02x\n", i,
					o->buf[i], pattern(i));
				verdict = 0;
				break;
			}
		}
	}
	OPB_CHECK("verdict", full_io(o->sock, &verdict, 1, 1) == 0);
	printf("open_put_bw server: %s\n", verdict ? "Validation successful: every byte landed" : "validation failed");
	return verdict ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct opb o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.sock = -1;
	o.port = 18515;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0)
			o.server = NULL;
		else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
			o.server = argv[++i];
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			o.port = (uint16_t)atoi(argv[++i]);
		else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
			o.dev_name = argv[++i];
		else {
			fprintf(stderr, "usage: %s -s | -c SERVER_IPV4 [-p PORT] [-d IBDEV]\n", argv[0]);
			return 2;
		}
	}
	rc = opb_run(&o);
	opb_teardown(&o);
	return rc;
}
