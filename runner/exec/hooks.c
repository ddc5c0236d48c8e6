/*
 * Factor hooks during a run: bringing each automatic factor to the level a
 * run needs (apply only when the level changes, after capturing the
 * original value for `restore: true`), verifying every factor's setting
 * before every run (each entry of its verify list, a probe or a command,
 * compared by that entry's match mode; the factor is verified when all
 * pass) so that each stored run carries proof of what was in effect, and
 * putting
 * back what was changed at the end. A factor's `on:` may mean another host
 * in each cell (factor-bound hosts), so the state is kept per host the
 * factor can run on. Templates expand through runctx.c; manual steps
 * during a run are in manual_run.c. Also the placeholder lookup
 * the runner uses for every template: factor levels, plan vars and built-ins.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "host.h"
#include "placeholder.h"
#include "plan.h"
#include "probe.h"
#include "proc.h"
#include "runctx.h"
#include "store.h"
#include "utf8.h"
#include "banned.h"

#define HOOK_TIMEOUT 120.0
/* run_hook's answer when the hook did not run or did not exit: not an
 * exit code a command can have, not an error code either. */
#define HOOK_NOT_RUN (-1)
/* run_hook: the host stopped answering (ssh's own exit 255, confirmed by
 * a connection check): not the hook's outcome, and not stored. */
#define HOOK_LOST (-2)

struct hooks_vc {
	char *expected, *actual;
	char method[48];
	int ok, valid;
};

/*
 * A factor's hooks run on the hosts its `on:` names in the current cell;
 * with hosts: bindings that set changes from cell to cell, so there is one
 * slot per host the factor can ever run on, each with its own state.
 */
struct hooks_slot {
	int hi;	     /* plan host index */
	int active;  /* on: names this host in the current cell */
	int applied; /* a level of ours is in effect here */
	uint32_t lv;
	uint32_t block; /* manual block it was applied in */
	char *orig;	/* value found before the first change */
	int orig_captured;
	int orig_stored;     /* by an earlier xrun of this session */
	struct hooks_vc *vc; /* [nvc] the latest verification per entry */
};

struct hooks_factor {
	int applied; /* on some host */
	uint32_t lv; /* the level last applied */
	int nhosts;
	struct hooks_slot *slot; /* [nhosts] */
	/* One per verify entry (one for an apply-only factor): the factor
	 * name it is stored under, "NAME" for the first, "NAME#2" ... */
	int nvc;
	char **vname; /* [nvc] */
};

/* ---- hooks ----------------------------------------------------------- */

static const char *hooks_host_label(const struct runctx *rc, int hi);

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
	int k;
	if (!wants_original(fac))
		return;
	for (k = 0; k < h->nhosts; k++) {
		struct hooks_slot *sl = &h->slot[k];
		char *v = NULL;
		if (store_original_get(rc->st, rc->session_id, fac->name,
				       hooks_host_label(rc, sl->hi), &v,
				       NULL) == 1) {
			sl->orig = v;
			sl->orig_stored = 1;
			sl->orig_captured = 1;
		}
	}
}

/* Add host hi to the factor's slots unless there. */
static void add_slot(struct hooks_factor *h, int hi)
{
	int j;
	if (hi < 0)
		return;
	for (j = 0; j < h->nhosts; j++)
		if (h->slot[j].hi == hi)
			return;
	h->slot[h->nhosts++].hi = hi;
}

/* Add a slot for every host an on: name can mean: each level's host
 * (in every combination, for "x570-{{os}}") when a factor binds it, else
 * the one host. Slots are distinct hosts, so at most p->nhosts. */
static void on_hosts(const struct runctx *rc, const char *name,
		     struct hooks_factor *h)
{
	const struct plan *p = rc->p;
	int f = plan_role_factor(p, name), b;
	size_t l;
	if (f < 0) {
		add_slot(h, runctx_role_index(rc, name, NULL));
		return;
	}
	for (b = 0; b < p->factors[f].nbind; b++) {
		const struct plan_binding *bd = &p->factors[f].bind[b];
		if (strcmp(bd->role, name) != 0)
			continue;
		for (l = 0; l < (size_t)p->factors[f].nlevels * bd->nways;
		     l++) {
			const struct plan_host *ph =
			    plan_host_find(p, bd->table[l]);
			if (ph)
				add_slot(h, (int)(ph - p->hosts));
		}
	}
}

