/* A Windows host's during-the-run sampler (winctr.h): the reader against
 * tests/data/windows/winctr_groups.txt and winctr_processor.txt, which
 * winctr_gen.py builds from the documented Get-Counter output (see the
 * README there; constructed, not captured); malformed frames refused; the
 * script as text (the interface a quoted literal, the sample bound) and
 * its -EncodedCommand; then the sampler's Windows path end to end: a host
 * with os: windows in a network namespace whose stand-in powershell.exe
 * (first on our PATH) checks its arguments and prints the recording, so
 * that the series are the recording's, timed on the far side's clock.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "strv.h"
#include "ps_b64.h"
#include "tap.h"
#include "winctr.h"

/* python3 tests/data/windows/winctr_gen.py --expect */
static const double busy2[] = {100, 99.5, 100};
static const double dpc2[] = {70.125, 69.75, 71};
static const double irq1[] = {0.5, 1e-05, 0.25};
static const double all_busy[] = {60.25, 58.833333333333336,
				  60.083333333333336};
static const double all_dpc[] = {37.041666666666664, 36.416666666666664, 37.75};
static const double drops[] = {400, 800}, errs[] = {0, 2};

static const char *src_dir(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	return src ? src : XRUN_SOURCE_DIR;
}

struct got {
	size_t n;
	struct winctr_frame f[4];
	struct winctr_cpu cpu[4][4];
};

/* Keep a copy of the first four frames. */
static int keep(void *arg, const struct winctr_frame *f)
{
	struct got *g = arg;
	if (g->n < 4) {
		g->f[g->n] = *f;
		if (f->ncpu) /* memcpy's source must not be NULL */
			memcpy(g->cpu[g->n], f->cpu,
			       (f->ncpu < 4 ? f->ncpu : 4) * sizeof *f->cpu);
		g->f[g->n].cpu = g->cpu[g->n];
	}
	g->n++;
	return 0;
}

static int read_rec(const char *name, struct buf *b)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/data/windows/%s", src_dir(),
		 name);
	return buf_read_file(b, path, 0);
}

static void test_groups(void)
{
	struct buf b = BUF_INIT;
	struct got g = {0};

	ok(read_rec("winctr_groups.txt", &b) == 0, "read winctr_groups.txt");
	is_int(winctr_take(&b, keep, &g), 0, "the recording reads");
	is_int((long long)g.n, 3, "three sample sets");
	is_int((long long)b.len, 2, "only the last CR LF is left");
	for (size_t k = 0; k < 3 && k < g.n; k++) {
		const struct winctr_frame *f = &g.f[k];
		is_int((long long)f->ncpu, 3, "three CPUs, group totals left");
		is_near(f->up, 81234.5 + (double)k, 1e-9, "the set's time");
		ok(f->cpu[0].group == 0 && f->cpu[0].number == 0 &&
		       f->cpu[1].group == 0 && f->cpu[1].number == 1 &&
		       f->cpu[2].group == 1 && f->cpu[2].number == 0,
		   "flat order (0,0) (0,1) (1,0) though listed 1,0 first");
		is_near(f->cpu[2].busy, busy2[k], 1e-12, "cpu 2 busy");
		is_near(f->cpu[2].dpc, dpc2[k], 1e-12, "cpu 2 DPC");
		is_near(f->cpu[1].irq, irq1[k], 1e-15, "cpu 1 interrupt");
		ok(f->cpu[2].have == (WINCTR_BUSY | WINCTR_DPC | WINCTR_IRQ),
		   "all three counters");
		is_near(f->all.busy, all_busy[k], 1e-12, "_total busy");
		is_near(f->all.dpc, all_dpc[k], 1e-12, "_total DPC");
		ok(f->nic == (WINCTR_DISC | WINCTR_RXERR), "nic counts");
	}
	if (g.n == 3) {
		is_int((long long)(g.f[1].rx_discarded - g.f[0].rx_discarded),
		       (long long)drops[0], "discards 1000 -> 1400");
		is_int((long long)(g.f[2].rx_errors - g.f[1].rx_errors),
		       (long long)errs[1], "errors 5 -> 7");
	}
	buf_release(&b);
}

