/*
 * A shard's testbed (docs/shards.md): its name (the identities of the
 * hosts it uses, or --testbed) and its lock, so that two shards never run
 * on one bench at once. As FD.io CSIT reserves a testbed (an atomic mkdir
 * on the traffic generator, with a tag saying who holds it), the lock is a
 * directory made with mkdir on the plan's client host (the generator):
 * /tmp/xrun-testbed.lock, or /tmp/xrun-testbed.netns-NAME.lock for a
 * namespace host (several namespace testbeds share one machine's /tmp),
 * holding a file `tag` (controller, pid, plan, shard). mkdir fails when
 * the directory exists, on every host and filesystem, and a link planted
 * there is not followed (it exists: the lock is busy). A lock left by a
 * controller process that no longer runs on this machine is taken over;
 * one held elsewhere is waited for up to --lock-wait seconds, then the run
 * stops with the holder's tag and the directory to remove if it is stale.
 * Windows hosts are not locked (said once).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cellctx.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "testbed.h"
#include "banned.h"

/* Between two looks at a busy lock. */
#define TESTBED_POLL 2.0
/* A lock command's deadline (a far host over ssh). */
#define TESTBED_CMD_TIMEOUT 20.0

/* A host as a testbed names it: the machine (its hostname), a namespace
 * on it, or an ssh login. */
static void testbed_host_identity(const struct plan_host *h, const char *self,
				  struct buf *b)
{
	if (h->ssh) {
		buf_addf(b, "ssh:%s", h->ssh);
		if (h->port)
			buf_addf(b, ":%d", h->port);
	} else if (h->netns)
		buf_addf(b, "%s/netns:%s", self, h->netns);
	else
		buf_adds(b, self);
}

static void self_name(char *self, size_t n)
{
	if (gethostname(self, n - 1) < 0 || !self[0])
		snprintf(self, n, "localhost");
	self[n - 1] = '\0';
}

void testbed_name(const struct plan *p, const char *given, struct buf *b)
{
	char self[256] = "";
	char *need;
	int i, n = 0;
	if (given) {
		buf_adds(b, given);
		return;
	}
	self_name(self, sizeof self);
	need = calloc((size_t)p->nhosts + 1, 1);
	if (need)
		cellctx_hosts_needed(p, need);
	for (i = 0; i < p->nhosts; i++) {
		if (need && !need[i])
			continue;
		buf_addf(b, "%s%s=", n++ ? ", " : "", p->hosts[i].name);
		testbed_host_identity(&p->hosts[i], self, b);
	}
	free(need);
}

/* The lock directory on the client host h (a function of its own for
 * unit/test_testbed). */
void testbed_lock_path(const struct plan_host *h, struct buf *b)
{
	buf_adds(b, "/tmp/xrun-testbed");
	if (h->netns && !h->ssh)
		buf_addf(b, ".netns-%s", h->netns);
	buf_adds(b, ".lock");
}

/* argv on the lock's host; its exit status, or -1 when it did not run. */
static int lock_cmd(struct host *h, const char *const *argv, struct buf *out)
{
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	int r;
	o.argv = argv;
	o.timeout = TESTBED_CMD_TIMEOUT;
	if (host_run(h, &o, &res, &err) < 0 || res.status != PROC_EXITED)
		r = -1;
	else
		r = res.exit_code;
	if (out && res.out)
		buf_adds(out, res.out);
	proc_result_release(&res);
	return r;
}

/* Whether the tag names a process of this machine that no longer runs:
 * "controller HOST pid PID ...". */