/* The per-entry names and, on every possible slot, the per-entry state. */
static int init_entries(const struct plan_factor *fac, struct hooks_factor *h,
			int nslots)
{
	int j, k;
	h->nvc = fac->nverify > 0 ? fac->nverify : 1;
	h->vname = calloc((size_t)h->nvc, sizeof *h->vname);
	if (!h->vname)
		return -XR_ENOMEM;
	for (j = 0; j < h->nvc; j++) {
		size_t n = strlen(fac->name) + 16;
		if (!(h->vname[j] = malloc(n)))
			return -XR_ENOMEM;
		if (j == 0)
			snprintf(h->vname[j], n, "%s", fac->name);
		else
			snprintf(h->vname[j], n, "%s#%d", fac->name, j + 1);
	}
	for (k = 0; k < nslots; k++)
		if (!(h->slot[k].vc =
			  calloc((size_t)h->nvc, sizeof *h->slot[k].vc)))
			return -XR_ENOMEM;
	return 0;
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
		h->slot = calloc((size_t)p->nhosts + 1, sizeof *h->slot);
		if (!h->slot || init_entries(fac, h, p->nhosts) < 0)
			return -XR_ENOMEM;
		/* on: [client, server] with both on one host (a loopback
		 * plan) names it twice: hooks run there once. */
		for (k = 0; k < non; k++)
			on_hosts(rc, on[k], h);
		total += (size_t)h->nhosts * (size_t)h->nvc;
		load_originals(rc, f);
	}
	rc->vcap = total + 16;
	rc->vbuf = calloc(rc->vcap, sizeof *rc->vbuf);
	return rc->vbuf ? 0 : -XR_ENOMEM;
}

/* Mark the slots the factor's on: names in cell lv. */
static void set_active(struct runctx *rc, int f, const uint32_t *lv)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	int k, j;
	for (j = 0; j < h->nhosts; j++)
		h->slot[j].active = 0;
	for (k = 0; k < fac->non; k++) {
		int hi = runctx_role_index(rc, fac->on[k], lv);
		for (j = 0; j < h->nhosts; j++)
			if (h->slot[j].hi == hi)
				h->slot[j].active = 1;
	}
}

