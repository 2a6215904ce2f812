/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_devinfo queries: what the software NIC models (PCI address in domain ffff, its fabric
 * endpoint 127.0.0.1 on "lo", MAC 02:00 + the address), a ConnectX answered from a fake sysfs
 * tree, PCI address comparison in both formats, and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core_fixture.h"
#include "gpunetio/gpu_test_log.h"
#include "verbs/verbs_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void core_devinfo_set_sysfs_root(const char *root);

static void test_swnic_model(void **state)
{
	struct cfx *f = *state;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], ifname[DOCA_DEVINFO_IFACE_NAME_SIZE];
	const uint8_t want_mac[6] = {0x02, 0x00, 127, 0, 0, 1}, want_ip[4] = {127, 0, 0, 1};
	uint8_t mac[6], ip[4], eq = 9;

	assert_int_equal(doca_devinfo_get_pci_addr_str(f->info, pci), DOCA_SUCCESS);
	assert_string_equal(pci, "ffff:00:00.0");
	assert_int_equal(doca_devinfo_is_equal_pci_addr(f->info, "FFFF:00:00.0", &eq), DOCA_SUCCESS);
	assert_int_equal(eq, 1);
	assert_int_equal(doca_devinfo_is_equal_pci_addr(f->info, "00:00.0", &eq), DOCA_SUCCESS);
	assert_int_equal(eq, 1);
	assert_int_equal(doca_devinfo_is_equal_pci_addr(f->info, "0000:00:00.0", &eq), DOCA_SUCCESS);
	assert_int_equal(eq, 0);
	assert_int_equal(doca_devinfo_get_mac_addr(f->info, mac, sizeof(mac)), DOCA_SUCCESS);
	assert_memory_equal(mac, want_mac, 6);
	assert_int_equal(doca_devinfo_get_ipv4_addr(f->info, ip, sizeof(ip)), DOCA_SUCCESS);
	assert_memory_equal(ip, want_ip, 4);
	assert_int_equal(doca_devinfo_get_iface_name(f->info, ifname, sizeof(ifname)), DOCA_SUCCESS);
	assert_string_equal(ifname, "lo");
	/* the same through an open device */
	assert_int_equal(doca_devinfo_get_pci_addr_str(doca_dev_as_devinfo(f->dev), pci), DOCA_SUCCESS);
	assert_string_equal(pci, "ffff:00:00.0");
}

