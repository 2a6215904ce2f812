/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_packet_processing's kernels, shaped as the SDK application's: UDP and TCP each run one
 * persistent kernel with a block per queue looping on doca_gpu_dev_eth_rxq_recv<BLOCK>; every
 * thread classifies its share of the packets, the counts are summed in shared memory and handed
 * to the CPU through the queue's semaphore (written while the CPU left it FREE, then READY). The
 * ICMP kernel is one warp receiving with recv<WARP>, answering echo requests from the packet
 * buffer itself through the send queue (send<GPU, ..., THREAD> per reply, the last one NOTIFY and
 * waited for before the next receive). With -s, the HTTP queues run the UDP/TCP kernel too (a
 * block per queue, handing each GET to its server through a semaphore item) and a server warp per
 * HTTP queue answers them (gpp_http.h).
 */
#include <cuda_runtime_api.h>

#include "device/doca_gpunetio_dev_eth_rxq.cuh"
#include "device/doca_gpunetio_dev_eth_txq.cuh"
#include "gpp.h"

/* The HTTP receiver's step for a packet: a GET goes to the server through the next semaphore item. */
__device__ static void gpp_http_step(const struct gpp_args *a, uint32_t *next_slot, const uint8_t *p, uint32_t len,
				     struct gpp_stats *mine)
{
	struct gpp_http_req r;

	if (!gpp_http_parse(p, len, &r))
		return;
	if (gpp_http_hand_over(&a->hq[blockIdx.x], atomicAdd(next_slot, 1u) % GPP_HTTP_SLOTS, &r) == 0) {
		mine->a++;
	} else {
		mine->b++;
		atomicCAS((int *)a->status, 0, -(int)DOCA_ERROR_TIME_OUT);
	}
}

