/*
 * The hosts of a run, opened when a cell first needs them rather than all
 * at the start: with factor-bound hosts (`hosts:` in a factor) a plan may
 * name a Windows and a Linux install of one machine, of which only one is
 * up at a time. Opening the hosts a cell needs, recording each host's facts
 * whenever it is (re)opened (into runfacts.c), dropping the connection of a
 * host that a manual step reboots, and waiting for such a host to answer
 * again (ssh with backoff, until a deadline) all live here; which host a
 * role or a name means is runctx.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cellctx.h"
#include "engine.h"
#include "facts.h"
#include "host.h"
#include "placeholder.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "banned.h"

/* "xrun-PID-XXXXXX" (hostset_init's mkdtemp name): the PID, else -1. */
static long tmp_name_pid(const char *n)
{
	char *end;
	long pid;
	if (strncmp(n, "xrun-", 5) || n[5] < '1' || n[5] > '9')
		return -1;
	pid = strtol(n + 5, &end, 10);
	if (*end != '-' || strlen(end + 1) != 6 || pid <= 0 || pid > INT_MAX)
		return -1;
	for (const char *q = end + 1; *q; q++)
		if (!isalnum((unsigned char)*q))
			return -1;
	return pid;
}

/*
 * The temporary directories of xrun processes that are gone (a SIGKILL
 * leaves its /tmp/xrun-PID-XXXXXX behind: issue 40), removed: only a
 * directory of that exact name form, not a link, of this user, whose PID
 * no process has (kill 0: ESRCH). One of another user, or of a pid that
 * runs (maybe another program now: left), stays. /tmp's sticky bit keeps
 * another user from renaming ours under us.
 */
static void tmp_sweep(void)
{
	DIR *d = opendir("/tmp");
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300];
		struct stat st;
		long pid = tmp_name_pid(e->d_name);
		const char *rm[] = {"rm", "-rf", "--", path, NULL};
		struct proc_opts po = {0};
		struct proc_result res = {0};
		if (pid < 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof path, "/tmp/%s", e->d_name);
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid() ||
		    !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		po.argv = rm;
		po.timeout = 10;
		if (proc_run(&po, &res, NULL) == 0)
			proc_result_release(&res);
	}
	closedir(d);
}

int hostset_init(struct runctx *rc, struct xr_err *err)
{
	const struct plan *p = rc->p;
	if (!(rc->hosts = calloc((size_t)p->nhosts + 1, sizeof *rc->hosts)) ||
	    !(rc->need = calloc((size_t)p->nhosts + 1, 1)))
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	cellctx_hosts_needed(p, rc->need);
	tmp_sweep();
	snprintf(rc->tmpdir, sizeof rc->tmpdir, "/tmp/xrun-%ld-XXXXXX",
		 (long)getpid());
	if (!mkdtemp(rc->tmpdir)) {
		xr_err_set(err, XR_EIO, rc->tmpdir, 0, 0,
			   "cannot create a temporary directory");
		rc->tmpdir[0] = '\0';
		return -XR_EIO;
	}
	return 0;
}

/* Facts of host hi, recorded each time it is opened: a host that came
 * back from a reboot may be another OS. Values already stored for this
 * session and host are kept; a different value is added beside them.
 * They are the host's fact set too, which its runs name (runfacts.c). */
static void record_facts(struct runctx *rc, int hi)
{
	const struct plan *p = rc->p;
	const char *name = p->hosts[hi].name;
	const char *extra[] = {"xrun_version", XRUN_VERSION, "transport",
			       host_kind(rc->hosts[hi]), NULL};
	struct fact *facts = NULL;
	struct facts_tool tools[2];
	size_t n = 0;
	runfacts_tools(p, tools);
	if (facts_collect(rc->hosts[hi], runctx_iface(rc, hi), tools, &facts,
			  &n) == 0) {
		store_facts_put(rc->st, rc->session_id, name, facts, n, NULL);
		runfacts_opened(rc, hi, facts, n, extra);
		facts_free(facts, n);
	}
	store_fact_put(rc->st, rc->session_id, name, "xrun_version",
		       XRUN_VERSION, NULL);
	store_fact_put(rc->st, rc->session_id, name, "plan_hash", p->hash,
		       NULL);
	store_fact_put(rc->st, rc->session_id, name, "transport",
		       host_kind(rc->hosts[hi]), NULL);
}

/* Open host hi without a message of our own on failure. */
static int try_open(struct runctx *rc, int hi, struct xr_err *err)
{
	const struct plan *p = rc->p;
	if (rc->hosts[hi])
		return 0;
	xr_err_clear(err);
	if (host_open(&p->hosts[hi], rc->tmpdir, &rc->hosts[hi], err) < 0) {
		rc->hosts[hi] = NULL;
		if (!err->msg[0])
			xr_err_set(err, XR_EHOST, NULL, 0, 0,
				   "cannot open host '%s'", p->hosts[hi].name);
		return -XR_EHOST;
	}
	return 0;
}