static void test_processor(void)
{
	struct buf b = BUF_INIT;
	struct got g = {0};

	ok(read_rec("winctr_processor.txt", &b) == 0,
	   "read winctr_processor.txt");
	is_int(winctr_take(&b, keep, &g), 0, "the older set reads");
	is_int((long long)g.n, 2, "two sets");
	if (g.n == 2) {
		const struct winctr_frame *f = &g.f[1];
		ok(f->ncpu == 2 && f->cpu[0].number == 0 &&
		       f->cpu[1].number == 1 && f->cpu[1].group == 0,
		   "instances \"0\" \"1\": group 0, in order");
		is_near(f->cpu[0].busy, 30, 1e-12, "cpu 0 busy");
		is_near(f->cpu[1].dpc, 20, 1e-12, "cpu 1 DPC");
		is_near(f->all.busy, 55, 1e-12, "_total");
		ok(f->nic == 0, "no adapter: no nic counts");
	}
	buf_release(&b);
}

/* One frame around body: winctr_take's answer and the frames it gave. */
static int take_one(const char *body, size_t *nframes, struct got *g)
{
	struct buf b = BUF_INIT;
	int rc;
	memset(g, 0, sizeof *g);
	buf_addf(&b, "@@ xrun-winctr 12.000\n%s@@ xrun-winctr-end\n", body);
	rc = winctr_take(&b, keep, g);
	*nframes = g->n;
	buf_release(&b);
	return rc;
}

static void test_malformed(void)
{
	static const struct {
		const char *body;
		int rc;
	} c[] = {
	    {"p 50 0,1\n", 0},
	    {"p 0,5 0,1\n", -XR_EPARSE}, /* a culture's decimal comma */
	    {"p NaN 0,1\n", -XR_EPARSE}, /* not a finite number */
	    {"p 50 cpu0\n", -XR_EPARSE}, /* not an instance of the set */
	    {"x 50 0,1\n", -XR_EPARSE},	 /* not a key of the script */
	    {"p 50\n", -XR_EPARSE},	 /* no instance */
	    {"nd -4 -\n", -XR_EPARSE},	 /* a count is digits */
	    {"nd 18446744073709551615 -\n", 0},
	    {"p 50 0,_total\n", 0}, /* a group's total: read and left */
	};
	struct got g;
	size_t n;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		is_int(take_one(c[i].body, &n, &g), c[i].rc, c[i].body);
	take_one("p 100.6 0,0\np -0.2 0,1\n", &n, &g);
	ok(n == 1 && g.f[0].ncpu == 2 && g.f[0].cpu[0].busy == 100 &&
	       g.f[0].cpu[1].busy == 0,
	   "percentages clamped into [0, 100]");
	{
		struct buf b = BUF_INIT;
		buf_adds(&b, "noise\r\n@@ xrun-winctr 3.5\r\np 1 0\r\n");
		memset(&g, 0, sizeof g);
		is_int(winctr_take(&b, keep, &g), 0, "a partial frame waits");
		ok(g.n == 0 && strstr(b.s, "p 1 0"), "and stays in the buffer");
		buf_adds(&b, "@@ xrun-winctr-end\r\n");
		ok(winctr_take(&b, keep, &g) == 0 && g.n == 1 &&
		       g.f[0].up == 3.5,
		   "completed, it is read");
		buf_release(&b);
	}
	ok(take_one("", &n, &g) == 0 && n == 1 && g.f[0].ncpu == 0,
	   "an empty set is a frame without counters");
}

/* A stream through a pty (ssh -tt to Win32-OpenSSH, ConPTY): the
 * sequences its issues #1528 and #871 show (a window-title OSC ended by
 * BEL, cursor hide/show, erase to the line's end), one cut in two
 * reads. ECMA-48: CSI is ESC [ parameters (0x30-0x3f) intermediates
 * (0x20-0x2f) and a final byte (0x40-0x7e). */
