/*
 * Factor hooks during a run: bringing each automatic factor to the level a
 * run needs (apply only when the level changes, after capturing the
 * original value for `restore: true`), verifying every factor's setting
 * before every run (probe or command, compared by the factor's match mode)
 * so that each stored run carries proof of what was in effect, the manual
 * steps (print the expanded instruction, wait for Enter), and putting back
 * what was changed at the end. Templates expand through runctx.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "host.h"
#include "manual.h"
#include "placeholder.h"
#include "plan.h"
#include "probe.h"
#include "proc.h"
#include "runctx.h"
#include "store.h"
#include "banned.h"

#define HOOK_TIMEOUT 120.0

struct hooks_vc {
	char *expected, *actual;
	char method[48];
	int ok, valid;
};

struct hooks_factor {
	int applied; /* a level of ours is in effect */
	uint32_t lv;
	uint32_t block; /* manual block it was applied in */
	int nhosts;
	int *hi;     /* [nhosts] plan host indices */
	char **orig; /* [nhosts] value found before the first change */
	int orig_captured;
	int orig_stored;     /* originals of an earlier xrun of this session */
	struct hooks_vc *vc; /* [nhosts] the latest verification */
};

/* ---- hooks ----------------------------------------------------------- */

static const char *host_label(const struct runctx *rc, int hi);

/* Does factor f capture an original value before its first apply? */
static int wants_original(const struct plan_factor *fac)
{
	return !fac->manual && fac->apply.argv &&
	       (fac->restore_original || (fac->restore.argv && fac->verify));
}

/*
 * A resumed session: the originals an earlier xrun of it captured (before
 * it was killed) are the true ones; reading the setting again would find a
 * level xrun applied itself. They are restored at the end even when this
 * xrun applies nothing.
 */
static void load_originals(struct runctx *rc, int f)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	int k, all = 1;
	if (!wants_original(fac))
		return;
	for (k = 0; k < h->nhosts; k++) {
		char *v = NULL;
		if (store_original_get(rc->st, rc->session_id, fac->name,
				       host_label(rc, h->hi[k]), &v,
				       NULL) == 1) {
			h->orig[k] = v;
			h->orig_stored = 1;
		} else {
			all = 0;
		}
	}
	h->orig_captured = all && h->orig_stored;
}

int hooks_init(struct runctx *rc)
{
	const struct plan *p = rc->p;
	int f, k;
	size_t total = 0;
	rc->hf = calloc((size_t)p->nfactors + 1, sizeof *rc->hf);
	rc->manual_state = calloc((size_t)p->nfactors + 1, sizeof(uint32_t));
	if (!rc->hf || !rc->manual_state)
		return -XR_ENOMEM;
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fac = &p->factors[f];
		struct hooks_factor *h = &rc->hf[f];
		static const char *const def_on[] = {"client"};
		const char *const *on = fac->non ? fac->on : def_on;
		int non = fac->non ? fac->non : 1;
		h->hi = calloc((size_t)non, sizeof *h->hi);
		h->orig = calloc((size_t)non, sizeof *h->orig);
		h->vc = calloc((size_t)non, sizeof *h->vc);
		if (!h->hi || !h->orig || !h->vc)
			return -XR_ENOMEM;
		/* on: [client, server] with both on one host (a loopback
		 * plan) names it twice: hooks run there once. */
		h->nhosts = 0;
		for (k = 0; k < non; k++) {
			int hi = runctx_host_index(rc, on[k]), j, dup = 0;
			for (j = 0; j < h->nhosts; j++)
				dup |= hi >= 0 && h->hi[j] == hi;
			if (!dup)
				h->hi[h->nhosts++] = hi;
		}
		total += (size_t)h->nhosts;
		load_originals(rc, f);
	}
	rc->vcap = total + 16;
	rc->vbuf = calloc(rc->vcap, sizeof *rc->vbuf);
	return rc->vbuf ? 0 : -XR_ENOMEM;
}

void hooks_release(struct runctx *rc)
{
	int f, k;
	if (!rc->hf)
		return;
	for (f = 0; f < rc->p->nfactors; f++) {
		struct hooks_factor *h = &rc->hf[f];
		for (k = 0; k < h->nhosts; k++) {
			free(h->orig[k]);
			free(h->vc[k].expected);
			free(h->vc[k].actual);
		}
		free(h->hi);
		free(h->orig);
		free(h->vc);
	}
	free(rc->hf);
	free(rc->manual_state);
	free(rc->vbuf);
	rc->hf = NULL;
}

