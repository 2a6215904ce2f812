/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flat device arrays of high-level QPs. DOCA's destroy call takes only the array, so the library
 * remembers, per array, the GPU handle and QPs it was built from (a short list under a mutex).
 */
#include "core/log.h"
#include "gpunetio/gpunetio_priv.h"

#include "doca_gpunetio_high_level.h"
#include "sdk/sdk_forward.h"

#include <pthread.h>
#include <stdlib.h>

struct flat_list {
	struct doca_gpu_dev_verbs_qp *qp_gpus;
	struct doca_gpu *gpu;
	struct doca_gpu_verbs_qp **qps;
	uint32_t n;
	struct flat_list *next;
};

static pthread_mutex_t flat_lock = PTHREAD_MUTEX_INITIALIZER;
static struct flat_list *flat_head;

doca_error_t doca_gpu_verbs_qp_flat_list_create_hl(struct doca_gpu_verbs_qp_hl **qp_list, uint32_t num_elems,
						   struct doca_gpu_dev_verbs_qp **qp_gpus)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_qp_flat_list_create_hl, (qp_list, num_elems, qp_gpus));
	struct flat_list *f;
	struct doca_gpu *gpu = NULL;
	doca_error_t err;
	uint32_t i;

	if (qp_list == NULL || qp_gpus == NULL || num_elems == 0) {
		OGDA_LOG_ERR("qp_flat_list_create_hl: NULL list or output, or no elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL || (f->qps = calloc(num_elems, sizeof(*f->qps))) == NULL) {
		free(f);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (i = 0; i < num_elems; i++) {
		if (qp_list[i] == NULL || qp_list[i]->qp_gverbs == NULL) {
			OGDA_LOG_ERR("qp_flat_list_create_hl: element %u is not a high-level QP", i);
			err = DOCA_ERROR_INVALID_VALUE;
			goto fail;
		}
		f->qps[i] = qp_list[i]->qp_gverbs;
	}
	/* The export checks that every element belongs to this GPU. */
	gpu = ogda_hl_gpu(qp_list[0]);
	err = doca_gpu_verbs_export_multi_qps_dev(gpu, f->qps, num_elems, &f->qp_gpus);
	if (err != DOCA_SUCCESS)
		goto fail;
	f->gpu = gpu;
	f->n = num_elems;
	pthread_mutex_lock(&flat_lock);
	f->next = flat_head;
	flat_head = f;
	pthread_mutex_unlock(&flat_lock);
	*qp_gpus = f->qp_gpus;
	return DOCA_SUCCESS;
fail:
	free(f->qps);
	free(f);
	return err;
}

doca_error_t doca_gpu_verbs_qp_flat_list_destroy_hl(struct doca_gpu_dev_verbs_qp *qp_gpus)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_qp_flat_list_destroy_hl, (qp_gpus));
	struct flat_list **pp, *f = NULL;
	doca_error_t err;

	if (qp_gpus == NULL) {
		OGDA_LOG_ERR("qp_flat_list_destroy_hl: NULL array");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&flat_lock);
	for (pp = &flat_head; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->qp_gpus == qp_gpus) {
			f = *pp;
			*pp = f->next;
			break;
		}
	}
	pthread_mutex_unlock(&flat_lock);
	if (f == NULL) {
		OGDA_LOG_ERR("qp_flat_list_destroy_hl: %p is not an array from qp_flat_list_create_hl", (void *)qp_gpus);
		return DOCA_ERROR_NOT_FOUND;
	}
	err = doca_gpu_verbs_unexport_multi_qps_dev(f->gpu, f->qps, f->n, f->qp_gpus);
	free(f->qps);
	free(f);
	return err;
}
