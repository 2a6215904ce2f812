/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Several exported QPs as one flat device array (kernels index it by QP). Each element is a
 * copy of the QP's device view as get_qp_dev would write it, so the array and the QP's own
 * device copy are independent: device code should use one or the other for a QP.
 */
#include "gpunetio/gverbs_qp.h"

#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"
#include "sdk/sdk_forward.h"

#include <stdlib.h>
#include <string.h>

#define DEV_QP_ALIGN 64u

/* Every QP non-NULL, exported and exported with gpu. */
static doca_error_t check_qps(struct doca_gpu *gpu, struct doca_gpu_verbs_qp **qps, uint32_t n, const char *who)
{
	for (uint32_t i = 0; i < n; i++) {
		if (qps[i] == NULL || !gverbs_qp_is_exported(qps[i])) {
			OGDA_LOG_ERR("%s: QP %u is %s", who, i, qps[i] == NULL ? "NULL" : "not an exported QP");
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (qps[i]->gpu != gpu) {
			OGDA_LOG_ERR("%s: QP %u (0x%x) was exported with another GPU handle", who, i, qps[i]->qp_cpu.sq_num);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_export_multi_qps_dev(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp **qps, uint32_t n,
						 struct doca_gpu_dev_verbs_qp **qp_gpus)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_export_multi_qps_dev, (gpu_dev, qps, n, qp_gpus));
	struct doca_gpu_dev_verbs_qp *img, *dev = NULL;
	size_t len;
	doca_error_t err;

	if (gpu_dev == NULL || qps == NULL || qp_gpus == NULL || n == 0) {
		OGDA_LOG_ERR("export_multi_qps_dev: %s", gpu_dev == NULL ? "NULL GPU handle" : qps == NULL ? "NULL QP list"
						       : qp_gpus == NULL ? "NULL output" : "no QPs (n is 0)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_qps(gpu_dev, qps, n, "export_multi_qps_dev");
	if (err != DOCA_SUCCESS)
		return err;
	len = (size_t)n * sizeof(*img);
	img = malloc(len);
	if (img == NULL) {
		OGDA_LOG_ERR("export_multi_qps_dev: out of memory for %u QPs", n);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (uint32_t i = 0; i < n; i++)
		img[i] = qps[i]->qp_cpu;
	err = doca_gpu_mem_alloc(gpu_dev, len, DEV_QP_ALIGN, DOCA_GPU_MEM_TYPE_GPU, (void **)&dev, NULL);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_multi_qps_dev: cannot allocate %zu bytes of device memory", len);
		free(img);
		return err;
	}
	err = ogda_gpu_copy_to_dev(gpu_dev, dev, img, len);
	free(img);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("export_multi_qps_dev: cannot write the device array: %s", doca_error_get_descr(err));
		(void)doca_gpu_mem_free(gpu_dev, dev);
		return err;
	}
	ogda_gpu_export_get(gpu_dev);
	*qp_gpus = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_gpu_verbs_unexport_multi_qps_dev(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp **qps, uint32_t n,
						   struct doca_gpu_dev_verbs_qp *qp_gpus)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_unexport_multi_qps_dev, (gpu_dev, qps, n, qp_gpus));
	doca_error_t err;

	if (gpu_dev == NULL || qps == NULL || qp_gpus == NULL || n == 0) {
		OGDA_LOG_ERR("unexport_multi_qps_dev: %s", gpu_dev == NULL ? "NULL GPU handle" : qps == NULL ? "NULL QP list"
							 : qp_gpus == NULL ? "NULL array" : "no QPs (n is 0)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_qps(gpu_dev, qps, n, "unexport_multi_qps_dev");
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_gpu_mem_free(gpu_dev, qp_gpus);
	if (err != DOCA_SUCCESS) {
		OGDA_LOG_ERR("unexport_multi_qps_dev: %p is not an array from export_multi_qps_dev", (void *)qp_gpus);
		return err == DOCA_ERROR_NOT_FOUND ? DOCA_ERROR_INVALID_VALUE : err;
	}
	ogda_gpu_export_put(gpu_dev);
	return DOCA_SUCCESS;
}