static void put_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* A ConnectX "mlx5_7" at 0000:3A:00.1 with interface eth9 (no IPv4 address on this host). */
static void test_connectx_from_sysfs(void **state)
{
	char root[] = "/tmp/ogda-sysfs-XXXXXX", p[512], q[512];
	struct doca_devinfo hw = {.name = "mlx5_7"}, missing = {.name = "mlx5_8"};
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], ifname[DOCA_DEVINFO_IFACE_NAME_SIZE];
	const uint8_t want_mac[6] = {0x0c, 0x42, 0xa1, 0x12, 0x34, 0x56};
	uint8_t mac[6], ip[4], eq = 9;
	const char *dirs[] = {"class", "class/infiniband", "class/infiniband/mlx5_7", "class/net", "class/net/eth9",
			      "devices", "devices/0000:3A:00.1", "devices/0000:3A:00.1/net",
			      "devices/0000:3A:00.1/net/eth9"};

	(void)state;
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof(p), "%s/class/infiniband/mlx5_7/device", root);
	assert_int_equal(symlink("../../../devices/0000:3A:00.1", p), 0);
	snprintf(p, sizeof(p), "%s/class/net/eth9/address", root);
	put_file(p, "0c:42:a1:12:34:56\n");
	core_devinfo_set_sysfs_root(root);

	assert_int_equal(doca_devinfo_get_pci_addr_str(&hw, pci), DOCA_SUCCESS);
	assert_string_equal(pci, "0000:3a:00.1");
	assert_int_equal(doca_devinfo_is_equal_pci_addr(&hw, "3a:00.1", &eq), DOCA_SUCCESS);
	assert_int_equal(eq, 1);
	assert_int_equal(doca_devinfo_get_iface_name(&hw, ifname, sizeof(ifname)), DOCA_SUCCESS);
	assert_string_equal(ifname, "eth9");
	assert_int_equal(doca_devinfo_get_mac_addr(&hw, mac, sizeof(mac)), DOCA_SUCCESS);
	assert_memory_equal(mac, want_mac, 6);
	EXPECT_LOGGED_ERR(doca_devinfo_get_ipv4_addr(&hw, ip, sizeof(ip)), DOCA_ERROR_NOT_FOUND, "ifaddr_lookup");
	EXPECT_LOGGED_ERR(doca_devinfo_get_pci_addr_str(&missing, pci), DOCA_ERROR_OPERATING_SYSTEM, "hw_pci");
	EXPECT_LOGGED_ERR(doca_devinfo_get_iface_name(&missing, ifname, sizeof(ifname)), DOCA_ERROR_OPERATING_SYSTEM,
			  "hw_iface");
	/* an address file without an Ethernet address */
	put_file(p, "garbage\n");
	EXPECT_LOGGED_ERR(doca_devinfo_get_mac_addr(&hw, mac, sizeof(mac)), DOCA_ERROR_NOT_SUPPORTED, "hw_mac");

	core_devinfo_set_sysfs_root(NULL);
	unlink(p);
	snprintf(q, sizeof(q), "%s/class/infiniband/mlx5_7/device", root);
	unlink(q);
	for (size_t i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		assert_int_equal(rmdir(p), 0);
	}
	assert_int_equal(rmdir(root), 0);
}

static void test_bad_input(void **state)
{
	struct cfx *f = *state;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], ifname[DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint8_t mac[6], ip[4], eq;

	EXPECT_LOGGED_ERR(doca_devinfo_get_pci_addr_str(NULL, pci), DOCA_ERROR_INVALID_VALUE,
			  "doca_devinfo_get_pci_addr_str");
	EXPECT_LOGGED_ERR(doca_devinfo_get_pci_addr_str(f->info, NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_devinfo_get_pci_addr_str");
	EXPECT_LOGGED_ERR(doca_devinfo_is_equal_pci_addr(f->info, "ffff:0:0.0", &eq), DOCA_ERROR_INVALID_VALUE,
			  "doca_devinfo_is_equal_pci_addr");
	EXPECT_LOGGED_ERR(doca_devinfo_is_equal_pci_addr(f->info, NULL, &eq), DOCA_ERROR_INVALID_VALUE,
			  "doca_devinfo_is_equal_pci_addr");
	EXPECT_LOGGED_ERR(doca_devinfo_is_equal_pci_addr(f->info, "00:00.0", NULL), DOCA_ERROR_INVALID_VALUE,
			  "doca_devinfo_is_equal_pci_addr");
	EXPECT_LOGGED_ERR(doca_devinfo_get_iface_name(f->info, ifname, 16), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
	EXPECT_LOGGED_ERR(doca_devinfo_get_iface_name(NULL, ifname, sizeof(ifname)), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
	EXPECT_LOGGED_ERR(doca_devinfo_get_mac_addr(f->info, mac, 5), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
	EXPECT_LOGGED_ERR(doca_devinfo_get_mac_addr(f->info, NULL, 6), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
	EXPECT_LOGGED_ERR(doca_devinfo_get_ipv4_addr(f->info, ip, 3), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
	EXPECT_LOGGED_ERR(doca_devinfo_get_ipv4_addr(NULL, ip, 4), DOCA_ERROR_INVALID_VALUE,
			  "check_out");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_swnic_model, cfx_setup, cfx_teardown),
		cmocka_unit_test(test_connectx_from_sysfs),
		cmocka_unit_test_setup_teardown(test_bad_input, cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
