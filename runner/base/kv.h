/*
 * "key: value" lines, as /proc/cpuinfo, /proc/meminfo and the NIC
 * document of probe.c write them, and "@@ name" sections, as the scripts
 * run on Windows and macOS hosts and the counter snapshot cut their output.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_KV_H
#define XR_KV_H

#include <stddef.h>

#include "buf.h"

/*
 * The value of the first line of text that is key, then optional blanks
 * (spaces, tabs), then ':' ("model name\t: Xeon", "MemTotal:  16 kB",
 * "device: 8.0 GT/s"). The value has its leading and trailing blanks and
 * a trailing '\r' removed. OUT: out (replaced). Returns 1 when found, 0
 * when not (out untouched). text may be NULL.
 */
int kv_get(const char *text, const char *key, struct buf *out);

/* The body of section "@@ name" of text (up to the next "@@ " line), or
 * NULL when absent; *len its length. */
const char *kv_section(const char *text, const char *name, size_t *len);

#endif
