/*
 * Progress while a plan runs: on a terminal one line rewritten in place
 * ("[ 37/96]  38%  ETA 00:41:10  slot=pcie3x1 streams=4 rep 2/3  last
 * 9.41 Gbit/s"); otherwise (a log file, CI) one plain line per run, so
 * that a log read the next morning tells what happened when.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "plan.h"
#include "runctx.h"
#include "banned.h"

static int shown; /* a \r line is on the terminal */

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
	if (run->warmup)
		buf_adds(b, " warm-up");
	else
		buf_addf(b, " rep %u/%d", (unsigned)run->rep, p->repeat);
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

void progress_run_done(struct runctx *rc, size_t i, const char *status,
		       double primary, const char *unit, double elapsed)
{
	struct buf b = BUF_INIT;
	char val[48], eta[32];
	size_t total = rc->s.nruns;
	size_t left = rc->n_todo > rc->n_run ? rc->n_todo - rc->n_run : 0;
	double per = rc->n_run ? rc->t_runs / (double)rc->n_run : 0;
	int w = snprintf(NULL, 0, "%zu", total);
	if (rc->o->quiet)
		return;
	progress_fmt_value(primary, strcmp(status, "ok") ? NULL : unit, val,
			   sizeof val);
	{
		long s = (long)(per * (double)left + 0.5);
		snprintf(eta, sizeof eta, "%02ld:%02ld:%02ld", s / 3600,
			 s / 60 % 60, s % 60);
	}
	cell_text(rc, i, &b);
	if (isatty(2)) {
		fprintf(stderr, "\r\033[K[%*zu/%zu] %3d%%  ETA %s  %s  last %s",
			w, i + 1, total,
			(int)(100.0 * (double)(i + 1) / (double)total), eta,
			b.s, val);
		fflush(stderr);
		shown = 1;
	} else {
		fprintf(stderr, "xrun: [%*zu/%zu] %-7s %s  %s  %.1f s\n", w,
			i + 1, total, status, b.s, val, elapsed);
	}
	buf_release(&b);
}
