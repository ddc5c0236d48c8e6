/* The unit test harness behind tap.h: counts, prints failures, exits. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int tap_is_int(long long got, long long want, const char *file, int line,
	       const char *name)
{
	return tap_ok(got == want, file, line, "%s (got %lld, want %lld)", name,
		      got, want);
}

int tap_is_str(const char *got, const char *want, const char *file, int line,
	       const char *name)
{
	return tap_ok(got && want && strcmp(got, want) == 0, file, line,
		      "%s (got '%s', want '%s')", name, got ? got : "(null)",
		      want ? want : "(null)");
}

int tap_is_near(double got, double want, double eps, const char *file, int line,
		const char *name)
{
	return tap_ok(fabs(got - want) <= eps, file, line,
		      "%s (got %g, want %g +- %g)", name, got, want, eps);
}
