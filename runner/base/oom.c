/*
 * The out-of-memory mark and the stage a command is in (see oom.h). Fixed
 * buffers and write(2) only: this is what runs when malloc cannot.
 *
 * Any thread may mark (buf.c, arena.c and xr_err.c run in the samplers, the
 * latency probe's reader and the series flusher too), while the main
 * thread sets the stage and, at the end, reads the mark. So:
 * - the first mark wins with an atomic exchange (one claim for the stage
 *   copied, one for the position): a second thread failing at once never
 *   writes the same buffers;
 * - what the winner wrote is published by a release store of a "ready"
 *   flag and read only after an acquire load of it (xr_oom_exit), so a
 *   reader sees the whole text or none of it ("while starting");
 * - the stage is copied under a spin lock (atomic_flag: lock-free, no
 *   allocation, held for one memcpy) that xr_oom_stage takes to write
 *   it. Only the main thread sets the stage (the command's), so it reads
 *   it back (xr_oom_stage_now) without the lock.
 * C11 atomics, not a pthread mutex: base links no thread library, and
 * both are safe here, but this needs nothing that could allocate.
 *
 * SPDX-License-Identifier: MIT
 */
#include "oom.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "xr_code.h"
#include "banned.h"

static char oom_stage[512];
static char oom_at[512]; /* the stage when memory first ran out */
static char oom_file[256];
static int oom_line;
static atomic_flag stage_lock = ATOMIC_FLAG_INIT;
/* claimed: a thread is writing (or wrote) it; ready: it is written */
static atomic_int at_claimed, at_ready, file_claimed, file_ready;
static atomic_int oom_seen;

static void stage_lock_take(void)
{
	while (atomic_flag_test_and_set_explicit(&stage_lock,
						 memory_order_acquire))
		; /* held for one memcpy */
}

static void stage_lock_give(void)
{
	atomic_flag_clear_explicit(&stage_lock, memory_order_release);
}

void xr_oom_stage(const char *fmt, ...)
{
	char s[sizeof oom_stage];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s, sizeof s, fmt, ap);
	va_end(ap);
	stage_lock_take();
	memcpy(oom_stage, s, sizeof oom_stage);
	stage_lock_give();
}

void xr_oom_mark(const char *file, int line)
{
	if (file && line > 0 && !atomic_exchange(&file_claimed, 1)) {
		snprintf(oom_file, sizeof oom_file, "%s", file);
		oom_line = line;
		atomic_store_explicit(&file_ready, 1, memory_order_release);
	}
	if (!atomic_exchange(&at_claimed, 1)) {
		stage_lock_take();
		memcpy(oom_at, oom_stage, sizeof oom_at);
		stage_lock_give();
		atomic_store_explicit(&at_ready, 1, memory_order_release);
	}
	atomic_store(&oom_seen, 1);
}

const char *xr_oom_stage_now(void)
{
	return oom_stage;
}

int xr_oom_seen(void)
{
	return atomic_load(&oom_seen);
}

int xr_oom_exit(int rc)
{
	char msg[1024];
	const char *at = "", *file = "";
	int n;
	if (!atomic_load(&oom_seen))
		return rc;
	/* a mark still being written by another thread: not said */
	if (atomic_load_explicit(&at_ready, memory_order_acquire))
		at = oom_at;
	if (atomic_load_explicit(&file_ready, memory_order_acquire))
		file = oom_file;
	if (file[0] && strstr(at, file))
		n = snprintf(msg, sizeof msg,
			     "xrun: out of memory while %s (line %d)\n", at,
			     oom_line);
	else if (file[0])
		n = snprintf(msg, sizeof msg,
			     "xrun: out of memory while %s (%s line %d)\n",
			     at[0] ? at : "starting", file, oom_line);
	else
		n = snprintf(msg, sizeof msg, "xrun: out of memory while %s\n",
			     at[0] ? at : "starting");
	if (n > (int)sizeof msg - 1)
		n = (int)sizeof msg - 1;
	fflush(stdout);
	if (write(STDERR_FILENO, msg, (size_t)n) < 0)
		n = 0; /* nowhere else to say it */
	return xr_code_exit(XR_ENOMEM);
}

/* Unit tests only: no other thread may mark meanwhile. */
void xr_oom_reset(void)
{
	oom_stage[0] = oom_at[0] = oom_file[0] = 0;
	oom_line = 0;
	atomic_store(&at_claimed, 0);
	atomic_store(&at_ready, 0);
	atomic_store(&file_claimed, 0);
	atomic_store(&file_ready, 0);
	atomic_store(&oom_seen, 0);
}
