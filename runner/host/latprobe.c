/*
 * Latency probes (latprobe.h): the probe table, the parser of each
 * probe's output, the summary of a run's replies, and the lifecycle of
 * one probe: the caller's thread starts the child through
 * host_spawn_stream and stops it with proc_stop (its process group); the
 * probe's reader thread only polls the child's pipes and a stop pipe, so
 * it can neither hang on a child nor reap one. The same split as the
 * sampler's far side (sampler.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "latprobe.h"
#include "latprobe_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "proc.h"

#include "banned.h"

/* ---- the table --------------------------------------------------------- */

/*
 * iputils ping: -n no reverse lookups, -D the receive time of each reply
 * (wall clock), -i the interval (below 2 ms only for root: iputils
 * 20221126 refuses "cannot flood; minimal interval allowed for user is
 * 2ms"), -W 1 the wait for the last reply, -w its own deadline, -O a
 * line for each probe not answered before the next is sent ("no answer
 * yet for icmp_seq=N"): every probe it sent is then told, so that one it
 * never sent (it died, stalled or is not ping) is not counted as lost.
 * The address is one argument, never a shell word.
 */
static void ping_argv(const char *address, double interval, double max_s,
		      const char **argv, char bufs[4][32])
{
	int k = 0;
	snprintf(bufs[0], sizeof bufs[0], "%.3f", interval);
	snprintf(bufs[1], sizeof bufs[1], "%.0f", ceil(max_s));
	argv[k++] = "ping";
	argv[k++] = "-n";
	argv[k++] = "-D";
	argv[k++] = "-O";
	argv[k++] = "-i";
	argv[k++] = bufs[0];
	argv[k++] = "-W";
	argv[k++] = "1";
	argv[k++] = "-w";
	argv[k++] = bufs[1];
	argv[k++] = address;
	argv[k] = NULL;
}

static const struct latprobe_row rows[] = {
    {"ping", ping_argv, latprobe_parse_ping_line, 1, 0, 1},
    {"irtt", latirtt_argv, latprobe_parse_irtt_line, 0, 1, 0},
};

const char *const latprobe_names[] = {"ping", "irtt", NULL};

static const struct latprobe_row *row_find(const char *name)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

/* ---- parsing ----------------------------------------------------------- */

int latprobe_parse_ping_line(const char *line, struct latprobe_reply *r)
{
	const char *p = line, *q;
	char *end;
	double ts = 0, ms;
	unsigned long seq;

	memset(r, 0, sizeof *r);
	r->send_delay = r->recv_delay = NAN;
	if (*p == '[') {
		ts = strtod(p + 1, &end);
		/* ping -D prints seconds since 1970; "inf", "nan" or 1e300 are
		 * not a time (and would overflow the sequence arithmetic). */
		if (end == p + 1 || *end != ']' || !(ts >= 0 && ts < 1e11))
			return 0;
		p = end + 1;
		while (*p == ' ')
			p++;
	}
	/* "64 bytes from 198.18.0.2: icmp_seq=3 ttl=64 time=0.045 ms" */
	if (!(q = strstr(p, " bytes from ")) || !(q = strstr(q, "icmp_seq=")))
		return 0;
	seq = strtoul(q + 9, &end, 10);
	if (end == q + 9 || seq > 65535)
		return 0;
	if (!(q = strstr(end, " time=")))
		return 0;
	ms = strtod(q + 6, &end);
	if (end == q + 6 || !(ms >= 0 && ms < 1e9) ||
	    strncmp(end, " ms", 3) != 0)
		return 0;
	r->ts = ts;
	r->seq = (unsigned)seq;
	r->rtt = ms / 1e3;
	r->dup = strstr(end, "(DUP!)") != NULL;
	return 1;
}

int latprobe_parse_noanswer(const char *line, unsigned *seq)
{
	static const char m[] = "no answer yet for icmp_seq=";
	const char *q = strstr(line, m);
	char *end;
	unsigned long v;
	if (!q || (q != line && line[0] != '['))
		return 0;
	v = strtoul(q + sizeof m - 1, &end, 10);
	if (end == q + sizeof m - 1 || *end || v > 65535)
		return 0;
	*seq = (unsigned)v;
	return 1;
}