int hostset_get(struct runctx *rc, int hi, struct xr_err *err)
{
	int r;
	if (hi < 0 || !rc->hosts || rc->hosts[hi])
		return 0;
	if ((r = try_open(rc, hi, err)) == 0)
		record_facts(rc, hi);
	return r;
}

void hostset_drop(struct runctx *rc, int hi)
{
	if (hi < 0 || !rc->hosts || !rc->hosts[hi])
		return;
	/* The engine holds the host: close it first; the next cell opens
	 * it again on the new connection. */
	if (rc->eng_open &&
	    (hi == rc->eng_client_hi || hi == rc->eng_server_hi)) {
		if (rc->eng->close)
			rc->eng->close(rc->eng_state);
		rc->eng_open = 0;
		rc->eng_state = NULL;
	}
	host_close(rc->hosts[hi]);
	rc->hosts[hi] = NULL;
}

int hostset_cell(struct runctx *rc, const uint32_t *lv, struct xr_err *err)
{
	const struct plan *p = rc->p;
	int f, k, r;
	rc->client_hi = runctx_role_index(rc, "client", lv);
	rc->server_hi = plan_role_host(p, "server", lv)
			    ? runctx_role_index(rc, "server", lv)
			    : -1;
	if ((r = hostset_get(rc, rc->client_hi, err)) < 0 ||
	    (r = hostset_get(rc, rc->server_hi, err)) < 0)
		return r;
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (!fa->apply.argv && !fa->verify)
			continue;
		for (k = 0; k < fa->non; k++)
			if ((r = hostset_get(
				 rc, runctx_role_index(rc, fa->on[k], lv),
				 err)) < 0)
				return r;
	}
	return 0;
}

void hostset_release(struct runctx *rc)
{
	int i;
	if (rc->hosts)
		for (i = 0; i < rc->p->nhosts; i++)
			host_close(rc->hosts[i]);
	free(rc->hosts);
	rc->hosts = NULL;
	free(rc->need);
	rc->need = NULL;
	if (rc->tmpdir[0]) {
		/* Control sockets are gone with their masters. */
		if (rmdir(rc->tmpdir) != 0) {
			/* Leftovers (logs): remove them without a shell. */
			const char *rm[] = {"rm", "-rf", rc->tmpdir, NULL};
			struct proc_opts po = {0};
			struct proc_result res = {0};
			po.argv = rm;
			po.timeout = 10;
			proc_run(&po, &res, NULL);
			proc_result_release(&res);
		}
		rc->tmpdir[0] = '\0';
	}
}