static void test_pty(void)
{
	struct buf b = BUF_INIT;
	struct got g = {0};
	buf_adds(&b, "\x1b]0;C:\\WINDOWS\\system32\\conhost.exe\x07"
		     "\x1b[?25l@@ xrun-winctr 5.000\x1b[K\r\np 50 0,0\x1b[K\r\n"
		     "d 7\x1b[K 0,0\r\n\x1b[?2");
	is_int(winctr_take(&b, keep, &g), 0, "a pty's stream, first part");
	ok(g.n == 0 && b.len >= 4 && !memcmp(b.s + b.len - 4, "\x1b[?2", 4),
	   "the cut sequence waits for its end");
	buf_adds(&b, "5h@@ xrun-winctr-end\x1b[K\r\n");
	is_int(winctr_take(&b, keep, &g), 0, "and the rest");
	ok(g.n == 1 && g.f[0].ncpu == 1 && g.f[0].cpu[0].busy == 50 &&
	       g.f[0].cpu[0].dpc == 7 && g.f[0].up == 5,
	   "the frame read through the sequences");
	buf_release(&b);
}

static void test_script(void)
{
	struct buf s = BUF_INIT;
	struct strv av = {0};
	char *dec;

	is_int(winctr_interval(0.4), 1, "0.4 s: Get-Counter's 1 s minimum");
	is_int(winctr_interval(2.4), 2, "2.4 s: 2");
	is_int(winctr_interval(2.5), 3, "2.5 s: 3");
	is_int(winctr_script("Ether'net $(calc)", 2, 31, &s), 0, "script");
	ok(strstr(s.s, "\n$n = 'Ether''net $(calc)'\n") != NULL,
	   "the interface a single-quoted literal, ' doubled");
	ok(strstr(s.s, "calc") == strstr(s.s, "$(calc)") + 2 &&
	       !strstr(strstr(s.s, "$(calc)") + 7, "calc"),
	   "and nowhere else");
	ok(strstr(s.s, "\n$si = 2\n$ns = 31\n") != NULL,
	   "interval and number of sets");
	ok(strstr(s.s, "Get-Counter -Counter $p -SampleInterval $si "
		       "-MaxSamples $ns") != NULL,
	   "Get-Counter bounded by -MaxSamples");
	ok(strstr(s.s, "'% DPC Time'") && strstr(s.s, "'% Interrupt Time'") &&
	       strstr(s.s, "'Processor Information'") &&
	       strstr(s.s, "'Packets Received Discarded'"),
	   "the English names it looks up");
	ok(strstr(s.s, "OpenSubKey($pl + '009')") &&
	       strstr(s.s, "OpenSubKey($pl + 'CurrentLanguage')") &&
	       !strstr(s.s, "Add-Type"),
	   "localized through Perflib\\009 and CurrentLanguage, no Add-Type");
	ok(strstr(s.s, "ToString('R', $ic)") && strstr(s.s, "RawValue"),
	   "values in the invariant culture");
	is_int(winctr_argv("Ether'net $(calc)", 2, 31, &av), 0, "argv");
	ok(av.n == 5 && !strcmp(av.v[0], "powershell.exe") &&
	       !strcmp(av.v[3], "-EncodedCommand"),
	   "powershell.exe -NoProfile -NonInteractive -EncodedCommand B64");
	dec = av.n == 5 ? ps_b64_decode(av.v[4]) : NULL;
	is_str(dec, s.s, "it decodes to the script");
	free(dec);
	strv_release(&av);
	buf_reset(&s);
	winctr_script("\xe2\x80\x99x", 1, 1, &s);
	ok(strstr(s.s, "$n = '\xe2\x80\x99\xe2\x80\x99x'\n") != NULL,
	   "a typographic quote doubled as PowerShell needs");
	buf_release(&s);
}

/* The stand-in powershell.exe: its first words must be the sampler's; it
 * keeps the encoded script in DIR/cmd, waits for DIR/go (made after the
 * mark), prints the recording and waits to be stopped. */
