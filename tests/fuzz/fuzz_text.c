/* libFuzzer target: the text readers of what engines and probes print
 * (all input: a far host or a tool prints it). The first byte picks the
 * reader: ping's reply lines and the latency summary over them
 * (latprobe.h), irtt's per-packet lines and the same summary (0 and 4),
 * the command engine's number reading with each documented
 * separator option (number_text.h), the networkQuality (2) and
 * speed-test presets (3: Ookla's, librespeed's when the top bit is set;
 * engine_resp.h), macOS top's CPU usage and Load Avg lines (5, mactop.h).
 * The rest is the output.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_resp.h"
#include "latprobe.h"
#include "mactop.h"
#include "number_text.h"

enum { MAX_REPLIES = 4096 };

static void ping_lines(char *text)
{
	static double t[MAX_REPLIES], rtt[MAX_REPLIES];
	static long long seq[MAX_REPLIES];
	struct latprobe_summary s;
	struct latprobe_reply r;
	long long prev = -1;
	double t0 = NAN, last = 0;
	size_t n = 0;
	char *save = NULL, *line;

	for (line = strtok_r(text, "\n", &save); line && n < MAX_REPLIES;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!latprobe_parse_ping_line(line, &r))
			continue;
		if (isnan(t0))
			t0 = r.ts;
		prev = latprobe_unwrap(prev, r.seq);
		t[n] = r.ts - t0 - 1.0; /* the first second idle */
		rtt[n] = r.rtt;
		seq[n] = prev;
		if (t[n] > last)
			last = t[n];
		n++;
	}
	latprobe_summarise(t, rtt, seq, n, last, 0.1, &s);
	latprobe_summarise(t, rtt, seq, n, 1e9, 1e-9, &s);
}

/* irtt's lines: no clock of their own, so sent by their place in the
 * input; sequence numbers as irtt prints them (no wrap); the one-way
 * delays must come out as a time or NAN. */
static void irtt_lines(char *text)
{
	static double t[MAX_REPLIES], rtt[MAX_REPLIES];
	static long long seq[MAX_REPLIES];
	struct latprobe_summary s;
	struct latprobe_reply r;
	size_t n = 0;
	char *save = NULL, *line;

	for (line = strtok_r(text, "\n", &save); line && n < MAX_REPLIES;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!latprobe_parse_irtt_line(line, &r))
			continue;
		if (!(r.rtt >= 0 && r.rtt < 1e6) ||
		    (!isnan(r.send_delay) && !(fabs(r.send_delay) < 1e6)) ||
		    (!isnan(r.recv_delay) && !(fabs(r.recv_delay) < 1e6)))
			abort(); /* latprobe.h: times, bounded */
		t[n] = 0.1 * (double)n - 1.0 - r.rtt;
		rtt[n] = r.rtt;
		seq[n++] = (long long)r.seq;
	}
	latprobe_summarise(t, rtt, seq, n, 0.1 * (double)n - 1.0, 0.1, &s);
	if (s.lost_loaded > s.sent_loaded)
		abort();
}

static void numbers(const char *text, size_t len)
{
	static const char *const th[][2] = {
	    {NULL, NULL}, {",", "."}, {".", ","}, {" ", ","}, {"'", "."}};
	double v;
	size_t so = 0, eo = len;
	for (size_t i = 0; i < sizeof th / sizeof th[0]; i++) {
		if (i == 0)
			number_parse(text, len, &v);
		else
			number_parse_fmt(th[i][0], th[i][1], text, len, &v);
		if (len) {
			so = len / 3;
			eo = so + (len - so) / 2;
			number_around(th[i][0], text, len, &so, &eo);
			number_inside_longer(th[i][0], text, len, so,
					     eo > len ? len : eo, 1, 1);
		}
	}
}

/* top's lines: a CPU line read must be within 0..100 and add up. */
static void top_lines(char *text)
{
	char *save = NULL, *line;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct mactop_cpu c;
		double la[3];
		if (mactop_cpu_line(line, strlen(line), &c) == 1 &&
		    (c.busy < 0 || c.busy > 100 || c.idle < 0 ||
		     c.user + c.sys + c.idle > 100.0 + 1e-9))
			abort();
		(void)mactop_load_line(line, strlen(line), la);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_result res;
	char *text;
	size_t len;

	if (size == 0)
		return 0;
	len = size - 1;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, len);
	text[len] = '\0';
	switch (data[0] % 6) {
	case 5:
		top_lines(text);
		break;
	case 0:
		ping_lines(text);
		break;
	case 4:
		irtt_lines(text);
		break;
	case 1:
		numbers(text, strlen(text));
		break;
	default:
		memset(&res, 0, sizeof res);
		engine_resp_parse(data[0] % 6 == 2 ? &engine_networkquality
				  : data[0] & 0x80 ? &engine_librespeed
						   : &engine_speedtest,
				  text, len, &res);
		engine_result_release(&res);
	}
	free(text);
	return 0;
}