void hooks_release(struct runctx *rc)
{
	int f, k;
	if (!rc->hf)
		return;
	for (f = 0; f < rc->p->nfactors; f++) {
		struct hooks_factor *h = &rc->hf[f];
		int j;
		for (k = 0; h->slot && k < rc->p->nhosts; k++) {
			free(h->slot[k].orig);
			for (j = 0; h->slot[k].vc && j < h->nvc; j++) {
				free(h->slot[k].vc[j].expected);
				free(h->slot[k].vc[j].actual);
			}
			free(h->slot[k].vc);
		}
		for (j = 0; h->vname && j < h->nvc; j++)
			free(h->vname[j]);
		free(h->vname);
		free(h->slot);
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

static const char *hooks_host_label(const struct runctx *rc, int hi)
{
	return hi >= 0 ? rc->p->hosts[hi].name : "?";
}

/*
 * A hook that could not run (hr < 0), whose ssh exited 255 or a probe
 * that failed on an ssh host may have lost the host rather than failed on
 * it: the connection check (host_check) tells which, as for a run
 * (hostset_lost). 1 when the host is lost: rc->setup_lost and what the
 * setup was doing are set.
 */
static int lost_in_setup(struct runctx *rc, int f, int hi, const char *kind)
{
	struct host *h = hi >= 0 ? rc->hosts[hi] : NULL;
	struct buf why = BUF_INIT;
	if (!h || strcmp(host_kind(h), "ssh") != 0)
		return 0;
	if (host_check(h, &why) == 0) {
		buf_release(&why);
		return 0; /* the hook's own failure */
	}
	rc->setup_lost = 1;
	rc->lost_hi = hi;
	rc->lost_since = host_down_since(h);
	snprintf(rc->setup_what, sizeof rc->setup_what,
		 "%s hook of factor '%s' (%s)", kind ? kind : "verify",
		 rc->p->factors[f].name, why.len ? why.s : "no answer");
	buf_release(&why);
	return 1;
}

static int hook_lost(struct runctx *rc, int f, int hi, int hr,
		     const struct proc_result *res, const char *kind)
{
	if (hr == 0 && !(res->status == PROC_EXITED && res->exit_code == 255))
		return 0;
	return lost_in_setup(rc, f, hi, kind);
}

/*
 * Run one hook argv template on host slot k of factor f; stdout goes to
 * out. With a kind, it is logged (warnings and a hook row); without one
 * (per-run verification) it is silent: the verification row is the record.
 * Returns the exit code, HOOK_NOT_RUN when it could not run / did not
 * exit, or HOOK_LOST.
 */
static int run_hook(struct runctx *rc, int f, int k, const char *kind,
		    const struct plan_argv *tv, struct runctx_tmpl *t,
		    const char *level, int64_t run_id, struct buf *out)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	int hi = rc->hf[f].slot[k].hi;
	struct host *h = hi >= 0 ? rc->hosts[hi] : NULL;
	struct proc_opts po = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	struct buf aj = BUF_INIT;
	char **argv, why[256];
	int code = HOOK_NOT_RUN, hr;
	if (out)
		buf_reset(out);
	if (!h) {
		if (kind)
			fprintf(stderr,
				"xrun: warning: factor '%s': host '%s' is not "
				"open; %s hook skipped\n",
				fac->name, hooks_host_label(rc, hi), kind);
		return HOOK_NOT_RUN;
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
		return HOOK_NOT_RUN;
	}
	po.argv = (const char *const *)argv;
	po.timeout = HOOK_TIMEOUT;
	/* A daemon a hook starts may be meant to last the session: it dies
	 * when xrun exits, not after the hook (an engine's, after its run). */
	po.keep_daemons = 1;
	po.max_output = 1 << 20;
	if (kind)
		engine_argv_json((const char *const *)argv, &aj);
	hr = host_run(h, &po, &res, &err);
	if (hook_lost(rc, f, hi, hr, &res, kind)) {
		code = HOOK_LOST;
	} else if (hr < 0) {
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

/* Read the factor's current value on host slot k the way verify entry v
 * says: 0, or -XR_EHOST (probe) / -XR_EEXEC (run hook) with actual saying
 * why. */
static int read_value(struct runctx *rc, int f, int k,
		      const struct plan_verify *v, struct runctx_tmpl *t,
		      int64_t run_id, const char *log_kind, struct buf *actual,
		      char *method, size_t msz)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	int hi = rc->hf[f].slot[k].hi, code;
	struct xr_err err = {0};
	buf_reset(actual);
	if (v->probe) {
		snprintf(method, msz, "probe:%s", v->probe);
		if (hi < 0 || !rc->hosts[hi] ||
		    probe_read(rc->hosts[hi], v->probe, runctx_iface(rc, hi),
			       actual, &err) < 0) {
			if (lost_in_setup(rc, f, hi, "verify probe"))
				return -XR_EHOST;
			buf_reset(actual);
			buf_addf(actual, "(probe failed: %s)",
				 err.msg[0] ? err.msg : "host not open");
			return -XR_EHOST;
		}
		trim(actual);
		return 0;
	}
	snprintf(method, msz, "run");
	code = run_hook(rc, f, k, log_kind, &v->run, t, fac->levels[t->c.lv[f]],
			run_id, actual);
	trim(actual);
	return code == 0 ? 0 : -XR_EEXEC;
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

/* What verify entry v expects at level lv[f] of factor fac. */
static void expected_of(const struct plan_factor *fac,
			const struct plan_verify *v, uint32_t lv,
			struct runctx_tmpl *t, struct buf *exp)
{
	struct xr_err err = {0};
	buf_reset(exp);
	if (v->expect_by_level)
		buf_adds(exp, v->expect_by_level[lv]);
	else if (v->expect) {
		if (runctx_expand(v->expect, t, exp, &err) < 0)
			buf_adds(exp, v->expect);
	} else
		buf_adds(exp, fac->levels[lv]);
}

/* Verify every entry of factor f on every host; warn on a mismatch when
 * `loud`. */
static void verify_factor(struct runctx *rc, int f, struct runctx_tmpl *t,
			  int64_t run_id, int loud)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	struct buf exp = BUF_INIT, act = BUF_INIT;
	char method[48];
	int j, k, ok;
	for (j = 0; j < fac->nverify; j++) {
		const struct plan_verify *v = &fac->verify[j];
		expected_of(fac, v, t->c.lv[f], t, &exp);
		for (k = 0; k < h->nhosts; k++) {
			struct hooks_slot *sl = &h->slot[k];
			struct hooks_vc *vc = &sl->vc[j];
			int r;
			if (!sl->active)
				continue;
			r = read_value(rc, f, k, v, t, run_id,
				       loud ? "verify" : NULL, &act, method,
				       sizeof method);
			if (rc->setup_lost)
				goto out; /* not an outcome: nothing kept */
			ok = r == 0 && match(act.s, exp.s, v->match);
			/* Warn once per change of outcome, never silently. */
			if (!ok && (loud || !vc->valid || vc->ok)) {
				/* what the verify command printed: shown,
				 * not obeyed (utf8_term) */
				struct buf tb = BUF_INIT;
				fprintf(stderr,
					"xrun: warning: factor '%s' on '%s' is "
					"not verified: %s%sexpected '%s', "
					"found '%s' (runs are marked "
					"unverified)\n",
					fac->name, hooks_host_label(rc, sl->hi),
					j ? method : "", j ? ": " : "", exp.s,
					utf8_term(&tb, act.s));
				buf_release(&tb);
			}
			vc_set(vc, method, exp.s, act.s, ok);
		}
	}
out:
	buf_release(&exp);
	buf_release(&act);
}

/* Read the value on slot k before the first change there. */
static void capture_original(struct runctx *rc, int f, int k,
			     struct runctx_tmpl *t, int64_t run_id)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_slot *sl = &rc->hf[f].slot[k];
	struct buf act = BUF_INIT;
	char method[48];
	int r;
	sl->orig_captured = 1;
	if (!fac->verify) {
		fprintf(stderr,
			"xrun: warning: factor '%s' has restore: true but "
			"no verify: to read the original value from; it "
			"will not be restored\n",
			fac->name);
		return;
	}
	if (sl->orig_stored)
		return; /* stored by an earlier xrun of the session */
	r = read_value(rc, f, k, &fac->verify[0], t, run_id, "capture", &act,
		       method, sizeof method);
	if (rc->setup_lost) {
		sl->orig_captured = 0; /* read it once the host is back */
	} else if (r == 0) {
		sl->orig = strdup(act.s);
		/* Kept before the first change, so that a resume after a
		 * kill restores this value, not ours. */
		if (sl->orig &&
		    store_original_put(rc->st, rc->session_id, fac->name,
				       hooks_host_label(rc, sl->hi), sl->orig,
				       NULL) < 0)
			fprintf(stderr,
				"xrun: warning: factor '%s': cannot store the "
				"original value on '%s'; a resume after a "
				"crash would not know it\n",
				fac->name, hooks_host_label(rc, sl->hi));
	} else {
		struct buf tb = BUF_INIT;
		fprintf(stderr,
			"xrun: warning: factor '%s': cannot read the "
			"original value on '%s' (%s); it will not be "
			"restored\n",
			fac->name, hooks_host_label(rc, sl->hi),
			utf8_term(&tb, act.s));
		buf_release(&tb);
	}
	buf_release(&act);
}

static void collect(struct runctx *rc)
{
	int f, k;
	rc->nvbuf = 0;
	for (f = 0; f < rc->p->nfactors; f++) {
		struct hooks_factor *h = &rc->hf[f];
		int j;
		for (k = 0; k < h->nhosts; k++)
			for (j = 0; j < h->nvc; j++) {
				struct hooks_vc *vc = &h->slot[k].vc[j];
				struct store_verification *v;
				if (!h->slot[k].active || !vc->valid ||
				    rc->nvbuf >= rc->vcap)
					continue;
				v = &rc->vbuf[rc->nvbuf++];
				v->factor = h->vname[j];
				v->host = hooks_host_label(rc, h->slot[k].hi);
				v->method = vc->method;
				v->expected = vc->expected;
				v->actual = vc->actual;
				v->ok = vc->ok;
			}
	}
}

/* Bring factor f to level lv[f] on its active slots (apply where the
 * level changed, capturing the original first) and verify it. */
static void prepare_factor(struct runctx *rc, int f, size_t i,
			   struct runctx_tmpl *t)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	const uint32_t *lv = t->c.lv;
	uint32_t block = rc->s.runs[i].block;
	int64_t run_id = runctx_row(rc, i);
	int k, any_change = 0;
	for (k = 0; k < h->nhosts; k++) {
		struct hooks_slot *sl = &h->slot[k];
		/* A manual step (a reboot, another card) may have undone
		 * any setting: apply again in every new block. */
		int change =
		    !sl->applied || sl->lv != lv[f] || sl->block != block;
		if (!sl->active)
			continue;
		any_change |= change;
		if (change && fac->apply.argv) {
			int code;
			/* restore: [argv] may name {{original}} too. */
			if (wants_original(fac) && !sl->orig_captured)
				capture_original(rc, f, k, t, run_id);
			if (rc->setup_lost)
				return;
			code = run_hook(rc, f, k, "apply", &fac->apply, t,
					fac->levels[lv[f]], run_id, NULL);
			if (code == HOOK_LOST)
				return; /* not applied: again after reconnect */
			/* What it changed is read before the run
			 * (runfacts.c), failed or not: a hook that failed
			 * half way may have changed something. */
			if (code != HOOK_NOT_RUN)
				runfacts_touch(rc, sl->hi, 0, f, lv[f]);
			if (!fac->verify) {
				char a[32];
				snprintf(a, sizeof a, "exit %d", code);
				vc_set(&sl->vc[0], "apply", "exit 0", a,
				       code == 0);
			}
		}
		sl->applied = 1;
		sl->lv = lv[f];
		sl->block = block;
	}
	if (fac->verify)
		verify_factor(rc, f, t, run_id, any_change);
	h->applied = 1;
	h->lv = lv[f];
}

