/* libFuzzer target: the latency probes' line parsers (iputils ping and
 * irtt print them on the probing host, so they are input) and the
 * summary of what they parsed. Each line goes to both parsers; the
 * replies are unwrapped as the probe does and summarised with send times
 * from their stamps (ping -D) or their place in the input, so that
 * hostile stamps, times and sequence numbers reach the summary's casts
 * (UBSan in CI). Corpus: tests/data/ping and tests/data/irtt. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "latprobe.h"

#define MAXR 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static double t[MAXR], rtt[MAXR];
	static long long seq[MAXR];
	struct latprobe_summary s;
	char *copy = malloc(size + 1), *line, *save = NULL;
	size_t n = 0;
	long long prev = -1;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (line = strtok_r(copy, "\n", &save); line && n < MAXR;
	     line = strtok_r(NULL, "\n", &save)) {
		struct latprobe_reply r;
		int ping = latprobe_parse_ping_line(line, &r);
		if (!ping && !latprobe_parse_irtt_line(line, &r))
			continue;
		if (!(r.rtt >= 0) || !isfinite(r.rtt))
			abort(); /* the parsers promise a time */
		seq[n] = ping ? latprobe_unwrap(prev, r.seq) : (long long)r.seq;
		prev = seq[n];
		t[n] = (r.ts > 0 ? r.ts - 1.7e9 : 0.1 * (double)n) - r.rtt;
		rtt[n++] = r.rtt;
	}
	latprobe_summarise(t, rtt, seq, n, n ? t[n - 1] : 1.0, 0.1, &s);
	if (s.lost_loaded > s.sent_loaded)
		abort();
	free(copy);
	return 0;
}
