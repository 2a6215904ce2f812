/* SPDX-License-Identifier: BSD-3-Clause */
#include "core_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opengda_gpunetio.h"

int cfx_setup(void **state)
{
	struct cfx *f = calloc(1, sizeof(*f));
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n = 0;

	assert_non_null(f);
	assert_int_equal(doca_devinfo_create_list(&f->list, &n), DOCA_SUCCESS);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(doca_devinfo_get_ibdev_name(f->list[i], name, sizeof(name)), DOCA_SUCCESS);
		if (strcmp(name, "swnic0") == 0)
			f->info = f->list[i];
	}
	assert_non_null(f->info);
	assert_int_equal(doca_dev_open(f->info, &f->dev), DOCA_SUCCESS);
	assert_int_equal(opengda_gpu_create_host(&f->gpu), DOCA_SUCCESS);
	assert_int_equal(posix_memalign((void **)&f->buf, 4096, CFX_BUF_LEN), 0);
	memset(f->buf, 0, CFX_BUF_LEN);
	*state = f;
	return 0;
}

int cfx_teardown(void **state)
{
	struct cfx *f = *state;

	assert_int_equal(doca_gpu_destroy(f->gpu), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_devinfo_destroy_list(f->list), DOCA_SUCCESS);
	free(f->buf);
	free(f);
	return 0;
}

struct doca_mmap *cfx_mmap(struct cfx *f, size_t off, size_t len, uint32_t access)
{
	return cfx_mmap_range(f, f->buf + off, len, access);
}

struct doca_mmap *cfx_mmap_range(struct cfx *f, void *addr, size_t len, uint32_t access)
{
	struct doca_mmap *m = NULL;

	assert_int_equal(doca_mmap_create(&m), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_add_dev(m, f->dev), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_memrange(m, addr, len), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_set_permissions(m, access), DOCA_SUCCESS);
	assert_int_equal(doca_mmap_start(m), DOCA_SUCCESS);
	return m;
}