int testbed_tag_stale(const char *tag)
{
	char self[256] = "", host[256];
	long pid;
	self_name(self, sizeof self);
	if (sscanf(tag, "controller %255s pid %ld", host, &pid) != 2 ||
	    strcmp(host, self) != 0 || pid <= 0)
		return 0;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Remove the lock directory and its tag (ours, or a stale one). */
static void lock_remove(struct host *h, const char *dir)
{
	struct buf tag = BUF_INIT;
	buf_addf(&tag, "%s/tag", dir);
	{
		const char *rm[] = {"rm", "-f", "--", tag.s, NULL};
		const char *rd[] = {"rmdir", "--", dir, NULL};
		lock_cmd(h, rm, NULL);
		lock_cmd(h, rd, NULL);
	}
	buf_release(&tag);
}

/* One attempt: 1 taken, 0 busy (holder in tag), -1 cannot tell. */
static int lock_try(struct host *h, const char *dir, const char *me,
		    struct buf *tag)
{
	const char *mk[] = {"mkdir", "-m", "700", "--", dir, NULL};
	/* the tag's text and path are positional parameters of the far
	 * sh: data, never parsed as shell words */
	const char *wr[] = {"sh", "-c", "printf '%s\\n' \"$1\" >\"$2/tag\"",
			    "sh", me,	dir,
			    NULL};
	const char *rd[] = {"cat", "--", NULL, NULL};
	struct buf path = BUF_INIT;
	int r;
	if (lock_cmd(h, mk, NULL) == 0)
		return lock_cmd(h, wr, NULL) == 0 ? 1 : -1;
	buf_addf(&path, "%s/tag", dir);
	rd[2] = path.s;
	buf_reset(tag);
	r = lock_cmd(h, rd, tag);
	buf_release(&path);
	while (tag->len && (tag->s[tag->len - 1] == '\n'))
		tag->s[--tag->len] = '\0';
	if (r != 0 || !tag->len)
		buf_adds(tag, "(no tag: being taken, or not an xrun lock)");
	return 0;
}

int testbed_lock(struct runctx *rc, struct xr_err *err)
{
	const struct plan *p = rc->p;
	struct buf me = BUF_INIT, tag = BUF_INIT;
	char self[256] = "";
	double until = proc_now_mono() + rc->o->lock_wait;
	int hi = cellctx_host_index(p, p->engine.client), r, said = 0;
	if (!rc->o->shard_n || hi < 0)
		return 0;
	if (p->hosts[hi].shell == PLAN_SHELL_POWERSHELL) {
		fprintf(stderr,
			"xrun: warning: the testbed of host '%s' (a "
			"Windows host) is not locked\n",
			p->hosts[hi].name);
		return 0;
	}
	if ((r = hostset_get(rc, hi, err)) < 0)
		return r;
	testbed_lock_path(&p->hosts[hi], &rc->lock_dir);
	self_name(self, sizeof self);
	buf_addf(&me, "controller %s pid %ld plan %s shard %u/%u", self,
		 (long)getpid(), p->name, rc->o->shard_k, rc->o->shard_n);
	for (;;) {
		r = lock_try(rc->hosts[hi], rc->lock_dir.s, me.s, &tag);
		if (r == 1) {
			rc->lock_hi = hi;
			r = 0;
			break;
		}
		if (r == 0 && testbed_tag_stale(tag.s)) {
			fprintf(stderr,
				"xrun: taking over the testbed lock %s on "
				"'%s' from a process that ended: %s\n",
				rc->lock_dir.s, p->hosts[hi].name, tag.s);
			lock_remove(rc->hosts[hi], rc->lock_dir.s);
			continue;
		}
		if (r == 0 && proc_now_mono() < until && !proc_interrupted) {
			if (!said++)
				fprintf(stderr,
					"xrun: the testbed is busy (%s on "
					"'%s': %s): waiting up to %gs\n",
					rc->lock_dir.s, p->hosts[hi].name,
					tag.s, rc->o->lock_wait);
			proc_sleep(TESTBED_POLL);
			continue;
		}
		r = xr_err_set(err, XR_EENV, NULL, 0, 0,
			       r < 0 ? "cannot lock the testbed: %s on '%s' "
				       "could not be made or tagged%s%s"
				     : "the testbed is busy: %s on '%s' is "
				       "held by %s; wait for it (--lock-wait "
				       "SECONDS) or remove the directory if "
				       "that run has ended",
			       rc->lock_dir.s, p->hosts[hi].name,
			       r < 0 ? "" : tag.s, "");
		break;
	}
	buf_release(&me);
	buf_release(&tag);
	return r;
}

void testbed_unlock(struct runctx *rc)
{
	if (rc->lock_hi < 0 || !rc->hosts || !rc->hosts[rc->lock_hi])
		return;
	lock_remove(rc->hosts[rc->lock_hi], rc->lock_dir.s);
	rc->lock_hi = -1;
}
