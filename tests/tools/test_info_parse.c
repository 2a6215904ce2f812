/* SPDX-License-Identifier: BSD-3-Clause */
/* opengda-info's pure parts: parsers, the PCIe classifier, ACS config-space walk, JSON writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "parse.h"
#include "pci_topo.h"

static void versions(void **state)
{
	unsigned int v[3];
	const unsigned int min[3] = {1, 14, 44};
	char out[32];

	(void)state;
	assert_true(info_ibverbs_version_from_file("/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0", out, sizeof(out)));
	assert_string_equal(out, "1.14.44");
	assert_true(info_ibverbs_version_from_file("libibverbs.so.1.14.50.0", out, sizeof(out)));
	assert_string_equal(out, "1.14.50");
	assert_false(info_ibverbs_version_from_file("/lib/libibverbs.so.1", out, sizeof(out)));
	assert_false(info_ibverbs_version_from_file("/lib/libmlx5.so.1.24.44.0", out, sizeof(out)));
	assert_true(info_parse_version3("1.14.43", v));
	assert_true(info_version_cmp(v, min) < 0);
	assert_true(info_parse_version3("1.15.0", v));
	assert_true(info_version_cmp(v, min) > 0);
	assert_true(info_parse_version3("1.14.44", v));
	assert_int_equal(info_version_cmp(v, min), 0);
	assert_false(info_parse_version3("v1.2", v));
	assert_true(info_kernel_at_least("6.2.0", 6, 2));
	assert_true(info_kernel_at_least("6.18.44-fc-v669", 6, 2));
	assert_true(info_kernel_at_least("7.0", 6, 2));
	assert_false(info_kernel_at_least("6.1.0-55-amd64", 6, 2));
	assert_false(info_kernel_at_least("5.15.0-105-generic", 6, 2));
	assert_false(info_kernel_at_least("", 6, 2));
}

static void nvidia_files(void **state)
{
	char ver[64];

	(void)state;
	assert_int_equal(info_parse_nv_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  "
					       "Release Build  (dvs-builder@U16)  Thu Jan 23 2025\nGCC version: 12\n",
					       ver, sizeof(ver)),
			 INFO_MODULE_OPEN);
	assert_string_equal(ver, "570.86.15");
	assert_int_equal(info_parse_nv_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May",
					       ver, sizeof(ver)),
			 INFO_MODULE_PROPRIETARY);
	assert_string_equal(ver, "535.183.01");
	assert_int_equal(info_parse_nv_version("something else", ver, sizeof(ver)), INFO_MODULE_NONE);
	assert_string_equal(ver, "");

	assert_int_equal(info_parse_peer_mapping_override("RegistryDwords: \"PeerMappingOverride=1;\"\n"), INFO_YES);
	assert_int_equal(info_parse_peer_mapping_override("A: 1\nRegistryDwords: \"RmX=2;PeerMappingOverride=0x1\"\n"),
			 INFO_YES);
	assert_int_equal(info_parse_peer_mapping_override("RegistryDwords: \"PeerMappingOverride=0;\"\n"), INFO_NO);
	assert_int_equal(info_parse_peer_mapping_override("RegistryDwords: \"\"\n"), INFO_NO);
	/* Only the RegistryDwords line counts, and only the whole name. */
	assert_int_equal(info_parse_peer_mapping_override("Other: \"PeerMappingOverride=1;\"\n"), INFO_NO);
	assert_int_equal(info_parse_peer_mapping_override("RegistryDwords: \"XPeerMappingOverride=1;\"\n"), INFO_NO);
	assert_int_equal(info_parse_peer_mapping_override(NULL), INFO_UNKNOWN);
}