/* ---- the summary ------------------------------------------------------- */

long long latprobe_unwrap(long long prev, unsigned raw)
{
	long long base, s;
	if (prev < 0)
		return raw;
	base = prev - prev % 65536;
	s = base + raw;
	if (s + 32768 < prev)
		s += 65536; /* wrapped forward */
	else if (s > prev + 32768 && s >= 65536)
		s -= 65536; /* a late reply from before the wrap */
	return s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of sorted x[n], Hyndman & Fan type 7 (numpy's
 * "linear", R's default), as series_metric.c takes it. */
static double quantile(const double *x, size_t n, double q)
{
	double h;
	size_t lo;
	if (!n)
		return NAN;
	h = q * (double)(n - 1);
	lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

/* A count of probe gaps, clamped so that the cast is defined whatever
 * times and spacing the host printed. */
static long long gaps(double d)
{
	d = ceil(d);
	if (!(d > -1e12))
		return (long long)-1e12;
	return d < 1e12 ? (long long)d : (long long)1e12;
}

/* The largest sequence number sent before time T: from the reply sent
 * last before T and the probes' spacing, but below the first reply sent
 * at or after T. LLONG_MIN when no reply is before T. */
static long long seq_before(const double *t, const long long *seq, size_t n,
			    double T, double spacing)
{
	long long s;
	size_t i, b = n, a = n;
	for (i = 0; i < n; i++) {
		if (t[i] < T && (b == n || t[i] > t[b]))
			b = i;
		if (t[i] >= T && (a == n || t[i] < t[a]))
			a = i;
	}
	if (b == n)
		return a == n ? LLONG_MIN : seq[a] - gaps((t[a] - T) / spacing);
	s = seq[b] + gaps((T - t[b]) / spacing) - 1;
	if (a < n && s >= seq[a])
		s = seq[a] - 1;
	return s;
}

/* The loaded phase's probes and those without a reply: the sequence
 * numbers sent in [0, end - wait]; the spacing is the replies' own
 * (ping's interval is a least gap: 100 ms comes out as about 104). */
static void loss_of(const double *t, const long long *seq, size_t n, double end,
		    double interval, struct latprobe_summary *o)
{
	double wait = end > 2.0 ? 1.0 : end / 2, last = end - wait;
	double spacing = interval;
	long long s0, s1, k, lo = 0, hi = 0;
	size_t got = 0, i;
	char *seen;

	if (!n || !(interval > 0) || !(last > 0))
		return;
	for (i = 1; i < n; i++) {
		if (seq[i] < seq[lo])
			lo = (long long)i;
		if (seq[i] > seq[hi])
			hi = (long long)i;
	}
	if (seq[hi] > seq[lo] && t[hi] > t[lo])
		spacing = (t[hi] - t[lo]) / (double)(seq[hi] - seq[lo]);
	s0 = seq_before(t, seq, n, 0, spacing);
	s1 = seq_before(t, seq, n, last, spacing);
	if (s0 == LLONG_MIN || s1 == LLONG_MIN)
		return;
	s0++;
	if (s1 < s0 || s1 - s0 > 10000000)
		return;
	if (!(seen = calloc((size_t)(s1 - s0 + 1), 1)))
		return;
	for (i = 0; i < n; i++)
		if (seq[i] >= s0 && seq[i] <= s1 && !seen[seq[i] - s0]) {
			seen[seq[i] - s0] = 1;
			got++;
		}
	free(seen);
	k = s1 - s0 + 1;
	o->seq_first = s0;
	o->seq_last = s1;
	o->sent_loaded = (size_t)k;
	o->lost_loaded = (size_t)k - got;
	o->loss = (double)o->lost_loaded / (double)k;
}

void latprobe_summarise(const double *t, const double *rtt,
			const long long *seq, size_t n, double end,
			double interval, struct latprobe_summary *o)
{
	double *idle = malloc((n ? n : 1) * sizeof *idle);
	double *load = malloc((n ? n : 1) * sizeof *load);
	size_t i;

	memset(o, 0, sizeof *o);
	o->idle_p50 = o->loaded_p50 = o->loaded_p90 = o->loaded_p99 = NAN;
	o->increase_p50 = o->loss = NAN;
	if (!idle || !load) {
		free(idle);
		free(load);
		return;
	}
	for (i = 0; i < n; i++) {
		if (t[i] < 0)
			idle[o->n_idle++] = rtt[i];
		else if (t[i] <= end)
			load[o->n_loaded++] = rtt[i];
	}
	qsort(idle, o->n_idle, sizeof *idle, cmp_double);
	qsort(load, o->n_loaded, sizeof *load, cmp_double);
	o->idle_p50 = quantile(idle, o->n_idle, 0.5);
	o->loaded_p50 = quantile(load, o->n_loaded, 0.5);
	o->loaded_p90 = quantile(load, o->n_loaded, 0.9);
	o->loaded_p99 = quantile(load, o->n_loaded, 0.99);
	o->increase_p50 = o->loaded_p50 - o->idle_p50;
	loss_of(t, seq, n, end, interval, o);
	free(idle);
	free(load);
}

/* ---- one probe --------------------------------------------------------- */

struct latprobe {
	char label[SERIES_HOST_MAX];
	char address[128];
	char target[160]; /* the client's: address, or irtt's ADDR:PORT */
	const struct latprobe_row *row;
	double interval, start, deadline, t0, t_end;
	int marked;
	struct proc *child;
	struct proc *server; /* irtt's on the target, NULL for ping */
	int out_fd, err_fd, stop_pipe[2];
	/* fired by the reader at the first reply, or at its end */
	struct proc_latch first;
	pthread_t thread;
	int running;
	/* written by the reader, read by the caller under mu */
	pthread_mutex_t mu;
	double *ts, *read_at, *rtt; /* per reply */
	double *sd, *rd;	    /* one-way delays (irtt), NAN if none */
	long long *seq;		    /* unwrapped */
	size_t n, cap;
	/* "no answer yet" lines (ping -O): their sequence numbers */
	long long *quiet;
	size_t n_quiet, cap_quiet;
	long long last_seq; /* the last told, unwrapped; -1 before any */
	/* the reader's time of the last line, of any kind, and the longest
	 * silence between two lines (or a line and the stop) once marked */
	double heard_at, gap_max;
	double tail;	     /* the silence before the stop */
	int ended;	     /* the child's stdout closed */
	char last_line[160]; /* the last line that was not a reply */
	struct buf err_text;
	char note[768];
};

/* *a grown to nc elements of size sz: 0, or -1 leaving it as it was. */
static int grow(void *a, size_t nc, size_t sz)
{
	void **pa = a, *q = realloc(*pa, nc * sz);
	if (!q)
		return -1;
	*pa = q;
	return 0;
}

static int keep_reply(struct latprobe *p, const struct latprobe_reply *r,
		      double now)
{
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 256;
		if (grow(&p->ts, nc, sizeof *p->ts) < 0 ||
		    grow(&p->read_at, nc, sizeof *p->read_at) < 0 ||
		    grow(&p->rtt, nc, sizeof *p->rtt) < 0 ||
		    grow(&p->sd, nc, sizeof *p->sd) < 0 ||
		    grow(&p->rd, nc, sizeof *p->rd) < 0 ||
		    grow(&p->seq, nc, sizeof *p->seq) < 0)
			return -XR_ENOMEM;
		p->cap = nc;
	}
	p->seq[p->n] = p->row->wraps ? latprobe_unwrap(p->last_seq, r->seq)
				     : (long long)r->seq;
	p->last_seq = p->seq[p->n];
	p->ts[p->n] = r->ts;
	p->read_at[p->n] = now;
	p->rtt[p->n] = r->rtt;
	p->sd[p->n] = r->send_delay;
	p->rd[p->n] = r->recv_delay;
	p->n++;
	return 0;
}

/* A "no answer yet" line's sequence number kept. Under mu. */
static int keep_quiet(struct latprobe *p, unsigned raw)
{
	if (p->n_quiet == p->cap_quiet) {
		size_t nc = p->cap_quiet ? p->cap_quiet * 2 : 64;
		if (grow(&p->quiet, nc, sizeof *p->quiet) < 0)
			return -XR_ENOMEM;
		p->cap_quiet = nc;
	}
	p->last_seq = latprobe_unwrap(p->last_seq, raw);
	p->quiet[p->n_quiet++] = p->last_seq;
	return 0;
}

/* A line read at now: the silence before it, once marked. Under mu. */
static void heard(struct latprobe *p, double now)
{
	double from = p->heard_at > p->t0 ? p->heard_at : p->t0;
	if (p->marked && now - from > p->gap_max)
		p->gap_max = now - from;
	p->heard_at = now;
}

/* The complete lines of acc: replies kept, the last other line noted. */
static void take_lines(struct latprobe *p, struct buf *acc, double now)
{
	size_t used = 0;
	char *nl;

	pthread_mutex_lock(&p->mu);
	while ((nl = memchr(acc->s + used, '\n', acc->len - used))) {
		char *line = acc->s + used;
		struct latprobe_reply r;
		unsigned q;
		*nl = '\0';
		heard(p, now);
		if (p->row->tells_all && latprobe_parse_noanswer(line, &q)) {
			if (keep_quiet(p, q) < 0 && !p->note[0])
				snprintf(p->note, sizeof p->note,
					 "latency probe on '%s': out of memory",
					 p->label);
		} else if (p->row->parse(line, &r)) {
			if (!r.dup && keep_reply(p, &r, now) < 0 && !p->note[0])
				snprintf(p->note, sizeof p->note,
					 "latency probe on '%s': out of memory",
					 p->label);
		} else if (line[0] && strncmp(line, "PING ", 5) != 0) {
			snprintf(p->last_line, sizeof p->last_line, "%s",
				 line[0] == '[' && strchr(line, ']')
				     ? strchr(line, ']') + 2
				     : line);
		}
		used = (size_t)(nl - acc->s) + 1;
	}
	pthread_mutex_unlock(&p->mu);
	memmove(acc->s, acc->s + used, acc->len - used + 1);
	acc->len -= used;
}

static void *reader_main(void *arg)
{
	struct latprobe *p = arg;
	struct buf acc;

	buf_init(&acc, 1 << 20);
	for (;;) {
		struct pollfd pf[3] = {{p->stop_pipe[0], POLLIN, 0},
				       {p->out_fd, POLLIN, 0},
				       {p->err_fd, POLLIN, 0}};
		double left = p->deadline - proc_now_mono();
		if (left <= 0)
			break;
		if (poll(pf, p->err_fd >= 0 ? 3 : 2, (int)(left * 1000) + 1) <
			0 &&
		    errno != EINTR)
			break;
		if (pf[0].revents & POLLIN)
			break;
		if (p->err_fd >= 0 && pf[2].revents) {
			pthread_mutex_lock(&p->mu);
			if (buf_read_some(&p->err_text, p->err_fd) == 0 ||
			    p->err_text.len > 2048) {
				close(p->err_fd);
				p->err_fd = -1;
			}
			pthread_mutex_unlock(&p->mu);
		}
		if (!pf[1].revents)
			continue;
		if (buf_read_some(&acc, p->out_fd) == 0 || acc.truncated) {
			pthread_mutex_lock(&p->mu);
			p->ended = 1;
			pthread_mutex_unlock(&p->mu);
			break;
		}
		take_lines(p, &acc, proc_now_mono());
		if (p->n) /* the reader is the only writer of n */
			proc_latch_fire(&p->first);
	}
	proc_latch_fire(&p->first);
	buf_release(&acc);
	return NULL;
}

static void probe_free(struct latprobe *p)
{
	if (p->server)
		proc_stop(p->server); /* after the client: it sends a close */
	for (int k = 0; k < 2; k++)
		if (p->stop_pipe[k] >= 0)
			close(p->stop_pipe[k]);
	proc_latch_close(&p->first);
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	free(p->ts);
	free(p->read_at);
	free(p->rtt);
	free(p->sd);
	free(p->rd);
	free(p->seq);
	free(p->quiet);
	buf_release(&p->err_text);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static int start_thread(struct latprobe *p)
{
	sigset_t all, old;
	int rc;
	/* The thread takes no signal: the run loop's handlers stay on the
	 * thread that waits for the engine. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&p->thread, NULL, reader_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The server a probe needs on to (irtt), started; the client's target
 * into p->target (the address itself when there is no server to
 * start). */
static int start_server(struct latprobe *p, struct host *to, double max_s,
			struct xr_err *err)
{
	snprintf(p->target, sizeof p->target, "%s", p->address);
	if (!p->row->has_server || !to)
		return 0;
	p->server = latirtt_server_start(to, p->address, max_s, p->target,
					 sizeof p->target, err);
	if (p->server)
		return 0;
	return err->code == XR_EINTR ? -XR_EINTR : -XR_EENV;
}

int latprobe_start(struct host *h, struct host *to, const char *label,
		   const char *probe, const char *address, double interval,
		   double max_s, struct latprobe **out, struct xr_err *err)
{
	const struct latprobe_row *row = row_find(probe);
	struct latprobe *p;
	struct proc_opts o = {0};
	const char *argv[16];
	char bufs[4][32];
	int rc;

	*out = NULL;
	if (!row)
		return xr_err_set(err, XR_EPLAN, NULL, 0, 0,
				  "unknown latency probe '%s'", probe);
	if (!(p = calloc(1, sizeof *p)))
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	p->stop_pipe[0] = p->stop_pipe[1] = p->out_fd = p->err_fd = -1;
	p->first.rd = p->first.wr = -1;
	pthread_mutex_init(&p->mu, NULL);
	buf_init(&p->err_text, 4096);
	snprintf(p->label, sizeof p->label, "%s", label);
	snprintf(p->address, sizeof p->address, "%s", address);
	p->row = row;
	p->interval = interval;
	p->last_seq = -1;
	p->start = proc_now_mono();
	p->deadline = p->start + max_s;
	if (pipe2(p->stop_pipe, O_CLOEXEC) < 0 ||
	    proc_latch_open(&p->first) < 0) {
		probe_free(p);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "cannot start the latency probe: %s",
				  strerror(errno));
	}
	if ((rc = start_server(p, to, max_s, err)) < 0) {
		probe_free(p);
		return rc;
	}
	row->argv(p->target, interval, max_s, argv, bufs);
	o.argv = argv;
	o.timeout = max_s;
	o.grace = 1.0;
	p->child = host_spawn_stream(h, &o, &p->out_fd, &p->err_fd, err);
	if (!p->child) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s",
			 err->msg[0] ? err->msg : "cannot start it");
		probe_free(p);
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "latency probe '%s' from '%s' to %s: %.400s",
				  row->name, label, address, why);
	}
	fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
	fcntl(p->err_fd, F_SETFL, fcntl(p->err_fd, F_GETFL) | O_NONBLOCK);
	if ((rc = start_thread(p)) != 0) {
		proc_stop(p->child);
		probe_free(p);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "cannot start the latency probe's thread: %s",
				  strerror(rc));
	}
	p->running = 1;
	*out = p;
	return 0;
}

