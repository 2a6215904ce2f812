/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Flow steering real frames on the software NIC: in a network namespace of its own with a
 * veth pair, the software NIC's port is attached to one end and Linux sends UDP datagrams from
 * the other. The rules: a root CONTROL pipe sends IPv4 UDP (priority 1) to a BASIC pipe that
 * counts and spreads over two receive queues by RSS; at priority 0, datagrams to port 6001 are
 * dropped and counted, and datagrams to port 6002 go to the kernel (not to a queue) and are
 * counted. Checked: every datagram to other ports arrives exactly once and both queues get
 * some; the counters count frames and bytes; removing the drop entry lets port 6001 through
 * the priority-1 entry; a DNS entry added at priority 0 after the others takes effect.
 *
 * Where namespaces, veth or iproute2 are unavailable the test says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device/ogda_dev_eth_rx.h"
#include "eth/eth_netns.h"
#include "flow_fixture.h"
#include "opengda.h"

#define NIC_IP "10.77.0.1"
#define PORT_RSS 6000
#define PORT_DROP 6001
#define PORT_KERNEL 6002
#define PAYLOAD "steered by DOCA Flow"
#define FRAME_LEN (14u + 20u + 8u + sizeof(PAYLOAD) - 1u)
#define SKIP_CODE 77

static struct ffx fx;

static void neighbour(void)
{
	uint8_t mac[6];
	char cmd[160];

	assert_int_equal(eth_netns_if_mac(ETH_NETNS_NIC_IF, mac), 0);
	snprintf(cmd, sizeof(cmd),
		 "ip neigh replace " NIC_IP " lladdr %02x:%02x:%02x:%02x:%02x:%02x dev " ETH_NETNS_HOST_IF, mac[0],
		 mac[1], mac[2], mac[3], mac[4], mac[5]);
	assert_int_equal(system(cmd), 0);
}

/* One datagram from @sport (its own socket, so that RSS sees a flow per port). */
static void send_udp(uint16_t sport, uint16_t dport)
{
	struct sockaddr_in src = {.sin_family = AF_INET, .sin_port = htons(sport)};
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(dport)};
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(s >= 0);
	src.sin_addr.s_addr = htonl(ETH_NETNS_HOST_IP);
	assert_int_equal(bind(s, (struct sockaddr *)&src, sizeof(src)), 0);
	assert_int_equal(inet_pton(AF_INET, NIC_IP, &dst.sin_addr), 1);
	assert_int_equal(sendto(s, PAYLOAD, sizeof(PAYLOAD) - 1, 0, (struct sockaddr *)&dst, sizeof(dst)),
			 (ssize_t)(sizeof(PAYLOAD) - 1));
	close(s);
}

/* Receives from both queues until @want datagrams came or 0.3 s passed without one; per-queue counts. */
static void receive(uint32_t want, uint32_t got[2])
{
	struct doca_gpu_dev_eth_rxq_attr attr[FFX_BURST];
	uint32_t n, total = 0, k, i;
	uint64_t first;
	int idle;

	got[0] = got[1] = 0;
	for (idle = 0; idle < 2 && total < want;) {
		idle++;
		for (k = 0; k < 2; k++) {
			n = 0;
			assert_int_equal(ogda_dev_eth_rx_recv(fx.rxq[k].h, FFX_BURST, 150000000ull, &first, &n, attr,
							      DOCA_GPUNETIO_ETH_RX_ATTR_ALL),
					 0);
			for (i = 0; i < n; i++) {
				const uint8_t *p = (const uint8_t *)(uintptr_t)ogda_dev_eth_rx_pkt_addr(fx.rxq[k].h, first + i);

				assert_int_equal(attr[i].bytes, FRAME_LEN);
				assert_memory_equal(p + 42, PAYLOAD, sizeof(PAYLOAD) - 1);
			}
			if (n > 0)
				idle = 0;
			got[k] += n;
			total += n;
		}
	}
}

static uint64_t counted(struct doca_flow_pipe_entry *e, uint64_t want)
{
	struct doca_flow_resource_query q;
	int i;

	/* The port's receive thread counts asynchronously: wait up to 2 s for @want. */
	for (i = 0; i < 200; i++) {
		assert_int_equal(doca_flow_resource_query_entry(e, &q), DOCA_SUCCESS);
		if (q.counter.total_pkts >= want)
			break;
		usleep(10000);
	}
	assert_int_equal(q.counter.total_bytes, q.counter.total_pkts * FRAME_LEN);
	return q.counter.total_pkts;
}

static struct doca_flow_pipe_entry *root_udp_port(struct doca_flow_pipe *root, uint16_t dport, uint32_t prio,
						  const struct doca_flow_fwd *fwd)
{
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_pipe_entry *e = NULL;
	struct doca_flow_match m;

	memset(&m, 0, sizeof(m));
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_UDP;
	m.outer.udp.l4_port.dst_port = htons(dport);
	assert_int_equal(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, NULL, NULL, NULL, &mon, prio, fwd, NULL,
							  &e),
			 DOCA_SUCCESS);
	return e;
}

