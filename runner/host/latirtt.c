/*
 * The irtt latency probe (latprobe_int.h): the client's argv, the parser
 * of its per-packet lines, and its server (`irtt server`) started on the
 * probes' target host on a free UDP port and waited for until it
 * listens. irtt 0.9.0 (Debian's; github.com/heistp/irtt): the client
 * prints one line per reply as it comes (client.go's OnReceived), which
 * the probe's reader thread takes like ping's lines.
 *
 * SPDX-License-Identifier: MIT
 */
#include "latprobe_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "proc.h"

#include "banned.h"

/* The server's first port, irtt's own default; a port in use is tried
 * past. */
#define IRTT_PORT 2112
#define IRTT_PORTS 32
#define IRTT_LISTEN_WAIT 10.0

/*
 * irtt client: -i the interval and -d the test's length as Go durations
 * ("0.100s"), --wait 1s the wait for the last replies (the default 3x4s
 * would hold a run's last probes up to 12 s; the probe is stopped with
 * SIGTERM anyway, which irtt takes as the end of its test). Per-packet
 * lines on stdout (no -q, no -o).
 */
void latirtt_argv(const char *address, double interval, double max_s,
		  const char **argv, char bufs[4][32])
{
	int k = 0;
	snprintf(bufs[0], sizeof bufs[0], "%.3fs", interval);
	snprintf(bufs[1], sizeof bufs[1], "%.0fs", ceil(max_s));
	argv[k++] = "irtt";
	argv[k++] = "client";
	argv[k++] = "-i";
	argv[k++] = bufs[0];
	argv[k++] = "-d";
	argv[k++] = bufs[1];
	argv[k++] = "--wait=1s";
	argv[k++] = address;
	argv[k] = NULL;
}

/* ---- parsing ----------------------------------------------------------- */

/* A decimal number "12" or "80.6" (no sign, no exponent: Go's
 * time.Duration.String never prints one); at most 24 digits, so that
 * the value stays far below any cast's limit. */
static int decimal(const char **sp, double *out)
{
	const char *s = *sp;
	double v = 0, scale = 1;
	int digits = 0;
	while (*s >= '0' && *s <= '9' && digits < 24) {
		v = v * 10 + (*s++ - '0');
		digits++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9' && digits < 24) {
			scale /= 10;
			v += (*s++ - '0') * scale;
			digits++;
		}
	}
	if (!digits || (*s >= '0' && *s <= '9'))
		return -1;
	*sp = s;
	*out = v;
	return 0;
}

/* A Go duration as time.Duration.String prints it: "80.6µs", "1.07ms",
 * "-3ms", "1m2.5s", "0s". Seconds in *out; -1 when it is none, or past
 * 10^6 s. */
static int go_duration(const char **sp, double *out)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = {{"ns", 1e-9},	  {"\xc2\xb5s", 1e-6}, /* U+00B5 */
		     {"\xce\xbcs", 1e-6},		       /* U+03BC */
		     {"us", 1e-6},	  {"ms", 1e-3},	       {"s", 1},
		     {"m", 60},		  {"h", 3600}};
	const char *s = *sp;
	double sum = 0, sign = 1;
	int parts = 0;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	while ((*s >= '0' && *s <= '9') || *s == '.') {
		double v;
		size_t u, len = 0;
		if (decimal(&s, &v) < 0)
			return -1;
		for (u = 0; u < sizeof units / sizeof units[0]; u++) {
			len = strlen(units[u].unit);
			if (!strncmp(s, units[u].unit, len))
				break;
		}
		if (u == sizeof units / sizeof units[0])
			return -1;
		sum += v * units[u].s;
		s += len;
		parts++;
	}
	if (!parts || !(sum < 1e6))
		return -1;
	*sp = s;
	*out = sign * sum;
	return 0;
}

/* " key=DURATION" at *sp: 1 and the value, 0 when the key is not there,
 * -1 when its value is no duration. */
static int keyed(const char **sp, const char *key, double *out)
{
	size_t len = strlen(key);
	const char *s = *sp;
	if (strncmp(s, key, len) != 0)
		return 0;
	s += len;
	if (go_duration(&s, out) < 0)
		return -1;
	*sp = s;
	return 1;
}