static void bars_cmdline_sizes(void **state)
{
	static const char res[] = "0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n"
				  "0x0000380000000000 0x0000380fffffffff 0x000000000014220c\n"
				  "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	uint64_t n;
	char bdf[16];

	(void)state;
	assert_int_equal(info_parse_bar_size(res, 0), 16u << 20);
	assert_true(info_parse_bar_size(res, 1) == 64ull << 30);
	assert_int_equal(info_parse_bar_size(res, 2), 0);
	assert_int_equal(info_parse_bar_size(res, 7), 0);
	assert_true(info_parse_gpu_bar1_size(res) == 64ull << 30);
	/* An H200 in a VM: BAR0 is 64-bit too, so BAR1 is on line 2. */
	assert_true(info_parse_gpu_bar1_size("0x0000104002000000 0x0000104002ffffff 0x000000000014220c\n"
					     "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
					     "0x0000100000000000 0x0000103fffffffff 0x000000000014220c\n"
					     "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
					     "0x0000104000000000 0x0000104001ffffff 0x000000000014220c\n") == 256ull << 30);
	assert_int_equal(info_parse_gpu_bar1_size("0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n"), 0);
	/* The expansion ROM (line 6) is not a BAR. */
	assert_int_equal(info_parse_gpu_bar1_size("0x1000 0x1fff 0x200\n\n\n\n\n\n0x2000 0x2fff 0x200\n"), 0);
	assert_true(info_cmdline_has("ro iommu=pt quiet\n", "iommu=pt"));
	assert_false(info_cmdline_has("ro amd_iommu=pt quiet", "iommu=pt"));
	assert_false(info_cmdline_has("ro iommu=ptx", "iommu=pt"));
	assert_true(info_parse_size("1G", &n) && n == 1ull << 30);
	assert_true(info_parse_size("256MiB", &n) && n == 256ull << 20);
	assert_true(info_parse_size("4096", &n) && n == 4096);
	assert_false(info_parse_size("1X", &n));
	assert_false(info_parse_size("-1", &n));
	assert_false(info_parse_size("99999999999T", &n));
	assert_true(info_normalize_bdf("00000000:CA:00.0", bdf, sizeof(bdf)));
	assert_string_equal(bdf, "0000:ca:00.0");
	assert_false(info_normalize_bdf("0000:ca:00", bdf, sizeof(bdf)));
	assert_true(info_is_bdf("0000:ca:00.0"));
	assert_false(info_is_bdf("pci0000:00"));
}

static enum info_topo classify(const char *g, const char *n, int gnuma, int nnuma, char *bridges, size_t len)
{
	struct info_pci_chain gc, nc;
	struct info_bridge br[INFO_MAX_BRIDGES];
	enum info_topo t;
	int nb = 0;

	assert_true(info_pci_chain_parse(g, &gc));
	assert_true(info_pci_chain_parse(n, &nc));
	t = info_topo_classify(&gc, &nc, gnuma, nnuma, br, INFO_MAX_BRIDGES, &nb);
	bridges[0] = '\0';
	for (int i = 0; i < nb && i < INFO_MAX_BRIDGES; i++) {
		assert_int_equal(br[i].acs, INFO_ACS_UNREADABLE);
		snprintf(bridges + strlen(bridges), len - strlen(bridges), "%s%s", i ? " " : "", br[i].bdf);
	}
	return t;
}

static void topology(void **state)
{
	char b[256];
	struct info_pci_chain c;

	(void)state;
	assert_true(info_pci_chain_parse("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0", &c));
	assert_string_equal(c.host, "pci0000:00");
	assert_int_equal(c.n, 2);
	assert_string_equal(c.fn[1], "0000:01:00.0");
	assert_false(info_pci_chain_parse("/sys/devices/virtual/net/lo", &c));
	assert_false(info_pci_chain_parse("/sys/devices/pci0000:00", &c));

	/* One bridge above both. */
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:02.0/0000:05:00.0",
				  "/s/devices/pci0000:00/0000:00:02.0/0000:05:00.1", 0, 0, b, sizeof(b)),
			 INFO_TOPO_PIX);
	assert_string_equal(b, "0000:00:02.0");
	/* One switch: upstream port 01:00.0, a downstream port each. */
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0",
				  "/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0", 0, 0, b,
				  sizeof(b)),
			 INFO_TOPO_PIX);
	assert_string_equal(b, "0000:01:00.0 0000:02:00.0 0000:02:01.0");
	/* Two switch levels on one side. */
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0/"
				  "0000:04:00.0/0000:05:00.0",
				  "/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:06:00.0", 0, 0, b,
				  sizeof(b)),
			 INFO_TOPO_PXB);
	assert_string_equal(b, "0000:01:00.0 0000:02:00.0 0000:03:00.0 0000:04:00.0 0000:02:01.0");
	/* Different root ports, and devices straight on the root bus (a VM): through the host bridge. */
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0",
				  "/s/devices/pci0000:00/0000:00:03.0/0000:06:00.0", 0, 0, b, sizeof(b)),
			 INFO_TOPO_PHB);
	assert_string_equal(b, "0000:00:01.0 0000:00:03.0");
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:04.0", "/s/devices/pci0000:00/0000:00:05.0", -1, -1,
				  b, sizeof(b)),
			 INFO_TOPO_PHB);
	assert_string_equal(b, "");
	/* Host bridges: same node, unknown node, different nodes. */
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0",
				  "/s/devices/pci0000:40/0000:40:01.0/0000:41:00.0", 0, 0, b, sizeof(b)),
			 INFO_TOPO_NODE);
	assert_string_equal(b, "0000:00:01.0 0000:40:01.0");
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0",
				  "/s/devices/pci0000:80/0000:80:01.0/0000:81:00.0", -1, 1, b, sizeof(b)),
			 INFO_TOPO_NODE);
	assert_int_equal(classify("/s/devices/pci0000:00/0000:00:01.0/0000:01:00.0",
				  "/s/devices/pci0000:80/0000:80:01.0/0000:81:00.0", 0, 1, b, sizeof(b)),
			 INFO_TOPO_SYS);
	assert_int_equal(info_topo_classify(NULL, &c, 0, 0, NULL, 0, NULL), INFO_TOPO_UNKNOWN);
}

