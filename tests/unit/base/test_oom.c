/* Unit tests for oom.c, the out-of-memory mark: the message and exit
 * status the entry point gives, the first position winning, and marks
 * from several threads at once while the main thread changes the stage
 * (issue 33): the message names one whole stage and one thread's file
 * with that thread's line, never a mix. tests/all.sh runs this under
 * ThreadSanitizer too (label threads), which sees any unordered access.
 * POSIX threads: TSan does not intercept C11's thrd_create (see
 * spin_fixture.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oom.h"
#include "tap.h"

/* xr_oom_exit(0)'s stderr into out; its return value. */
static int exit_text(char *out, size_t n)
{
	char path[] = "/tmp/xr-oom-XXXXXX";
	int fd = mkstemp(path), keep = dup(STDERR_FILENO), rc;
	FILE *f;
	size_t len = 0;

	out[0] = 0;
	if (fd < 0 || keep < 0)
		return -1;
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	rc = xr_oom_exit(0);
	dup2(keep, STDERR_FILENO);
	close(keep);
	close(fd);
	f = fopen(path, "r");
	if (f) {
		len = fread(out, 1, n - 1, f);
		fclose(f);
	}
	out[len] = 0;
	unlink(path);
	return rc;
}

#define THREADS 4
static char files[THREADS][16];

/* Thread i: a mark without a position, then one at (f<i>, line i + 1). */
static void *marker(void *arg)
{
	int i = (int)(long)arg;
	xr_oom_mark(NULL, 0);
	xr_oom_mark(files[i], i + 1);
	return NULL;
}

static void threads(void)
{
	pthread_t t[THREADS];
	char msg[1024], stage[64];
	int i, k, n = 0, line = -1, started = 0;

	xr_oom_reset();
	xr_oom_stage("stage A");
	for (i = 0; i < THREADS; i++) {
		snprintf(files[i], sizeof files[i], "f%d", i);
		if (pthread_create(&t[i], NULL, marker, (void *)(long)i) == 0)
			started++;
	}
	ok(started == THREADS, "%d threads started", started);
	/* the stage changes while they mark: each copy is whole */
	for (k = 0; k < 20000; k++)
		xr_oom_stage("stage %c", k % 2 ? 'B' : 'A');
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	ok(xr_oom_seen(), "a mark from another thread is seen");
	is_int(exit_text(msg, sizeof msg), 3, "exit status 3 (XR_ENOMEM)");
	/* "xrun: out of memory while stage X (fI line I+1)" */
	ok(sscanf(msg, "xrun: out of memory while %63[^(](f%d line %d)", stage,
		  &n, &line) == 3,
	   "message: '%s'", msg);
	ok(!strcmp(stage, "stage A ") || !strcmp(stage, "stage B "),
	   "a whole stage: '%s'", stage);
	ok(n >= 0 && n < THREADS && line == n + 1,
	   "one thread's file with its line: f%d line %d", n, line);
}

int main(void)
{
	char msg[1024];

	tap_plan(11);
	xr_oom_reset();
	is_int(exit_text(msg, sizeof msg), 0, "no mark: the status unchanged");
	is_str(msg, "", "no mark: nothing said");

	/* the first position is the one said; the stage named the file */
	xr_oom_stage("reading p.yaml");
	xr_oom_mark("p.yaml", 7);
	xr_oom_stage("checking p.yaml");
	xr_oom_mark("q.yaml", 9);
	is_int(exit_text(msg, sizeof msg), 3, "exit status 3 (XR_ENOMEM)");
	is_str(msg, "xrun: out of memory while reading p.yaml (line 7)\n",
	       "the first mark's stage and line");

	/* no stage yet, no position */
	xr_oom_reset();
	xr_oom_mark(NULL, 0);
	exit_text(msg, sizeof msg);
	is_str(msg, "xrun: out of memory while starting\n", "before a stage");

	threads();
	return tap_done();
}