static int write_fake(const char *dir)
{
	char fake[600];
	FILE *f;
	snprintf(fake, sizeof fake, "%s/powershell.exe", dir);
	if (!(f = fopen(fake, "w")))
		return -1;
	fprintf(
	    f,
	    "#!/bin/sh\n"
	    "[ \"$1 $2 $3\" = '-NoProfile -NonInteractive -EncodedCommand' ]"
	    " || { echo \"args: $*\" >&2; exit 9; }\n"
	    "printf %%s \"$4\" > '%s/cmd'\n"
	    "while [ ! -e '%s/go' ]; do sleep 0.05; done\n"
	    "cat '%s/tests/data/windows/winctr_groups.txt'\n"
	    "exec sleep 300\n",
	    dir, dir, src_dir());
	fclose(f);
	return chmod(fake, 0755);
}

/* Peek until n points of name came (or 60 s: a failure). */
static size_t wait_points(struct sampler *s, const char *name, size_t n,
			  struct series_set *got)
{
	double end = proc_now_mono() + 60;
	const struct series *se = NULL;
	while (proc_now_mono() < end) {
		struct series_set one = {0};
		if (sampler_peek_new(s, &one) < 0 ||
		    series_set_take(got, &one) < 0)
			break;
		series_set_release(&one);
		se = series_set_find(got, "win", name);
		if (se && se->n >= n)
			break;
		proc_sleep(0.05);
	}
	return se ? se->n : 0;
}

/* The recording's series; seen: seconds from the mark to when its sets
 * had all been read (the stand-in prints them at once after "go"). */
static void check_series(const struct series_set *all, double seen)
{
	static const struct {
		const char *name;
		const double *v;
		size_t n;
	} w[] = {
	    {"cpu.2.busy", busy2, 3},	     {"cpu.2.softirq", dpc2, 3},
	    {"cpu.1.irq", irq1, 3},	     {"cpu.all.busy", all_busy, 3},
	    {"cpu.all.softirq", all_dpc, 3}, {"nic.rx_dropped", drops, 2},
	    {"nic.rx_errors", errs, 2},
	};
	const struct series *ref = series_set_find(all, "win", "cpu.0.busy");
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		const struct series *se =
		    series_set_find(all, "win", w[i].name);
		ok(se && se->n == w[i].n, "%s: %zu points", w[i].name,
		   se ? se->n : 0);
		for (size_t k = 0; se && k < se->n && k < w[i].n; k++)
			is_near(se->v[k], w[i].v[k], 1e-9, w[i].name);
	}
	/* 3 CPUs x busy, softirq, irq; cpu.all x 3; two nic series */
	is_int((long long)all->n, 14, "no other series");
	ok(ref && ref->n == 3 && fabs(ref->t[1] - ref->t[0] - 1) < 1e-6 &&
	       fabs(ref->t[2] - ref->t[1] - 1) < 1e-6,
	   "points 1 s apart, as the far side's clock says");
	/* The far clock's offset is the fastest set's (the least read time
	 * minus stamp): all three came together, so the last set, stamped
	 * latest, had the least delay and is placed at its arrival, between
	 * the mark and when the test had seen it; from the slowest it would
	 * be 2 s later (the first set's stamp is 2 s older). */
	ok(ref && ref->n == 3 && ref->t[2] >= 0 && ref->t[2] <= seen,
	   "the last set at its arrival, in [0, %.3f] s after the mark (t "
	   "%.3f)",
	   seen, ref ? ref->t[2] : -1);
}