static void acs(void **state)
{
	uint8_t cfg[4096];
	uint16_t ctl = 0xffff;
	char bits[128];

	(void)state;
	memset(cfg, 0, sizeof(cfg));
	assert_int_equal(info_acs_parse(cfg, 64, &ctl), INFO_ACS_UNREADABLE);
	assert_int_equal(ctl, 0);
	assert_int_equal(info_acs_parse(cfg, sizeof(cfg), &ctl), INFO_ACS_ABSENT);
	/* AER (0x0001) at 0x100 -> ACS (0x000d) at 0x148, control 0x001c at 0x14e. */
	cfg[0x100] = 0x01;
	cfg[0x102] = 0x81; /* version 1; next = 0x148 in bits 31:20 */
	cfg[0x103] = 0x14;
	cfg[0x148] = 0x0d;
	cfg[0x14a] = 0x01;
	cfg[0x14e] = 0x1c;
	assert_int_equal(info_acs_parse(cfg, sizeof(cfg), &ctl), INFO_ACS_PRESENT);
	assert_int_equal(ctl, 0x001c);
	assert_int_equal(ctl & INFO_ACS_CTL_REDIRECTS, INFO_ACS_CTL_REQ_REDIR | INFO_ACS_CTL_CMPLT_REDIR);
	info_acs_ctl_format(ctl, bits, sizeof(bits));
	assert_string_equal(bits, "ReqRedir+ CmpltRedir+ UpstreamFwd+");
	info_acs_ctl_format(0, bits, sizeof(bits));
	assert_string_equal(bits, "none");
	/* Read only to 0x14c: the capability is there but its control is not. */
	assert_int_equal(info_acs_parse(cfg, 0x14c, &ctl), INFO_ACS_UNREADABLE);
	/* A list that points back at itself ends instead of looping. */
	cfg[0x102] = 0x01;
	cfg[0x103] = 0x10; /* next = 0x100 */
	assert_int_equal(info_acs_parse(cfg, sizeof(cfg), &ctl), INFO_ACS_ABSENT);
}

static void json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;

	(void)state;
	assert_non_null(f);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "s", "a\"b\\c\n\t\x01 \xc3\xa9 \xff!");
	json_array_begin(&j, "a");
	json_int(&j, NULL, -3);
	json_uint(&j, NULL, 18446744073709551615ull);
	json_bool(&j, NULL, true);
	json_null(&j, NULL);
	json_array_end(&j);
	json_object_begin(&j, "empty");
	json_object_end(&j);
	json_string(&j, "n", NULL);
	json_object_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\n"
				 "  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001 \xc3\xa9 \\ufffd!\",\n"
				 "  \"a\": [\n"
				 "    -3,\n"
				 "    18446744073709551615,\n"
				 "    true,\n"
				 "    null\n"
				 "  ],\n"
				 "  \"empty\": {},\n"
				 "  \"n\": null\n"
				 "}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(versions),   cmocka_unit_test(nvidia_files), cmocka_unit_test(bars_cmdline_sizes),
		cmocka_unit_test(topology),   cmocka_unit_test(acs),          cmocka_unit_test(json_writer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