/* UDP, TCP or HTTP: block b serves queue first_q + b. */
__global__ void gpp_classify_kernel(struct gpp_args a, uint32_t first_q)
{
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[GPP_RECV_MAX];
	__shared__ unsigned long long sum[5];
	__shared__ uint32_t next_slot;
	const struct gpp_queue_args *q = &a.q[first_q + blockIdx.x];
	struct gpp_stats total = {0, 0, 0, 0, 0};
	doca_error_t err;

	if (threadIdx.x == 0)
		next_slot = 0;
	__syncthreads();
	while (*a.exit_flag == 0) {
		err = doca_gpu_dev_eth_rxq_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK, DOCA_GPUNETIO_ETH_MCST_AUTO,
						DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(
			q->rxq, GPP_RECV_MAX, GPP_RECV_TIMEOUT_NS, &first, &num, attr);
		if (err != DOCA_SUCCESS) {
			if (threadIdx.x == 0)
				atomicCAS((int *)a.status, 0, -(int)err);
			break;
		}
		if (threadIdx.x < 5)
			sum[threadIdx.x] = 0;
		__syncthreads();
		{
			struct gpp_stats mine = {0, 0, 0, 0, 0};

			for (uint32_t i = threadIdx.x; i < num; i += blockDim.x) {
				const uint8_t *p = (const uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(q->rxq, first + i);

				gpp_classify(q->cls, p, attr[i].bytes, &mine);
				if (q->cls == GPP_HTTP)
					gpp_http_step(&a, &next_slot, p, attr[i].bytes, &mine);
			}
			atomicAdd(&sum[0], (unsigned long long)mine.packets);
			atomicAdd(&sum[1], (unsigned long long)mine.bytes);
			atomicAdd(&sum[2], (unsigned long long)mine.a);
			atomicAdd(&sum[3], (unsigned long long)mine.b);
			atomicAdd(&sum[4], (unsigned long long)mine.c);
		}
		__syncthreads();
		if (threadIdx.x == 0 && num != 0) {
			total.packets += sum[0];
			total.bytes += sum[1];
			total.a += sum[2];
			total.b += sum[3];
			total.c += sum[4];
			gpp_publish(q, &total, 0);
		}
		__syncthreads();
	}
	if (threadIdx.x == 0)
		gpp_publish(q, &total, 1);
}

/* ICMP: one warp. */
__global__ void gpp_icmp_kernel(struct gpp_args a)
{
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[GPP_ICMP_RECV_MAX];
	const struct gpp_queue_args *q = &a.q[2 * a.nq];
	struct gpp_stats total = {0, 0, 0, 0, 0};
	doca_error_t err;

	while (*a.exit_flag == 0) {
		uint32_t replies, mine = 0, done = 0;

		err = doca_gpu_dev_eth_rxq_recv<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP, DOCA_GPUNETIO_ETH_MCST_AUTO,
						DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(
			q->rxq, GPP_ICMP_RECV_MAX, GPP_ICMP_TIMEOUT_NS, &first, &num, attr);
		if (err != DOCA_SUCCESS) {
			if (threadIdx.x == 0)
				atomicCAS((int *)a.status, 0, -(int)err);
			break;
		}
		for (uint32_t i = threadIdx.x; i < num; i += 32) {
			uint8_t *p = (uint8_t *)doca_gpu_dev_eth_rxq_get_pkt_addr(q->rxq, first + i);

			if (gpp_icmp_reply(p, attr[i].bytes)) {
				mine++;
				doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
							  DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
							  DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
					a.txq, (uint64_t)(uintptr_t)p, doca_gpu_dev_eth_rxq_get_pkt_mkey(q->rxq), attr[i].bytes,
					DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
			}
		}
		replies = __reduce_add_sync(0xffffffffu, mine);
		/* every reply asked for a CQE: wait for all before their buffers may come round again */
		if (replies != 0 && threadIdx.x == 0) {
			err = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_ALL>(
				a.txq, replies, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
			if (err != DOCA_SUCCESS)
				atomicCAS((int *)a.status, 0, -(int)err);
		}
		__syncwarp();
		if (threadIdx.x == 0 && num != 0) {
			total.packets += num;
			for (uint32_t i = 0; i < num; i++)
				total.bytes += attr[i].bytes;
			total.a += replies;
			total.b += replies;
			gpp_publish(q, &total, 0);
		}
		__syncwarp();
	}
	if (threadIdx.x == 0)
		gpp_publish(q, &total, 1);
}

/*
 * An HTTP queue's server: one warp (block b serves HTTP queue b). Lane 0 waits for the next item
 * to be READY, the warp writes the answer, lane 0 sends it, waits for its completion (the buffer
 * is then free) and sets the item FREE.
 */
__global__ void gpp_http_server_kernel(struct gpp_args a)
{
	__shared__ struct gpp_http_req r;
	__shared__ int state; /* 0 waiting, 1 an item to answer, 2 leave */
	const struct gpp_http_queue *hq = &a.hq[blockIdx.x];
	uint64_t served = 0;
	uint32_t slot = 0, done = 0;
	doca_error_t err;

	for (;;) {
		if (threadIdx.x == 0) {
			state = 0;
			while (state == 0) {
				if (gpp_http_pending(hq, slot, &r))
					state = 1;
				else if (*a.exit_flag != 0)
					state = 2;
			}
		}
		__syncwarp();
		if (state == 2)
			break;
		gpp_http_reply(gpp_http_frame(hq, slot), &a.pages, &r, threadIdx.x, 32);
		__threadfence();
		__syncwarp();
		if (threadIdx.x == 0) {
			doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE, DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
						  DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(
				hq->txq, hq->frames + (uint64_t)slot * GPP_HTTP_FRAME, hq->frames_mkey_be,
				gpp_http_reply_len(&a.pages, &r), DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY);
			/* looked for rather than waited for: the exit flag ends a wait for a lost completion */
			do {
				err = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_ALL,
									   DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE>(
					hq->txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_NB, &done);
			} while (err == DOCA_ERROR_AGAIN && *a.exit_flag == 0);
			if (err == DOCA_ERROR_AGAIN) {
				state = 2; /* leaving with the answer in flight */
			} else if (err != DOCA_SUCCESS) {
				atomicCAS((int *)a.status, 0, -(int)err);
				state = 2;
			} else {
				gpp_http_served(hq, slot, ++served);
			}
		}
		__syncwarp();
		if (state == 2)
			break;
		slot = (slot + 1u) % GPP_HTTP_SLOTS;
	}
}

/*
 * The persistent kernels run side by side, each on a stream of its own (blocking streams:
 * the caller's wait on the legacy default stream covers them all).
 */
extern "C" int gpp_launch(const struct gpp_args *a)
{
	static cudaStream_t st[5];
	int i;

	struct cudaFuncAttributes fa;

	/*
	 * Load every kernel before the first one starts: with CUDA's lazy module loading, a kernel
	 * loaded while persistent kernels spin may not start until they end.
	 */
	if (cudaFuncGetAttributes(&fa, gpp_classify_kernel) != cudaSuccess ||
	    cudaFuncGetAttributes(&fa, gpp_icmp_kernel) != cudaSuccess ||
	    cudaFuncGetAttributes(&fa, gpp_http_server_kernel) != cudaSuccess)
		return -1;
	for (i = 0; i < 5; i++)
		if (st[i] == nullptr && cudaStreamCreate(&st[i]) != cudaSuccess)
			return -1;
	gpp_classify_kernel<<<a->nq, 256, 0, st[0]>>>(*a, 0);
	gpp_classify_kernel<<<a->nq, 256, 0, st[1]>>>(*a, a->nq);
	gpp_icmp_kernel<<<1, 32, 0, st[2]>>>(*a);
	if (a->http) {
		gpp_classify_kernel<<<a->nq, 256, 0, st[3]>>>(*a, 2 * a->nq + 1);
		gpp_http_server_kernel<<<a->nq, 32, 0, st[4]>>>(*a);
	}
	return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;
}
