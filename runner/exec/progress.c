/*
 * Progress while a plan runs: on a terminal one line rewritten in place
 * ("[ 37/96]  38%  ETA 00:41:10  slot=pcie3x1 streams=4 rep 2/3  last
 * 9.41 Gbit/s"); otherwise (a log file, CI) one plain line per run, so
 * that a log read the next morning tells what happened when.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "plan.h"
#include "runctx.h"
#include "banned.h"

static int shown;		/* a \r line is on the terminal */
static char last_val[48] = "-"; /* primary metric of the last run */

void progress_fmt_value(double v, const char *unit, char *out, size_t n)
{
	static const char *const pre[] = {"", "k", "M", "G", "T"};
	int k = 0;
	if (!unit) {
		snprintf(out, n, "-");
		return;
	}
	if (!strcmp(unit, "bit/s") || !strcmp(unit, "B/s") ||
	    !strcmp(unit, "B")) {
		double a = v < 0 ? -v : v;
		while (a >= 1000 && k < 4) {
			a /= 1000;
			v /= 1000;
			k++;
		}
		if (!strcmp(unit, "bit/s"))
			snprintf(out, n, "%.2f %sbit/s", v, pre[k]);
		else
			snprintf(out, n, "%.2f %s%s", v, pre[k], unit);
		return;
	}
	snprintf(out, n, "%g %s", v, unit);
}

static void cell_text(const struct runctx *rc, size_t i, struct buf *b)
{
	const struct plan *p = rc->p;
	const struct sched_run *run = &rc->s.runs[i];
	const uint32_t *lv = matrix_cell(&rc->m, run->cell);
	int f;
	for (f = 0; f < p->nfactors; f++)
		buf_addf(b, "%s%s=%s", f ? " " : "", p->factors[f].name,
			 p->factors[f].levels[lv[f]]);
	if (p->nfactors)
		buf_addc(b, ' ');
	if (run->warmup)
		buf_adds(b, "warm-up");
	else if (p->precision > 0)
		/* Sized: the pilot's count, then at most max. */
		buf_addf(b, "rep %u/%d..%d", (unsigned)run->rep, p->repeat,
			 p->repeat_max);
	else
		buf_addf(b, "rep %u/%d", (unsigned)run->rep, p->repeat);
}

void progress_clear(struct runctx *rc)
{
	(void)rc;
	if (shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		shown = 0;
	}
}

double progress_eta(const struct runctx *rc)
{
	size_t left = rc->n_todo > rc->n_run ? rc->n_todo - rc->n_run : 0;
	double est_left = rc->est_todo - rc->est_done;
	if (!rc->n_run)
		return -1;
	/* each run left: its own engine seconds (a level's duration) and
	 * what a run has cost beyond its engine seconds so far */
	return (est_left > 0 ? est_left : 0) +
	       (double)left * (rc->t_runs - rc->est_done) / (double)rc->n_run;
}

/* "00:41:10", or "--:--:--" before the first run. */
static void eta_text(const struct runctx *rc, char *eta, size_t n)
{
	double e = progress_eta(rc);
	long s = (long)(e + 0.5);
	if (e < 0)
		snprintf(eta, n, "--:--:--");
	else
		snprintf(eta, n, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60,
			 s % 60);
}

/* The terminal line: "[ 37/96]  38%  ETA 00:41:10  cell rep 2/3  last X".
 * [i/total] is the run's position in the schedule; the percentage is the
 * share of the session's runs that have ended, which is not the position
 * once --only or a manual block leaves runs pending. */
static void tty_line(struct runctx *rc, size_t i)
{
	size_t shown_done =
	    rc->n_done0 + rc->n_ok + rc->n_failed + rc->n_timeout;
	struct buf b = BUF_INIT;
	char eta[32];
	size_t total = rc->s.nruns;
	int w = snprintf(NULL, 0, "%zu", total);
	eta_text(rc, eta, sizeof eta);
	cell_text(rc, i, &b);
	fprintf(stderr, "\r\033[K[%*zu/%zu] %3d%%  ETA %s  %s  last %s", w,
		i + 1, total,
		(int)(100.0 * (double)shown_done / (double)(total ? total : 1)),
		eta, b.s, last_val);
	fflush(stderr);
	shown = 1;
	buf_release(&b);
}

void progress_run_start(struct runctx *rc, size_t i)
{
	if (!rc->o->quiet && isatty(2))
		tty_line(rc, i);
}

void progress_run_done(struct runctx *rc, size_t i, const char *status,
		       double primary, const char *unit, double elapsed)
{
	struct buf b = BUF_INIT;
	char eta[32];
	int w = snprintf(NULL, 0, "%zu", rc->s.nruns);
	if (rc->o->quiet)
		return;
	if (strcmp(status, "ok") != 0)
		snprintf(last_val, sizeof last_val, "%s", status);
	else
		progress_fmt_value(primary, unit, last_val, sizeof last_val);
	if (isatty(2)) {
		tty_line(rc, i);
		return;
	}
	cell_text(rc, i, &b);
	eta_text(rc, eta, sizeof eta);
	/* a log read in the morning (nohup, CI) has the ETA too */
	fprintf(stderr, "xrun: [%*zu/%zu] %-7s %s  %s  %.1f s  ETA %s\n", w,
		i + 1, rc->s.nruns, status, b.s, last_val, elapsed, eta);
	buf_release(&b);
}
