/*
 * Manual steps during a run: printing a manual factor's expanded
 * instruction (manual.c expands it) and waiting for Enter, or, for a step
 * such as "Boot the client into {{os}}" whose factor (or host) has
 * `wait:`, waiting for the rebooted
 * host to answer over ssh again and checking with the factor's verify
 * that it came back as the level asks (the right OS) before any run. An
 * unattended run makes such a step by itself: it announces it, waits, and
 * goes on when the host is back, or leaves the block pending at the
 * timeout with the reason stored (hooks row kind 'wait').
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "manual.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "banned.h"

static void print_step(void *prefix, const struct plan_factor *f,
		       const char *level, const char *text)
{
	fprintf(stderr, "%s%s=%s: %s\n", (const char *)prefix, f->name, level,
		text);
}

/* The manual steps of the factors whose levels in lv differ from from
 * (NULL = all), expanded (manual.c), on stderr. */
static void print_manual(struct runctx *rc, const uint32_t *lv,
			 const uint32_t *from, const char *prefix)
{
	struct runctx_tmpl t;
	runctx_tmpl_init(&t, rc, lv, 0);
	manual_steps(&t.c, from, print_step, (void *)prefix);
	runctx_tmpl_release(&t);
}

/* Wait for a line on stdin: 0; -XR_EINTR when interrupted, -XR_EIO at
 * EOF or on a read error (both stop the run). */
static int wait_enter(void)
{
	char c;
	for (;;) {
		struct pollfd pfd = {0, POLLIN, 0};
		int r;
		if (proc_interrupted)
			return -XR_EINTR;
		r = poll(&pfd, 1, 250);
		if (r < 0 && errno != EINTR)
			return -XR_EIO;
		if (r <= 0)
			continue;
		while (read(0, &c, 1) == 1)
			if (c == '\n')
				return 0;
		return -XR_EIO; /* EOF or error */
	}
}

/* The hosts manual factor f reboots in cell lv, with how long to wait
 * for each: the hosts its hosts: binds at the level, else its on: hosts;
 * the factor's wait, else the host's. Returns how many (waits > 0 only). */
static int wait_targets(const struct runctx *rc, int f, const uint32_t *lv,
			int *hi, double *secs, int cap)
{
	const struct plan *p = rc->p;
	const struct plan_factor *fac = &p->factors[f];
	int n = 0, k, j, m = fac->nbind ? fac->nbind : fac->non;
	for (k = 0; k < m && n < cap; k++) {
		int h = fac->nbind
			    ? runctx_role_index(rc, fac->bind[k].role, lv)
			    : runctx_role_index(rc, fac->on[k], lv);
		double w;
		if (h < 0)
			continue;
		w = fac->wait > 0 ? fac->wait : p->hosts[h].wait;
		for (j = 0; j < n && hi[j] != h; j++)
			;
		if (w <= 0 || j < n)
			continue;
		hi[n] = h;
		secs[n++] = w;
	}
	return n;
}

int hooks_manual_unattended(const struct runctx *rc, size_t i)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	int f, hi[8];
	double secs[8];
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].manual && rc->manual_state[f] != lv[f] &&
		    wait_targets(rc, f, lv, hi, secs, 8) == 0)
			return 0;
	return 1;
}

struct ready_ctx {
	int f;
	const uint32_t *lv;
};

/* The host is back as the block needs when every manual factor's verify
 * that runs there passes (the OS, the board, the card): the factor that
 * made the change first. */
static int ready(struct runctx *rc, int hi, void *ctx, struct buf *why)
{
	struct ready_ctx *r = ctx;
	int f;
	if (hooks_verify_on(rc, r->f, hi, r->lv, why) < 0)
		return -1;
	for (f = 0; f < rc->p->nfactors; f++)
		if (f != r->f && rc->p->factors[f].manual &&
		    hooks_verify_on(rc, f, hi, r->lv, why) < 0)
			return -1;
	return 0;
}

