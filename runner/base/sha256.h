/*
 * SHA-256 (FIPS 180-4), used for the plan file hash that ties a session in
 * the store to the exact plan bytes it ran. Small and dependency-free.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SHA256_H
#define XR_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t nbytes;
	unsigned char block[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* One call: lowercase hex digest of data into out (65 bytes with NUL). */
void sha256_hex(const void *data, size_t n, char out[65]);

#endif