/* "1m05s" */
static void fmt_secs(double s, char *out, size_t n)
{
	long t = (long)(s + 0.5);
	if (t >= 60)
		snprintf(out, n, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(out, n, "%lds", t);
}

/* Where xrun reaches host hi, for messages: "me@192.0.2.30:2222". */
static void where(const struct plan_host *h, struct buf *b)
{
	buf_reset(b);
	if (h->ssh)
		buf_addf(b, "ssh %s", h->ssh);
	else if (h->netns)
		buf_addf(b, "netns %s", h->netns);
	else
		buf_adds(b, "this machine");
	if (h->ssh && h->port)
		buf_addf(b, " port %d", h->port);
}

int hostset_wait(struct runctx *rc, int hi, double timeout, const char *what,
		 hostset_ready_fn ready, void *ctx, struct buf *why)
{
	const struct plan_host *h = &rc->p->hosts[hi];
	double t0 = proc_now_mono(), delay = 1, left;
	struct xr_err err = {0};
	struct buf w = BUF_INIT, last = BUF_INIT;
	char el[32], to[32];
	int r = -XR_ETIMEOUT, attempt = 0;
	where(h, &w);
	fmt_secs(timeout, to, sizeof to);
	for (;;) {
		int fresh = !rc->hosts[hi];
		attempt++;
		if (try_open(rc, hi, &err) == 0) {
			buf_reset(&last);
			if (!ready || ready(rc, hi, ctx, &last) == 0) {
				/* Only now: the facts of what came back. */
				if (fresh)
					record_facts(rc, hi);
				r = 0;
				break;
			}
			/* It answers but is not yet what the level needs
			 * (the old OS before the reboot): ask again. */
			hostset_drop(rc, hi);
		} else {
			buf_reset(&last);
			buf_adds(&last, err.msg);
		}
		if (proc_interrupted) {
			r = -XR_EINTR;
			break;
		}
		left = timeout - (proc_now_mono() - t0);
		if (left <= 0)
			break;
		fmt_secs(proc_now_mono() - t0, el, sizeof el);
		if (!rc->o->quiet) {
			progress_clear(rc);
			fprintf(stderr,
				"xrun: waiting for host '%s' (%s)%s%s: "
				"attempt %d, %s of %s: %s\n",
				h->name, w.s, what ? " to be " : "",
				what ? what : "", attempt, el, to,
				last.len ? last.s : "not ready");
		}
		if (proc_sleep(delay < left ? delay : left) < 0) {
			r = -XR_EINTR;
			break;
		}
		delay = delay * 2 > 30 ? 30 : delay * 2;
	}
	if (r == -XR_ETIMEOUT && why) {
		buf_reset(why);
		buf_addf(why,
			 "host '%s' (%s) was not %s within %s (%d attempts; "
			 "last: %s)",
			 h->name, w.s, what ? what : "answering", to, attempt,
			 last.len ? last.s : "no answer");
	}
	buf_release(&w);
	buf_release(&last);
	return r;
}

/* A run that did not end well may have lost its host rather than failed
 * on it: each ssh host of the cell is asked with a cheap connection check
 * (host_check), which tells ssh's own exit 255 from the command's. */
int hostset_lost(struct runctx *rc, const uint32_t *lv, struct buf *why)
{
	const struct plan *p = rc->p;
	int f, k, hi;
	for (f = -2; f < p->nfactors; f++) {
		int n = f < 0 ? 1 : p->factors[f].non;
		if (f >= 0 && !p->factors[f].apply.argv &&
		    !p->factors[f].verify)
			continue;
		for (k = 0; k < n; k++) {
			if (f == -2)
				hi = rc->client_hi;
			else if (f == -1)
				hi = rc->server_hi;
			else
				hi = runctx_role_index(rc, p->factors[f].on[k],
						       lv);
			if (hi < 0 || !rc->hosts[hi] ||
			    strcmp(host_kind(rc->hosts[hi]), "ssh") != 0)
				continue;
			if (host_check(rc->hosts[hi], why) < 0) {
				rc->lost_since = host_down_since(rc->hosts[hi]);
				return hi;
			}
		}
	}
	return -1;
}

/* "01:02:03", local time. */
static void fmt_clock(double t, char *out, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;
	if (!localtime_r(&s, &tm) || !strftime(out, n, "%H:%M:%S", &tm))
		snprintf(out, n, "?");
}

int hostset_reconnect(struct runctx *rc, int hi, int *used, struct buf *why)
{
	const struct plan_reconnect *rp = &rc->p->reconnect;
	const char *name = rc->p->hosts[hi].name;
	struct xr_err err = {0};
	struct buf last = BUF_INIT;
	char since[32], token[32];
	double wait = rp->wait;
	int k, r = -XR_EHOST;
	if (rc->hosts[hi] && host_is_down(rc->hosts[hi]))
		buf_adds(&last, host_down_reason(rc->hosts[hi]));
	else
		buf_adds(&last, why->len ? why->s : "no answer");
	fmt_clock(rc->lost_since, since, sizeof since);
	/* the lost session's token: what its engine left running there is
	 * ended once the host answers (a server holding its port) */
	snprintf(token, sizeof token, "%s",
		 rc->hosts[hi] && host_watch_token(rc->hosts[hi])
		     ? host_watch_token(rc->hosts[hi])
		     : "");
	hostset_drop(rc, hi);
	for (k = 0; k < *used && wait < rp->max_wait; k++)
		wait = wait * 2 > rp->max_wait ? rp->max_wait : wait * 2;
	while (*used < rp->tries) {
		(*used)++;
		if (!rc->o->quiet) {
			progress_clear(rc);
			fprintf(stderr,
				"xrun: host '%s' unreachable since %s (%s): "
				"try %d of %d in %g s\n",
				name, since, last.s, *used, rp->tries, wait);
		}
		if (proc_sleep(wait) < 0) {
			r = -XR_EINTR;
			break;
		}
		if (try_open(rc, hi, &err) == 0) {
			int ended = host_reap_token(rc->hosts[hi], token);
			if (!rc->o->quiet)
				fprintf(stderr,
					"xrun: host '%s' answers again (try "
					"%d)%s; the run is done again\n",
					name, *used,
					ended ? ", the engine processes the "
						"lost connection left ended"
					      : "");
			r = 0;
			break;
		}
		buf_reset(&last);
		buf_adds(&last, err.msg);
		wait = wait * 2 > rp->max_wait ? rp->max_wait : wait * 2;
	}
	if (r == -XR_EHOST) {
		buf_reset(why);
		if (rp->tries == 0)
			buf_addf(why,
				 "host '%s' unreachable since %s (reconnect: "
				 "off): %s",
				 name, since, last.s);
		else
			buf_addf(why,
				 "host '%s' unreachable since %s after %d "
				 "tries (last: %s)",
				 name, since, *used, last.s);
	}
	buf_release(&last);
	return r;
}
