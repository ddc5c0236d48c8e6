/*
 * The out-of-memory mark and the stage a command is in (see oom.h). Fixed
 * buffers and write(2) only: this is what runs when malloc cannot.
 */
#include "oom.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "banned.h"

static char oom_stage[512];
static char oom_at[512]; /* the stage when memory first ran out */
static char oom_file[256];
static int oom_line, oom_seen;

void xr_oom_stage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(oom_stage, sizeof oom_stage, fmt, ap);
	va_end(ap);
}

void xr_oom_mark(const char *file, int line)
{
	if (!oom_file[0] && file && line > 0) {
		snprintf(oom_file, sizeof oom_file, "%s", file);
		oom_line = line;
	}
	if (!oom_seen)
		memcpy(oom_at, oom_stage, sizeof oom_at);
	oom_seen = 1;
}

const char *xr_oom_stage_now(void)
{
	return oom_stage;
}

int xr_oom_seen(void)
{
	return oom_seen;
}

int xr_oom_exit(int rc)
{
	char msg[1024];
	int n;
	if (!oom_seen)
		return rc;
	if (oom_file[0] && strstr(oom_at, oom_file))
		n = snprintf(msg, sizeof msg,
			     "xrun: out of memory while %s (line %d)\n", oom_at,
			     oom_line);
	else if (oom_file[0])
		n = snprintf(msg, sizeof msg,
			     "xrun: out of memory while %s (%s line %d)\n",
			     oom_at[0] ? oom_at : "starting", oom_file,
			     oom_line);
	else
		n = snprintf(msg, sizeof msg, "xrun: out of memory while %s\n",
			     oom_at[0] ? oom_at : "starting");
	if (n > (int)sizeof msg - 1)
		n = (int)sizeof msg - 1;
	fflush(stdout);
	if (write(STDERR_FILENO, msg, (size_t)n) < 0)
		n = 0; /* nowhere else to say it */
	return xr_code_exit(XR_ENOMEM);
}

void xr_oom_reset(void)
{
	oom_stage[0] = oom_at[0] = oom_file[0] = 0;
	oom_line = oom_seen = 0;
}