/* The child's stderr, one line, trimmed: "" when it said nothing. */
static const char *err_line(struct latprobe *p, char *out, size_t sz)
{
	size_t k = 0;
	for (size_t i = 0; i < p->err_text.len && k + 1 < sz; i++) {
		char c = p->err_text.s[i];
		out[k++] = c == '\n' || c == '\r' ? ' ' : c;
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	return out;
}

int latprobe_wait_reply(struct latprobe *p, double max_s)
{
	size_t n;
	int r = proc_latch_wait(&p->first, proc_now_mono() + max_s);
	if (r < 0)
		return r;
	pthread_mutex_lock(&p->mu);
	n = p->n;
	pthread_mutex_unlock(&p->mu);
	return n ? 0 : 1;
}

int latprobe_check(struct latprobe *p, struct xr_err *err)
{
	char said[200], last[160];
	size_t n;
	int st = proc_exit_status(p->child), ended;

	pthread_mutex_lock(&p->mu);
	n = p->n;
	ended = p->ended;
	snprintf(last, sizeof last, "%s", p->last_line);
	pthread_mutex_unlock(&p->mu);
	if (st == PROC_STILL_RUNNING && !ended && n > 0)
		return 0;
	/* The reader may still hold stderr: it closes it at its end. */
	if (st != PROC_STILL_RUNNING || ended) {
		proc_sleep(0.05);
		pthread_mutex_lock(&p->mu);
		err_line(p, said, sizeof said);
		snprintf(last, sizeof last, "%s", p->last_line);
		pthread_mutex_unlock(&p->mu);
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "latency probe '%s' from '%s' to %s ended "
				  "before the load%s%s%s%s",
				  p->row->name, p->label, p->address,
				  said[0] || last[0] ? ": " : "", said,
				  said[0] && last[0] ? "; " : "", last);
	}
	return xr_err_set(
	    err, XR_EENV, NULL, 0, 0,
	    "latency probe '%s' from '%s' got no reply from %s "
	    "in %.1f s (its idle phase and the time to start)%s%s",
	    p->row->name, p->label, p->address, proc_now_mono() - p->start,
	    last[0] ? ": " : "", last);
}

