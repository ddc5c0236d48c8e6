/*
 * A shard's testbed lock (runner/exec/testbed.c): which directory a client
 * host locks (a namespace of this machine its own, so that two namespace
 * testbeds do not block each other), and which holder's lock is stale
 * (only a process of this machine that no longer runs; a holder on
 * another controller is never taken over, whatever its pid).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "plan.h"
#include "tap.h"
#include "testbed.h"

static void lock_paths(void)
{
	struct plan_host h;
	struct buf b = BUF_INIT;
	memset(&h, 0, sizeof h);
	testbed_lock_path(&h, &b);
	is_str(b.s, "/tmp/xrun-testbed.lock", "a local client");
	h.netns = "xrA";
	buf_reset(&b);
	testbed_lock_path(&h, &b);
	is_str(b.s, "/tmp/xrun-testbed.netns-xrA.lock",
	       "a namespace client: a lock of its own");
	h.ssh = "lab@10.0.0.2";
	buf_reset(&b);
	testbed_lock_path(&h, &b);
	is_str(b.s, "/tmp/xrun-testbed.lock",
	       "an ssh client (a namespace there): the far machine's lock");
	buf_release(&b);
}

/* The tags as testbed_lock writes them: "controller HOST pid PID plan P
 * shard K/N". pid 999999999 runs nowhere (above Linux's pid_max,
 * 4194304 at most). */
static void stale_tags(void)
{
	char self[256] = "", tag[400];
	if (gethostname(self, sizeof self - 1) < 0 || !self[0])
		snprintf(self, sizeof self, "localhost");
	snprintf(tag, sizeof tag,
		 "controller %s pid 999999999 plan p shard 1/2", self);
	is_int(testbed_tag_stale(tag), 1,
	       "this machine, a pid that runs no more: stale");
	snprintf(tag, sizeof tag, "controller %s pid %ld plan p shard 1/2",
		 self, (long)getpid());
	is_int(testbed_tag_stale(tag), 0, "this machine, a live pid: held");
	snprintf(tag, sizeof tag,
		 "controller %s-other pid 999999999 plan p shard 1/2", self);
	is_int(testbed_tag_stale(tag), 0,
	       "another controller (its pid means nothing here): held");
	is_int(testbed_tag_stale("(no tag: being taken, or not an xrun lock)"),
	       0, "no tag: held");
}

int main(void)
{
	tap_plan(7);
	lock_paths();
	stale_tags();
	return tap_done();
}