int hooks_prepare(struct runctx *rc, size_t i,
		  const struct store_verification **ver, size_t *nver)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	struct runctx_tmpl t;
	int f;
	runctx_tmpl_init(&t, rc, lv, i);
	rc->setup_lost = 0;
	for (f = 0; f < p->nfactors && !proc_interrupted && !rc->setup_lost;
	     f++) {
		const struct plan_factor *fac = &p->factors[f];
		set_active(rc, f, lv);
		if (fac->manual) {
			/* Set by the person; verified before every run. */
			if (fac->verify)
				verify_factor(rc, f, &t, runctx_row(rc, i), 0);
			continue;
		}
		if (!fac->apply.argv && !fac->verify)
			continue;
		prepare_factor(rc, f, i, &t);
	}
	runctx_tmpl_release(&t);
	if (proc_interrupted)
		return -XR_EINTR;
	if (rc->setup_lost)
		return HOOKS_LOST;
	collect(rc);
	*ver = rc->vbuf;
	*nver = rc->nvbuf;
	return 0;
}

int hooks_verify_on(struct runctx *rc, int f, int hi, const uint32_t *lv,
		    struct buf *why)
{
	const struct plan_factor *fac = &rc->p->factors[f];
	struct hooks_factor *h = &rc->hf[f];
	struct runctx_tmpl t;
	struct buf exp = BUF_INIT, act = BUF_INIT;
	char method[48];
	int j, k, r = 0;
	if (!fac->verify)
		return 0;
	for (k = 0; k < h->nhosts && h->slot[k].hi != hi; k++)
		;
	if (k == h->nhosts)
		return 0; /* the factor's verify does not run there */
	runctx_tmpl_init(&t, rc, lv, 0);
	/* every entry: the host is back as the block needs when all pass */
	for (j = 0; j < fac->nverify && r == 0; j++) {
		const struct plan_verify *v = &fac->verify[j];
		expected_of(fac, v, lv[f], &t, &exp);
		if (read_value(rc, f, k, v, &t, 0, NULL, &act, method,
			       sizeof method) < 0 ||
		    !match(act.s, exp.s, v->match)) {
			buf_addf(why, "%s: expected '%s', found '%s'", method,
				 exp.s, act.s);
			r = -1;
		}
	}
	runctx_tmpl_release(&t);
	buf_release(&exp);
	buf_release(&act);
	return r;
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
		for (k = 0; k < h->nhosts; k++) {
			struct hooks_slot *sl = &h->slot[k];
			struct xr_err err = {0};
			/* Not applied by this xrun, but by a killed one of the
			 * same session: put back the original it stored. */
			if (!sl->applied &&
			    !(sl->orig_stored && fac->restore_original &&
			      !fac->restore.argv))
				continue;
			/* reopened if a manual step dropped it */
			hostset_get(rc, sl->hi, &err);
			runctx_tmpl_init(&t, rc, cur, 0);
			t.override_factor = f;
			t.c.original = sl->orig;
			if (fac->restore.argv) {
				t.override = fac->levels[sl->lv];
				run_hook(rc, f, k, "restore", &fac->restore, &t,
					 t.override, 0, NULL);
			} else if (fac->restore_original && sl->orig) {
				/* apply with the value found before. */
				t.override = sl->orig;
				run_hook(rc, f, k, "restore", &fac->apply, &t,
					 sl->orig, 0, NULL);
			}
			runctx_tmpl_release(&t);
		}
	}
	free(cur);
}

void hooks_forget_host(struct runctx *rc, int hi)
{
	int f, k;
	for (f = 0; rc->hf && f < rc->p->nfactors; f++)
		for (k = 0; k < rc->hf[f].nhosts; k++)
			if (rc->hf[f].slot[k].hi == hi)
				rc->hf[f].slot[k].applied = 0;
}