void latprobe_mark(struct latprobe *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->t0 = proc_now_mono();
	p->marked = 1;
	pthread_mutex_unlock(&p->mu);
}

/* Each reply's send time in seconds from the mark: the stamp's clock
 * (the far side's wall clock) moved to ours by the least difference
 * seen between reading a line and its stamp, minus the round trip. */
static void send_times(const struct latprobe *p, double *t)
{
	double off = INFINITY, t0 = p->marked ? p->t0 : p->start;
	size_t i;
	for (i = 0; i < p->n; i++)
		if (p->ts[i] > 0 && p->read_at[i] - p->ts[i] < off)
			off = p->read_at[i] - p->ts[i];
	for (i = 0; i < p->n; i++) {
		double recv = p->ts[i] > 0 && isfinite(off) ? p->ts[i] + off
							    : p->read_at[i];
		t[i] = recv - p->rtt[i] - t0;
	}
}

/* The series name of the replies' values v at send times t: only its
 * finite points, none at all when no reply has one (ping's one-way
 * delays). */
static void add_series(struct series_set *dst, const struct latprobe *p,
		       const char *name, const double *t, const double *v)
{
	struct series *s = NULL;
	for (size_t i = 0; i < p->n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!s && !(s = series_set_get(dst, p->label, name, "s")))
			return;
		if (series_add(s, t[i], v[i]) < 0)
			return;
	}
}