/* Wait for the hosts factor f rebooted. 0, 1 (block pending), -XR_EINTR */
static int wait_factor(struct runctx *rc, size_t i, int f, int first)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	struct ready_ctx rcx = {f, lv};
	struct buf why = BUF_INIT, what = BUF_INIT;
	int hi[8], n, k, r = 0;
	double secs[8];
	n = wait_targets(rc, f, lv, hi, secs, 8);
	buf_addf(&what, "%s=%s", fac->name, fac->levels[lv[f]]);
	for (k = 0; k < n && r == 0; k++) {
		/* Its connection is from before the reboot. */
		if (!first)
			hostset_drop(rc, hi[k]);
		r = hostset_wait(rc, hi[k], secs[k], what.s, ready, &rcx, &why);
		if (r == -XR_ETIMEOUT) {
			progress_clear(rc);
			fprintf(stderr, "xrun: block %u left pending: %s\n",
				(unsigned)rc->s.runs[i].block + 1, why.s);
			store_hook_add(rc->st, rc->session_id, rc->ids[i],
				       fac->name, rc->p->hosts[hi[k]].name,
				       "wait", fac->levels[lv[f]], NULL, -2000,
				       NULL, why.s, NULL);
			r = 1;
		} else if (r == 0) {
			store_hook_add(rc->st, rc->session_id, rc->ids[i],
				       fac->name, rc->p->hosts[hi[k]].name,
				       "wait", fac->levels[lv[f]], NULL, 0,
				       NULL, NULL, NULL);
		}
	}
	buf_release(&why);
	buf_release(&what);
	return r;
}

/* The hosts manual factor f's step touches in cell lv, whose facts are
 * read again: the hosts its hosts: binds, else its on: hosts (which
 * default to the client: plan_factor.c; a step that changes the server
 * says so in on:). */
static void touch_manual(struct runctx *rc, int f, const uint32_t *lv)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	int k, m = fac->nbind ? fac->nbind : fac->non;
	for (k = 0; k < m; k++)
		runfacts_touch(
		    rc,
		    runctx_role_index(
			rc, fac->nbind ? fac->bind[k].role : fac->on[k], lv),
		    1, f, lv[f]);
}

int hooks_manual_enter(struct runctx *rc, size_t i, int first)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	int f, r, any = 0;
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].manual &&
		    (first || rc->manual_state[f] != lv[f]))
			any = 1;
	if (any && rc->interactive && !(first && rc->o->yes)) {
		progress_clear(rc);
		fprintf(stderr,
			first ? "xrun: make sure of the setup for the "
				"first runs:\n"
			      : "xrun: manual step before run %zu:\n",
			i + 1);
		print_manual(rc, lv, first ? NULL : rc->manual_state, "  ");
		fprintf(stderr, "press Enter when done (Ctrl-C stops; "
				"finished runs are kept) ");
		fflush(stderr);
		if (wait_enter() < 0)
			return -XR_EINTR;
	} else if (any && !first && !rc->o->quiet) {
		/* Unattended, every change waits for its host. */
		progress_clear(rc);
		fprintf(stderr,
			"xrun: manual step before run %zu (unattended: "
			"waiting for the hosts to come back):\n",
			i + 1);
		print_manual(rc, lv, rc->manual_state, "  ");
	}
	/* The first block's hosts are read whole when first opened. */
	for (f = 0; f < p->nfactors && !first; f++)
		if (p->factors[f].manual && rc->manual_state[f] != lv[f])
			touch_manual(rc, f, lv);
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].manual &&
		    (first || rc->manual_state[f] != lv[f]) &&
		    (r = wait_factor(rc, i, f, first)) != 0)
			return r;
	for (f = 0; f < p->nfactors; f++) {
		if (!p->factors[f].manual)
			continue;
		if (any && (first || rc->manual_state[f] != lv[f]))
			store_hook_add(rc->st, rc->session_id, rc->ids[i],
				       p->factors[f].name, "local", "manual",
				       p->factors[f].levels[lv[f]], NULL, -2000,
				       NULL, NULL, NULL);
		rc->manual_state[f] = lv[f];
	}
	rc->manual_known = 1;
	return 0;
}
