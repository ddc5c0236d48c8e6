/* The unit test harness behind tap.h: counts, prints failures, exits. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int npass, nfail;

int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("%s %d - ", cond ? "ok" : "not ok", npass + nfail + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		printf("#   failed at %s:%d\n", file, line);
	if (cond)
		npass++;
	else
		nfail++;
	fflush(stdout);
	return cond;
}

int tap_done(void)
{
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}

void tap_skip_all(const char *why)
{
	printf("# SKIP %s\n", why);
	exit(77);
}
