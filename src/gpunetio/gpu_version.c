/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Version checks between the library and code compiled against its headers. The encoding is
 * DOCA's (major << 16 | minor << 8 | patch). Code is accepted from the oldest version whose
 * layouts this library still reads up to any version of the same or an older major: a newer
 * major may change the device structures and is refused.
 */
#include "doca_gpunetio.h"

#include "core/log.h"
#include "sdk/sdk_forward.h"

#define VERSION_MAJOR(v) ((v) >> DOCA_GPUNETIO_VERSION_MAJOR_SHIFT)
#define VERSION_MINOR(v) (((v) >> DOCA_GPUNETIO_VERSION_MINOR_SHIFT) & 0xffu)
#define VERSION_PATCH(v) (((v) >> DOCA_GPUNETIO_VERSION_PATCH_SHIFT) & 0xffu)

doca_error_t doca_gpu_verbs_get_library_version(uint32_t *version)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_get_library_version, (version));
	if (version == NULL) {
		OGDA_LOG_ERR("version must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*version = DOCA_GPUNETIO_VERSION;
	return DOCA_SUCCESS;
}

static doca_error_t check_compat(const char *what, uint32_t version, uint32_t min_version)
{
	if (version >= min_version && VERSION_MAJOR(version) <= DOCA_GPUNETIO_VERSION_MAJOR)
		return DOCA_SUCCESS;
	OGDA_LOG_ERR("%s code version %u.%u.%u does not work with this library %u.%u.%u (it accepts %u.%u.%u to %u.x)",
		     what, VERSION_MAJOR(version), VERSION_MINOR(version), VERSION_PATCH(version),
		     DOCA_GPUNETIO_VERSION_MAJOR, DOCA_GPUNETIO_VERSION_MINOR, DOCA_GPUNETIO_VERSION_PATCH,
		     VERSION_MAJOR(min_version), VERSION_MINOR(min_version), VERSION_PATCH(min_version),
		     DOCA_GPUNETIO_VERSION_MAJOR);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_gpu_verbs_check_device_code_compatibility(uint32_t device_code_version)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_check_device_code_compatibility, (device_code_version));
	return check_compat("device", device_code_version, DOCA_GPUNETIO_MIN_COMPAT_DEVICE_CODE_VERSION);
}

doca_error_t doca_gpu_verbs_check_host_code_compatibility(uint32_t host_code_version)
{
	OGDA_SDK_FORWARD(doca_gpu_verbs_check_host_code_compatibility, (host_code_version));
	return check_compat("host", host_code_version, DOCA_GPUNETIO_MIN_COMPAT_HOST_CODE_VERSION);
}