int latprobe_parse_irtt_line(const char *line, struct latprobe_reply *r)
{
	const char *p = line;
	unsigned long long seq = 0;
	double rtt;
	int digits = 0;

	memset(r, 0, sizeof *r);
	r->send_delay = r->recv_delay = NAN;
	/* "seq=3 rtt=136µs rd=34.2µs sd=102µs ipdv=19.4µs" */
	if (strncmp(p, "seq=", 4) != 0)
		return 0;
	for (p += 4; *p >= '0' && *p <= '9'; p++) {
		seq = seq * 10 + (unsigned long long)(*p - '0');
		if (++digits > 10 || seq > 4294967295ULL) /* irtt's uint32 */
			return 0;
	}
	if (!digits || keyed(&p, " rtt=", &rtt) != 1 || !(rtt >= 0))
		return 0;
	if (keyed(&p, " rd=", &r->recv_delay) < 0 ||
	    keyed(&p, " sd=", &r->send_delay) < 0)
		return 0;
	if (strncmp(p, " ipdv=", 6) != 0)
		return 0;
	r->seq = (unsigned)seq;
	r->rtt = rtt;
	return 1;
}

/* ---- the server -------------------------------------------------------- */

/* "ADDR:PORT", or "[ADDR]:PORT" for an IPv6 address (irtt's host
 * format). */
static void join_port(char *out, size_t sz, const char *address, int port)
{
	if (strchr(address, ':'))
		snprintf(out, sz, "[%s]:%d", address, port);
	else
		snprintf(out, sz, "%s:%d", address, port);
}

/* irtt's server says "[ListenerStart]" once it listens. */
static int listening(void *ctx, const char *log_text)
{
	(void)ctx;
	return strstr(log_text, "[ListenerStart]") != NULL;
}

/* The log's last line, trimmed, into out: what the server said. */
static void last_line(struct buf *b, char *out, size_t sz)
{
	const char *s;
	size_t k;
	out[0] = '\0';
	if (!b->s)
		return;
	while (b->len && (b->s[b->len - 1] == '\n' || b->s[b->len - 1] == ' '))
		b->s[--b->len] = '\0';
	s = strrchr(b->s, '\n') ? strrchr(b->s, '\n') + 1 : b->s;
	k = strlen(s);
	snprintf(out, sz, "%.*s", (int)(k < sz ? k : sz - 1), s);
}

/* One try on one port: 1 listening, 0 the port is in use, -1 failed
 * (why in err). */
static int try_port(struct host *h, const char *address, int port, double max_s,
		    struct proc **srv, struct xr_err *err)
{
	char bind[160], said[200];
	const char *argv[] = {"irtt", "server", "-b", bind, NULL};
	struct proc_opts o = {0};
	struct buf b = BUF_INIT;
	int r;

	join_port(bind, sizeof bind, address, port);
	o.argv = argv;
	o.stderr_to_stdout = 1;
	o.timeout = max_s;
	o.grace = 1.0;
	r = host_spawn_ready(h, &o, "irtt", IRTT_LISTEN_WAIT, listening, NULL,
			     srv, &b, err);
	last_line(&b, said, sizeof said);
	buf_release(&b);
	if (r != 0)
		return r < 0 ? -1 : 1;
	if (proc_interrupted)
		return xr_err_set(err, XR_EINTR, NULL, 0, 0,
				  "interrupted while starting the irtt server");
	if (strstr(said, "address already in use"))
		return 0;
	xr_err_set(err, XR_EENV, NULL, 0, 0,
		   "irtt server on host '%s' did not start listening on "
		   "%s%s%s",
		   host_name(h), bind, said[0] ? ": " : " (no output)", said);
	return -1;
}

struct proc *latirtt_server_start(struct host *h, const char *address,
				  double max_s, char *target, size_t target_sz,
				  struct xr_err *err)
{
	struct proc *srv = NULL;
	for (int port = IRTT_PORT; port < IRTT_PORT + IRTT_PORTS; port++) {
		int r = try_port(h, address, port, max_s, &srv, err);
		if (r < 0)
			return NULL;
		if (r == 1) {
			join_port(target, target_sz, address, port);
			return srv;
		}
	}
	xr_err_set(err, XR_EENV, NULL, 0, 0,
		   "irtt server on host '%s': UDP ports %d to %d on %s are "
		   "all in use",
		   host_name(h), IRTT_PORT, IRTT_PORT + IRTT_PORTS - 1,
		   address);
	return NULL;
}
