/* libFuzzer target: the Windows and macOS output translators (hostos.h),
 * fed arbitrary text (a remote host prints it, so it is input), and the
 * counter parser on what they produce. The first byte picks the OS and
 * the reading; the rest is the host's output.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters.h"
#include "hostos.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum plan_os os[] = {PLAN_OS_WINDOWS, PLAN_OS_MACOS};
	struct counters_snap *s = NULL;
	struct buf doc = BUF_INIT;
	enum hostos_what what;
	char *text;

	if (size == 0)
		return 0;
	what = (enum hostos_what)(data[0] % 3);
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (hostos_translate(os[(data[0] / 3) % 2], what, text, "en0", &doc) ==
		0 &&
	    what == HOSTOS_COUNTERS &&
	    counters_parse(doc.s ? doc.s : "", doc.len, &s) == 0)
		counters_snap_free(s);
	buf_release(&doc);
	free(text);
	return 0;
}
