/* libFuzzer target: the counter snapshot parser and the deltas, fed
 * arbitrary documents (remote hosts print them, so they are input). The
 * input is split at the first NUL-free "@@@@" into a before and an after
 * document so that deltas of unrelated snapshots get exercised too.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	const char *cut = memmem(t, size, "@@@@", 4);
	size_t la = cut ? (size_t)(cut - t) : size;
	const char *tb = cut ? cut + 4 : t;
	size_t lb = cut ? size - la - 4 : size;
	struct counters_snap *a = NULL, *b = NULL;
	struct counter_row *rows = NULL;
	size_t n = 0;

	if (counters_parse(t, la, &a) == 0 && counters_parse(tb, lb, &b) == 0) {
		if (counters_delta(a, b, &rows, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				if (!memchr(rows[i].name, '\0',
					    sizeof rows[i].name))
					abort();
			free(rows);
		}
	}
	counters_snap_free(a);
	counters_snap_free(b);
	return 0;
}