/* The sequence numbers of [s->seq_first, s->seq_last] the probe told,
 * by a reply or a "no answer yet" line. */
static size_t told(const struct latprobe *p, const struct latprobe_summary *s)
{
	long long k = s->seq_last - s->seq_first + 1, i;
	size_t n = 0;
	char *seen;
	if (k <= 0 || !(seen = calloc((size_t)k, 1)))
		return s->sent_loaded;
	for (size_t j = 0; j < p->n + p->n_quiet; j++) {
		i = (j < p->n ? p->seq[j] : p->quiet[j - p->n]) - s->seq_first;
		if (i >= 0 && i < k && !seen[i]) {
			seen[i] = 1;
			n++;
		}
	}
	free(seen);
	return n;
}

/*
 * A probe whose numbers cannot be believed (issue 40): it ended during
 * the run (killed, its host lost), it printed nothing for longer than a
 * reply's wait (-W 1) and three probes (1 s at least) up to the stop or,
 * a probe that tells every probe (ping -O), anywhere in the run
 * (stopped, stalled), or such a probe left more than one of the run's
 * sequence numbers untold (its output is not ping's). Then the run's
 * latency metrics are not known, with the reason in p->note: never a
 * loss made of probes that were never sent. 1 when so.
 */
static int untrusted(struct latprobe *p, int ended,
		     const struct latprobe_summary *s)
{
	double stall = 1.0 + fmax(1.0, 3 * p->interval);
	double tail = p->tail;
	size_t t;
	const char *what = p->row->name;
	if (!p->marked)
		return 0;
	if (ended)
		snprintf(p->note, sizeof p->note,
			 "latency probe '%s' from '%s' to %s ended during the "
			 "run: latency not known",
			 what, p->label, p->address);
	else if (tail > stall)
		snprintf(p->note, sizeof p->note,
			 "latency probe '%s' from '%s' to %s printed nothing "
			 "for the last %.1f s of the run (stalled%s): "
			 "latency not known",
			 what, p->label, p->address, tail,
			 p->row->tells_all ? ""
					   : ", or every packet lost: it "
					     "prints nothing for a lost one");
	else if (p->row->tells_all && p->gap_max > stall)
		snprintf(p->note, sizeof p->note,
			 "latency probe '%s' from '%s' to %s printed nothing "
			 "for %.1f s during the run (stalled): latency not "
			 "known",
			 what, p->label, p->address, p->gap_max);
	else if (p->row->tells_all && s->sent_loaded &&
		 (t = told(p, s)) + 1 < s->sent_loaded)
		snprintf(p->note, sizeof p->note,
			 "latency probe '%s' from '%s' to %s told %zu of the "
			 "%zu probes of the run (its output is not %s's): "
			 "latency not known",
			 what, p->label, p->address, t, s->sent_loaded, what);
	else
		return 0;
	return 1;
}

