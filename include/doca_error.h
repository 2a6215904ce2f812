/*
 * OpenGDA — GPU-initiated RDMA for mlx5 NICs.
 * SPDX-License-Identifier: BSD-3-Clause
 */

/**
 * @file doca_error.h
 * @brief Error codes returned by every OpenGDA function.
 *
 * The numeric values are identical to DOCA's, so code written against DOCA
 * compares and prints them unchanged.
 */
#ifndef DOCA_ERROR_H_
#define DOCA_ERROR_H_

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Result of an OpenGDA / DOCA call. */
typedef enum doca_error {
	DOCA_SUCCESS = 0,                     /**< Success. */
	DOCA_ERROR_UNKNOWN = 1,               /**< Unknown error. */
	DOCA_ERROR_NOT_PERMITTED = 2,         /**< Operation not permitted. */
	DOCA_ERROR_IN_USE = 3,                /**< Resource is in use. */
	DOCA_ERROR_NOT_SUPPORTED = 4,         /**< Operation not supported. */
	DOCA_ERROR_AGAIN = 5,                 /**< Resource temporarily unavailable; try again. */
	DOCA_ERROR_INVALID_VALUE = 6,         /**< Invalid input. */
	DOCA_ERROR_NO_MEMORY = 7,             /**< Memory allocation failure. */
	DOCA_ERROR_INITIALIZATION = 8,        /**< Resource initialization failure. */
	DOCA_ERROR_TIME_OUT = 9,              /**< Timer expired waiting for a resource. */
	DOCA_ERROR_SHUTDOWN = 10,             /**< Shutdown in progress or completed. */
	DOCA_ERROR_CONNECTION_RESET = 11,     /**< Connection reset by peer. */
	DOCA_ERROR_CONNECTION_ABORTED = 12,   /**< Connection aborted. */
	DOCA_ERROR_CONNECTION_INPROGRESS = 13,/**< Connection in progress. */
	DOCA_ERROR_NOT_CONNECTED = 14,        /**< Not connected. */
	DOCA_ERROR_NO_LOCK = 15,              /**< Unable to acquire a required lock. */
	DOCA_ERROR_NOT_FOUND = 16,            /**< Resource not found. */
	DOCA_ERROR_IO_FAILED = 17,            /**< Input/output operation failed. */
	DOCA_ERROR_BAD_STATE = 18,            /**< Object is in a state that does not allow the call. */
	DOCA_ERROR_UNSUPPORTED_VERSION = 19,  /**< Version not supported. */
	DOCA_ERROR_OPERATING_SYSTEM = 20,     /**< Operating-system call failed. */
	DOCA_ERROR_DRIVER = 21,               /**< Driver call failed. */
	DOCA_ERROR_UNEXPECTED = 22,           /**< Unexpected result. */
	DOCA_ERROR_ALREADY_EXIST = 23,        /**< Resource already exists. */
	DOCA_ERROR_FULL = 24,                 /**< No more room in the resource. */
	DOCA_ERROR_EMPTY = 25,                /**< Resource is empty. */
	DOCA_ERROR_IN_PROGRESS = 26,          /**< Operation still in progress. */
	DOCA_ERROR_TOO_BIG = 27,              /**< Requested size exceeds the limit. */
	DOCA_ERROR_AUTHENTICATION = 28,       /**< Authentication failed. */
	DOCA_ERROR_BAD_CONFIG = 29,           /**< Configuration is not valid. */
	DOCA_ERROR_SKIPPED = 30,              /**< Operation was skipped. */
	DOCA_ERROR_DEVICE_FATAL_ERROR = 31,   /**< The device hit a fatal error. */
} doca_error_t;

/** @brief Number of defined error codes (one past the largest value). */
#define DOCA_ERROR_COUNT 32

/**
 * @brief Symbolic name of an error code.
 *
 * @param error  Any value.
 * @return A static string such as "DOCA_ERROR_TIME_OUT"; "DOCA_ERROR_UNRECOGNIZED"
 *         for a value outside the enumeration. Never NULL.
 */
const char *doca_error_get_name(doca_error_t error);

/**
 * @brief One-line human-readable description of an error code.
 *
 * @param error  Any value.
 * @return A static string; "Unrecognized error code" for a value outside the
 *         enumeration. Never NULL.
 */
const char *doca_error_get_descr(doca_error_t error);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ERROR_H_ */