static void trim(struct buf *b)
{
	size_t s = 0, e = b->len;
	while (s < e && (b->s[s] == ' ' || b->s[s] == '\t' || b->s[s] == '\n' ||
			 b->s[s] == '\r'))
		s++;
	while (e > s && (b->s[e - 1] == ' ' || b->s[e - 1] == '\t' ||
			 b->s[e - 1] == '\n' || b->s[e - 1] == '\r'))
		e--;
	if (s > 0)
		memmove(b->s, b->s + s, e - s);
	if (b->len) {
		b->len = e - s;
		b->s[b->len] = '\0';
	}
}

static const char *host_label(const struct runctx *rc, int hi)
{
	return hi >= 0 ? rc->p->hosts[hi].name : "?";
}

/*
 * Run one hook argv template on host slot k of factor f; stdout goes to
 * out. With a kind, it is logged (warnings and a hook row); without one
 * (per-run verification) it is silent: the verification row is the record.
 * Returns the exit code, or -1 when it could not run / did not exit.
 */
static int run_hook(struct runctx *rc, int f, int k, const char *kind,
		    const struct plan_argv *tv, struct runctx_tmpl *t,
		    const char *level, int64_t run_id, struct buf *out)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	int hi = rc->hf[f].hi[k];
	struct host *h = hi >= 0 ? rc->hosts[hi] : NULL;
	struct proc_opts po = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	struct buf aj = BUF_INIT;
	char **argv, why[256];
	int code = -1;
	if (out)
		buf_reset(out);
	if (!h) {
		if (kind)
			fprintf(stderr,
				"xrun: warning: factor '%s': host '%s' is not "
				"open; %s hook skipped\n",
				fac->name, host_label(rc, hi), kind);
		return -1;
	}
	/* {{iface}} is the interface of the host this command runs on, for
	 * this expansion only: later templates must not inherit it. */
	t->c.iface = runctx_iface(rc, hi);
	argv = runctx_expand_argv(tv->argv, t, &err);
	t->c.iface = NULL;
	if (!argv) {
		if (kind)
			fprintf(stderr, "xrun: warning: factor '%s': %s\n",
				fac->name, err.msg);
		return -1;
	}
	po.argv = (const char *const *)argv;
	po.timeout = HOOK_TIMEOUT;
	/* A daemon a hook starts may be meant to last the session: it dies
	 * when xrun exits, not after the hook (an engine's, after its run). */
	po.keep_daemons = 1;
	po.max_output = 1 << 20;
	if (kind)
		engine_argv_json((const char *const *)argv, &aj);
	if (host_run(h, &po, &res, &err) < 0) {
		if (kind) {
			fprintf(stderr,
				"xrun: warning: factor '%s' %s hook on '%s': "
				"%s\n",
				fac->name, kind, host_name(h), err.msg);
			store_hook_add(rc->st, rc->session_id, run_id,
				       fac->name, host_name(h), kind, level,
				       aj.s, -2000, NULL, err.msg, NULL);
		}
	} else {
		if (res.status == PROC_EXITED)
			code = res.exit_code;
		if (out && res.out)
			buf_add(out, res.out, res.out_len);
		if (kind && code != 0 && strcmp(kind, "verify") != 0)
			fprintf(stderr,
				"xrun: warning: factor '%s' %s hook on '%s' "
				"%s: %s\n",
				fac->name, kind, host_name(h),
				proc_describe(&res, why, sizeof why), aj.s);
		if (kind)
			store_hook_add(
			    rc->st, rc->session_id, run_id, fac->name,
			    host_name(h), kind, level, aj.s,
			    res.status == PROC_EXITED ? res.exit_code : -2000,
			    res.out, res.err, NULL);
	}
	proc_result_release(&res);
	buf_release(&aj);
	runctx_argv_free(argv);
	return code;
}

/* Read the factor's current value on host slot k the way verify says. */
static int read_value(struct runctx *rc, int f, int k, struct runctx_tmpl *t,
		      int64_t run_id, const char *log_kind, struct buf *actual,
		      char *method, size_t msz)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	const struct plan_verify *v = fac->verify;
	int hi = rc->hf[f].hi[k], code;
	struct xr_err err = {0};
	buf_reset(actual);
	if (v->probe) {
		snprintf(method, msz, "probe:%s", v->probe);
		if (hi < 0 || !rc->hosts[hi] ||
		    probe_read(rc->hosts[hi], v->probe, runctx_iface(rc, hi),
			       actual, &err) < 0) {
			buf_reset(actual);
			buf_addf(actual, "(probe failed: %s)",
				 err.msg[0] ? err.msg : "host not open");
			return -1;
		}
		trim(actual);
		return 0;
	}
	snprintf(method, msz, "run");
	code = run_hook(rc, f, k, log_kind, &v->run, t, fac->levels[t->c.lv[f]],
			run_id, actual);
	trim(actual);
	return code == 0 ? 0 : -1;
}