void latprobe_stop(struct latprobe *p, struct series_set *dst,
		   struct latprobe_summary *sum)
{
	double *t, end;
	ssize_t w;
	int ended;

	if (!p)
		return;
	p->t_end = proc_now_mono();
	end = p->t_end - (p->marked ? p->t0 : p->start);
	if (p->running) {
		do
			w = write(p->stop_pipe[1], "x", 1);
		while (w < 0 && errno == EINTR);
		pthread_join(p->thread, NULL);
	}
	ended = p->ended;
	pthread_mutex_lock(&p->mu);
	p->tail = p->t_end - (p->heard_at > p->t0 ? p->heard_at : p->t0);
	heard(p, p->t_end); /* the silence up to the stop */
	pthread_mutex_unlock(&p->mu);
	proc_stop(p->child);
	t = malloc((p->n ? p->n : 1) * sizeof *t);
	if (!t) {
		memset(sum, 0, sizeof *sum);
		probe_free(p);
		return;
	}
	send_times(p, t);
	latprobe_summarise(t, p->rtt, p->seq, p->n, end, p->interval, sum);
	add_series(dst, p, "latency.rtt", t, p->rtt);
	add_series(dst, p, "latency.send_delay", t, p->sd);
	add_series(dst, p, "latency.receive_delay", t, p->rd);
	if (untrusted(p, ended, sum)) {
		sum->idle_p50 = sum->loaded_p50 = sum->loaded_p90 = NAN;
		sum->loaded_p99 = sum->increase_p50 = sum->loss = NAN;
		sum->unknown = 1;
	}
	if (p->note[0]) {
		size_t k = strlen(dst->note);
		if (k + 3 < sizeof dst->note)
			snprintf(dst->note + k, sizeof dst->note - k, "%s%.*s",
				 k ? "; " : "", (int)(sizeof dst->note - k - 3),
				 p->note);
	}
	free(t);
	probe_free(p);
}