static void sample_win(const char *ns, const char *dir)
{
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set got = {0}, all = {0};
	struct xr_err err = {0};
	struct buf cmd = BUF_INIT;
	char path[600], *script;
	double t_mark, seen;
	FILE *f;

	ph.name = "win";
	ph.netns = (char *)ns;
	ph.os = PLAN_OS_WINDOWS;
	ok(host_open(&ph, NULL, &h, &err) == 0, "open the Windows host: %s",
	   err.msg);
	if (!h)
		return;
	ok(sampler_start(h, "win", "Ethernet", PLAN_COUNTER_TCP, 0.4, 60, &s,
			 &err) < 0 &&
	       strstr(err.msg, "host 'win' (Windows): the sampler reads CPU "
			       "time and the adapter's receive drops") &&
	       !s,
	   "tcp only: refused, and why (%s)", err.msg);
	memset(&err, 0, sizeof err);
	ok(sampler_start(h, "win", NULL, PLAN_COUNTER_NIC, 0.4, 60, &s, &err) <
		   0 &&
	       !s,
	   "nic without an interface: refused");
	memset(&err, 0, sizeof err);
	ok(sampler_start(h, "win", "Ethernet",
			 PLAN_COUNTER_CPU | PLAN_COUNTER_NIC | PLAN_COUNTER_TCP,
			 0.4, 60, &s, &err) == 0,
	   "start the Windows sampler: %s", err.msg);
	sampler_mark(s);
	t_mark = proc_now_mono();
	snprintf(path, sizeof path, "%s/go", dir);
	if ((f = fopen(path, "w")))
		fclose(f);
	is_int((long long)wait_points(s, "nic.rx_dropped", 2, &got), 2,
	       "the recording's sets came");
	seen = proc_now_mono() - t_mark;
	sampler_stop(s, &all);
	check_series(&all, seen);
	ok(strstr(all.note, "(Windows) reads Get-Counter every 1 s; of nic "
			    "only receive discards and errors, no tcp"),
	   "the note says how: %s", all.note);
	snprintf(path, sizeof path, "%s/cmd", dir);
	script =
	    buf_read_file(&cmd, path, 0) == 0 ? ps_b64_decode(cmd.s) : NULL;
	ok(script && strstr(script, "\n$n = 'Ethernet'\n$si = 1\n$ns = 61\n"),
	   "the far side got the interface, 1 s and 60 s / 1 s + 1 sets");
	free(script);
	series_set_release(&got);
	series_set_release(&all);
	/* cpu alone: no adapter counters asked for over there, none kept */
	memset(&err, 0, sizeof err);
	ok(sampler_start(h, "win", "Ethernet", PLAN_COUNTER_CPU, 1, 60, &s,
			 &err) == 0,
	   "start it with cpu only: %s", err.msg);
	sampler_mark(s);
	is_int((long long)wait_points(s, "cpu.0.busy", 3, &got), 3,
	       "the three sets came");
	sampler_stop(s, &all);
	is_int((long long)all.n, 12, "cpu series only");
	ok(!all.note[0], "period and counters as planned: no note (%s)",
	   all.note);
	buf_reset(&cmd);
	script =
	    buf_read_file(&cmd, path, 0) == 0 ? ps_b64_decode(cmd.s) : NULL;
	ok(script && strstr(script, "\n$n = ''\n$si = 1\n"),
	   "the far side got no interface");
	free(script);
	buf_release(&cmd);
	series_set_release(&got);
	series_set_release(&all);
	host_close(h);
}

static void test_sampler_netns(void)
{
	char dir[256], ns[32], cmd[1400];
	const char *old_path = getenv("PATH");

	if (geteuid() != 0) {
		tap_skip("the Windows sampler test needs root (a namespace)");
		return;
	}
	snprintf(dir, sizeof dir, "/tmp/xr-winctr-XXXXXX");
	snprintf(ns, sizeof ns, "xrwin%d", (int)getpid() % 100000);
	snprintf(cmd, sizeof cmd, "ip netns add %s", ns);
	if (!mkdtemp(dir) || system(cmd) != 0) {
		tap_skip("cannot create a namespace");
		return;
	}
	if (write_fake(dir) == 0) {
		snprintf(cmd, sizeof cmd, "%s:%s", dir,
			 old_path ? old_path : "");
		setenv("PATH", cmd, 1);
		sample_win(ns, dir);
	} else {
		ok(0, "write the stand-in powershell.exe in %s", dir);
	}
	snprintf(cmd, sizeof cmd, "ip netns del %s; rm -rf '%s'", ns, dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
}

int main(void)
{
	test_groups();
	test_processor();
	test_malformed();
	test_pty();
	test_script();
	test_sampler_netns();
	return tap_done();
}