static void test_steering(void **state)
{
	static uint16_t queues[2] = {20, 21};
	struct doca_flow_pipe *udp = NULL, *root = NULL;
	struct doca_flow_pipe_entry *e_udp = NULL, *r_udp = NULL, *r_drop, *r_kernel, *r_dns;
	struct doca_flow_monitor mon = {.counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED};
	struct doca_flow_fwd fwd, miss, drop = ffx_fwd_type(DOCA_FLOW_FWD_DROP), kernel;
	struct doca_flow_pipe_cfg *pc;
	struct doca_flow_port *port;
	struct doca_flow_match m;
	uint32_t got[2], i;

	(void)state;
	ffx_open(&fx, "swnic0");
	assert_int_equal(opengda_eth_port_attach(fx.dev, ETH_NETNS_NIC_IF), DOCA_SUCCESS);
	ffx_rxq_start(&fx, 0, queues[0]);
	ffx_rxq_start(&fx, 1, queues[1]);
	neighbour();
	ffx_flow_init(1, 8, NULL);
	port = ffx_port_start(&fx, 0);

	/* the BASIC pipe, as gpu_packet_processing's UDP pipe */
	pc = ffx_pipe_cfg(port, "GPU_RXQ_UDP_PIPE", DOCA_FLOW_PIPE_BASIC, false, 0);
	memset(&m, 0, sizeof(m));
	m.parser_meta.outer_l3_type = DOCA_FLOW_L3_META_IPV4;
	m.parser_meta.outer_l4_type = DOCA_FLOW_L4_META_UDP;
	assert_int_equal(doca_flow_pipe_cfg_set_match(pc, &m, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_set_monitor(pc, &mon), DOCA_SUCCESS);
	fwd = ffx_fwd_rss(queues, 2, DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_UDP);
	miss = ffx_fwd_type(DOCA_FLOW_FWD_DROP);
	assert_int_equal(doca_flow_pipe_create(pc, &fwd, &miss, &udp), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_basic_add_entry(0, udp, &m, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT,
							NULL, &e_udp),
			 DOCA_SUCCESS);

	/* the root: UDP to the pipe at priority 1, two ports taken first at priority 0 */
	pc = ffx_pipe_cfg(port, "ROOT_PIPE", DOCA_FLOW_PIPE_CONTROL, true, 0);
	assert_int_equal(doca_flow_pipe_create(pc, NULL, NULL, &root), DOCA_SUCCESS);
	assert_int_equal(doca_flow_pipe_cfg_destroy(pc), DOCA_SUCCESS);
	memset(&m, 0, sizeof(m));
	m.outer.eth.type = htons(DOCA_FLOW_ETHER_TYPE_IPV4);
	m.outer.l3_type = DOCA_FLOW_L3_TYPE_IP4;
	m.outer.ip4.next_proto = IPPROTO_UDP;
	fwd = ffx_fwd_pipe(udp);
	assert_int_equal(doca_flow_pipe_control_add_entry(0, root, &m, NULL, NULL, NULL, NULL, NULL, NULL, 1, &fwd, NULL,
							  &r_udp),
			 DOCA_SUCCESS);
	r_drop = root_udp_port(root, PORT_DROP, 0, &drop);
	kernel = ffx_fwd_type(DOCA_FLOW_FWD_TARGET);
	assert_int_equal(doca_flow_get_target(DOCA_FLOW_TARGET_KERNEL, &kernel.target), DOCA_SUCCESS);
	r_kernel = root_udp_port(root, PORT_KERNEL, 0, &kernel);
	assert_int_equal(doca_flow_entries_process(port, 0, 0, 0), DOCA_SUCCESS);

	/* 12 flows to the RSS port: each arrives once, both queues get some */
	for (i = 0; i < 12; i++)
		send_udp((uint16_t)(9000 + 37 * i), PORT_RSS);
	receive(12, got);
	assert_int_equal(got[0] + got[1], 12);
	assert_true(got[0] > 0 && got[1] > 0);
	assert_int_equal(counted(e_udp, 12), 12);

	/* dropped and kernel ports: counted by their entries, delivered to no queue */
	for (i = 0; i < 3; i++)
		send_udp((uint16_t)(9500 + i), PORT_DROP);
	for (i = 0; i < 2; i++)
		send_udp((uint16_t)(9600 + i), PORT_KERNEL);
	assert_int_equal(counted(r_drop, 3), 3);
	assert_int_equal(counted(r_kernel, 2), 2);
	receive(1, got);
	assert_int_equal(got[0] + got[1], 0);
	assert_int_equal(counted(e_udp, 12), 12);

	/* without the drop entry, port 6001 goes to the queues through the priority-1 entry */
	assert_int_equal(doca_flow_pipe_remove_entry(0, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, r_drop), DOCA_SUCCESS);
	for (i = 0; i < 3; i++)
		send_udp((uint16_t)(9700 + i), PORT_DROP);
	receive(3, got);
	assert_int_equal(got[0] + got[1], 3);
	assert_int_equal(counted(e_udp, 15), 15);

	/* an entry added now at priority 0 takes port 53 before the UDP entry (the others move) */
	r_dns = root_udp_port(root, 53, 0, &drop);
	for (i = 0; i < 4; i++)
		send_udp((uint16_t)(9800 + i), 53);
	assert_int_equal(counted(r_dns, 4), 4);
	send_udp(9900, PORT_RSS);
	receive(1, got);
	assert_int_equal(got[0] + got[1], 1);
	assert_int_equal(counted(e_udp, 16), 16);
	assert_int_equal(counted(r_kernel, 2), 2);

	assert_int_equal(doca_flow_entries_process(port, 0, 0, 0), DOCA_SUCCESS);
	assert_int_equal(doca_flow_port_stop(port), DOCA_SUCCESS);
	doca_flow_destroy();
	ffx_rxq_stop(&fx, 0);
	ffx_rxq_stop(&fx, 1);
	assert_int_equal(opengda_eth_port_detach(fx.dev), DOCA_SUCCESS);
	ffx_close(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steering),
	};
	char why[256];

	if (eth_netns_enter(why, sizeof(why)) != 0) {
		fprintf(stderr, "SKIPPED flow_veth: %s; DOCA Flow steering of real frames was NOT tested\n", why);
		return SKIP_CODE;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
