/*
 * The sweep of a dead xrun's temporary directory at the next start
 * (runner/exec/hostset.c, tmp_sweep, through hostset_init; issue 40): a
 * directory /tmp/xrun-PID-XXXXXX of a pid no process has is removed with
 * what it holds; a regular file and a symlink of the same name form, of
 * the same user and the same dead pid, stay (they are the user's, not a
 * directory xrun made), and so does the symlink's target. The pid is one
 * no process can have: above the kernel's pid_max (the same choice as
 * e2e/fault_tmp_leftover, the slow test of the whole run); the names
 * carry this process's pid so that parallel tests keep apart.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "plan.h"
#include "runctx.h"
#include "tap.h"

static const char plan_text[] = "xrun: 1\n"
				"name: sweep\n"
				"engine:\n"
				"  type: command\n"
				"  run: [sh, -c, 'echo \"v 1\"']\n"
				"  metrics:\n"
				"    v: { regex: 'v ([0-9]+)', unit: \"1\" }\n"
				"sample: off\n"
				"counters: none\n";

int main(void)
{
	struct plan *p = NULL;
	struct xr_diag d;
	struct xr_err err = {0};
	struct runctx rc;
	struct stat st;
	char dirp[64], filep[64], linkp[64], target[64], sub[80];
	long dead = 4194305;
	FILE *f;
	int pid_max = 0;

	tap_plan(7);
	if ((f = fopen("/proc/sys/kernel/pid_max", "r"))) {
		if (fscanf(f, "%d", &pid_max) != 1)
			pid_max = 0;
		fclose(f);
	}
	if (pid_max > 0)
		dead = (long)pid_max + 1 + getpid() % 1000;
	snprintf(dirp, sizeof dirp, "/tmp/xrun-%ld-d%05d", dead,
		 (int)(getpid() % 100000));
	snprintf(filep, sizeof filep, "/tmp/xrun-%ld-f%05d", dead,
		 (int)(getpid() % 100000));
	snprintf(linkp, sizeof linkp, "/tmp/xrun-%ld-l%05d", dead,
		 (int)(getpid() % 100000));
	snprintf(target, sizeof target, "/tmp/xr-sweep-target-%d",
		 (int)getpid());
	snprintf(sub, sizeof sub, "%s/sock", dirp);
	if (mkdir(dirp, 0700) < 0 || !(f = fopen(sub, "w"))) {
		ok(0, "plant %s", dirp);
		return tap_done();
	}
	fclose(f);
	if ((f = fopen(filep, "w"))) {
		fputs("mine\n", f);
		fclose(f);
	}
	if ((f = fopen(target, "w"))) {
		fputs("keep\n", f);
		fclose(f);
	}
	if (symlink(target, linkp) < 0)
		ok(0, "plant the link %s", linkp);

	xr_diag_init(&d, "t.yaml");
	ok(plan_load_mem("t.yaml", plan_text, strlen(plan_text),
			 catalog_builtin(), &p, &d) == 0,
	   "the plan loads");
	memset(&rc, 0, sizeof rc);
	rc.p = p;
	ok(p && hostset_init(&rc, &err) == 0, "hostset_init: %s", err.msg);
	ok(lstat(dirp, &st) < 0, "the dead xrun's directory is removed");
	ok(lstat(filep, &st) == 0 && S_ISREG(st.st_mode),
	   "a regular file of that name form stays");
	ok(lstat(linkp, &st) == 0 && S_ISLNK(st.st_mode),
	   "a symlink of that name form stays");
	ok(lstat(target, &st) == 0 && st.st_size == 5, "its target is whole");
	ok(rc.tmpdir[0] && lstat(rc.tmpdir, &st) == 0 && S_ISDIR(st.st_mode),
	   "this run's own directory %s is made", rc.tmpdir);
	if (p)
		hostset_release(&rc);
	xr_diag_release(&d);
	plan_free(p);
	unlink(sub);
	rmdir(dirp);
	unlink(filep);
	unlink(linkp);
	unlink(target);
	return tap_done();
}
