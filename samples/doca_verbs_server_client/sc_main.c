/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * doca_verbs_server_client: two processes connect one RC (or UC) QP each through DOCA
 * Verbs, exchange their addresses over TCP, and move -n messages of -s bytes by SEND,
 * RDMA WRITE or RDMA READ; the receiving end checks every byte. docs/samples.md has the
 * walk-through.
 */
#include <stdio.h>

#include "sample_util.h"
#include "sc_config.h"
#include "sc_run.h"

int main(int argc, char **argv)
{
	struct sc_config cfg;
	struct sc_run run;
	int rc;

	sample_set_prog("doca_verbs_server_client");
	if (sc_parse_args(argc, argv, &cfg) != 0)
		return SAMPLE_EXIT_USAGE;
	if (cfg.help) {
		sc_print_usage();
		return SAMPLE_EXIT_SUCCESS;
	}
	if (cfg.version) {
		sample_print_version();
		return SAMPLE_EXIT_SUCCESS;
	}
	rc = sc_setup(&run, &cfg);
	if (rc == 0)
		rc = sc_connect(&run);
	if (rc == 0)
		rc = cfg.server_ip == NULL ? sc_server_run(&run) : sc_client_run(&run);
	if (rc != 0)
		sc_abort(&run);
	sc_teardown(&run);
	if (rc == 0) {
		sample_info("%s x%u of %u bytes: success", sc_op_name(cfg.op), cfg.iters, cfg.size);
		return SAMPLE_EXIT_SUCCESS;
	}
	sample_info("%s x%u of %u bytes: FAILED: %s", sc_op_name(cfg.op), cfg.iters, cfg.size, sample_first_error());
	return SAMPLE_EXIT_FAILURE;
}