static int match(const char *actual, const char *expected,
		 enum plan_verify_match m)
{
	switch (m) {
	case PLAN_MATCH_CONTAINS:
		return strstr(actual, expected) != NULL;
	case PLAN_MATCH_PREFIX:
		return strncmp(actual, expected, strlen(expected)) == 0;
	default:
		/* nic.pcie_link reads "8.0 GT/s x1 (max 8.0 GT/s x4)": the
		 * setting is the negotiated link, the annotation is context. */
		if (strncmp(actual, expected, strlen(expected)) == 0 &&
		    strncmp(actual + strlen(expected), " (max ", 6) == 0)
			return 1;
		return strcmp(actual, expected) == 0;
	}
}

static void vc_set(struct hooks_vc *vc, const char *method,
		   const char *expected, const char *actual, int ok)
{
	free(vc->expected);
	free(vc->actual);
	vc->expected = strdup(expected ? expected : "");
	vc->actual = strdup(actual ? actual : "");
	snprintf(vc->method, sizeof vc->method, "%s", method);
	vc->ok = ok;
	vc->valid = 1;
}

/* Verify factor f on every host; warn on a mismatch when `loud`. */
static void verify_factor(struct runctx *rc, int f, struct runctx_tmpl *t,
			  int64_t run_id, int loud)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	const struct plan_verify *v = fac->verify;
	struct hooks_factor *h = &rc->hf[f];
	struct buf exp = BUF_INIT, act = BUF_INIT;
	struct xr_err err = {0};
	char method[48];
	int k, ok;
	uint32_t lv = t->c.lv[f];
	if (v->expect_by_level)
		buf_adds(&exp, v->expect_by_level[lv]);
	else if (v->expect) {
		if (runctx_expand(v->expect, t, &exp, &err) < 0)
			buf_adds(&exp, v->expect);
	} else
		buf_adds(&exp, fac->levels[lv]);
	for (k = 0; k < h->nhosts; k++) {
		int r = read_value(rc, f, k, t, run_id, loud ? "verify" : NULL,
				   &act, method, sizeof method);
		ok = r == 0 && match(act.s, exp.s, v->match);
		/* Warn once per change of outcome, never silently. */
		if (!ok && (loud || !h->vc[k].valid || h->vc[k].ok))
			fprintf(stderr,
				"xrun: warning: factor '%s' on '%s' is not "
				"verified: expected '%s', found '%s' (runs "
				"are marked unverified)\n",
				fac->name, host_label(rc, h->hi[k]), exp.s,
				act.s);
		vc_set(&h->vc[k], method, exp.s, act.s, ok);
	}
	buf_release(&exp);
	buf_release(&act);
}

static void capture_original(struct runctx *rc, int f, struct runctx_tmpl *t,
			     int64_t run_id)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	struct buf act = BUF_INIT;
	char method[48];
	int k;
	h->orig_captured = 1;
	if (!fac->verify) {
		fprintf(stderr,
			"xrun: warning: factor '%s' has restore: true but "
			"no verify: to read the original value from; it "
			"will not be restored\n",
			fac->name);
		return;
	}
	for (k = 0; k < h->nhosts; k++) {
		if (h->orig[k])
			continue; /* stored by an earlier xrun of the session */
		if (read_value(rc, f, k, t, run_id, "capture", &act, method,
			       sizeof method) == 0) {
			h->orig[k] = strdup(act.s);
			/* Kept before the first change, so that a resume
			 * after a kill restores this value, not ours. */
			if (h->orig[k] &&
			    store_original_put(
				rc->st, rc->session_id, fac->name,
				host_label(rc, h->hi[k]), h->orig[k], NULL) < 0)
				fprintf(stderr,
					"xrun: warning: factor '%s': cannot "
					"store the original value on '%s'; a "
					"resume after a crash would not know "
					"it\n",
					fac->name, host_label(rc, h->hi[k]));
		} else
			fprintf(stderr,
				"xrun: warning: factor '%s': cannot read the "
				"original value on '%s' (%s); it will not be "
				"restored\n",
				fac->name, host_label(rc, h->hi[k]), act.s);
	}
	buf_release(&act);
}

static void collect(struct runctx *rc)
{
	int f, k;
	rc->nvbuf = 0;
	for (f = 0; f < rc->p->nfactors; f++) {
		struct hooks_factor *h = &rc->hf[f];
		for (k = 0; k < h->nhosts; k++) {
			struct hooks_vc *vc = &h->vc[k];
			struct store_verification *v;
			if (!vc->valid || rc->nvbuf >= rc->vcap)
				continue;
			v = &rc->vbuf[rc->nvbuf++];
			v->factor = rc->p->factors[f].name;
			v->host = host_label(rc, h->hi[k]);
			v->method = vc->method;
			v->expected = vc->expected;
			v->actual = vc->actual;
			v->ok = vc->ok;
		}
	}
}

int hooks_prepare(struct runctx *rc, size_t i,
		  const struct store_verification **ver, size_t *nver)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	struct runctx_tmpl t;
	int64_t run_id = rc->ids[i];
	int f, k;
	runctx_tmpl_init(&t, rc, lv, i);
	for (f = 0; f < p->nfactors && !proc_interrupted; f++) {
		const struct plan_factor *fac = &p->factors[f];
		struct hooks_factor *h = &rc->hf[f];
		/* A manual step (a reboot, another card) may have undone
		 * any setting: apply again in every new block. */
		int change = !h->applied || h->lv != lv[f] ||
			     h->block != rc->s.runs[i].block;
		if (fac->manual) {
			/* Set by the person; verified before every run. */
			if (fac->verify)
				verify_factor(rc, f, &t, run_id, 0);
			continue;
		}
		if (!fac->apply.argv && !fac->verify)
			continue;
		if (change && fac->apply.argv) {
			/* restore: [argv] may name {{original}} too. */
			if (wants_original(fac) && !h->orig_captured)
				capture_original(rc, f, &t, run_id);
			for (k = 0; k < h->nhosts; k++) {
				int code =
				    run_hook(rc, f, k, "apply", &fac->apply, &t,
					     fac->levels[lv[f]], run_id, NULL);
				if (!fac->verify) {
					char a[32];
					snprintf(a, sizeof a, "exit %d", code);
					vc_set(&h->vc[k], "apply", "exit 0", a,
					       code == 0);
				}
			}
		}
		if (fac->verify)
			verify_factor(rc, f, &t, run_id, change);
		h->applied = 1;
		h->lv = lv[f];
		h->block = rc->s.runs[i].block;
	}
	runctx_tmpl_release(&t);
	collect(rc);
	*ver = rc->vbuf;
	*nver = rc->nvbuf;
	return proc_interrupted ? -XR_EINTR : 0;
}

static void print_step(void *prefix, const struct plan_factor *f,
		       const char *level, const char *text)
{
	fprintf(stderr, "%s%s=%s: %s\n", (const char *)prefix, f->name, level,
		text);
}

/* The manual steps of the factors whose levels in lv differ from from
 * (NULL = all), expanded, on stderr. */
static void print_manual(struct runctx *rc, const uint32_t *lv,
			 const uint32_t *from, const char *prefix)
{
	struct runctx_tmpl t;
	runctx_tmpl_init(&t, rc, lv, 0);
	manual_steps(&t.c, from, print_step, (void *)prefix);
	runctx_tmpl_release(&t);
}

/* Wait for a line on stdin; -1 when interrupted or at EOF. */
static int wait_enter(void)
{
	char c;
	for (;;) {
		struct pollfd pfd = {0, POLLIN, 0};
		int r;
		if (proc_interrupted)
			return -1;
		r = poll(&pfd, 1, 250);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0)
			continue;
		while (read(0, &c, 1) == 1)
			if (c == '\n')
				return 0;
		return -1; /* EOF or error */
	}
}

int hooks_manual_enter(struct runctx *rc, size_t i, int first)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	int f, any = 0;
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
	}
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

void hooks_restore(struct runctx *rc)
{
	const struct plan *p = rc->p;
	uint32_t *cur = calloc((size_t)p->nfactors + 1, sizeof *cur);
	int f, k;
	if (!cur)
		return;
	/* Other placeholders take the levels last in effect. */
	for (f = 0; f < p->nfactors; f++)
		cur[f] =
		    p->factors[f].manual ? rc->manual_state[f] : rc->hf[f].lv;
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fac = &p->factors[f];
		struct hooks_factor *h = &rc->hf[f];
		struct runctx_tmpl t;
		if (fac->manual || !fac->apply.argv)
			continue;
		/* Not applied by this xrun, but by a killed one of the same
		 * session: put back the original it stored. */
		if (!h->applied && !(h->orig_stored && fac->restore_original &&
				     !fac->restore.argv))
			continue;
		for (k = 0; k < h->nhosts; k++) {
			runctx_tmpl_init(&t, rc, cur, 0);
			t.override_factor = f;
			t.c.original = h->orig[k];
			if (fac->restore.argv) {
				t.override = fac->levels[h->lv];
				run_hook(rc, f, k, "restore", &fac->restore, &t,
					 t.override, 0, NULL);
			} else if (fac->restore_original && h->orig[k]) {
				/* apply with the value found before. */
				t.override = h->orig[k];
				run_hook(rc, f, k, "restore", &fac->apply, &t,
					 h->orig[k], 0, NULL);
			}
			runctx_tmpl_release(&t);
		}
	}
	free(cur);
}
