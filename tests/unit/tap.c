/* The unit test harness behind tap.h: counts, checks the plan, prints
 * failures and skips, exits.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static int npass, nfail, nplan = -1, nskip;

void tap_plan(int n)
{
	nplan = n;
	printf("1..%d\n", n);
}

int tap_in_ci(void)
{
	const char *ci = getenv("CI");
	return ci && (strcmp(ci, "true") == 0 || strcmp(ci, "1") == 0);
}

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
	int ran = npass + nfail, bad = nfail != 0;
	if (ran == 0) {
		printf("not ok - the test made no assertion\n");
		bad = 1;
	} else if (nplan >= 0 && ran < nplan && !nskip) {
		printf("not ok - planned %d assertions, only %d ran\n", nplan,
		       ran);
		bad = 1;
	} else if (nplan >= 0 && ran > nplan) {
		printf("# %d assertions ran, %d planned: raise tap_plan()\n",
		       ran, nplan);
	}
	printf("%d passed, %d failed%s\n", npass, nfail,
	       nskip ? " (parts skipped)" : "");
	return bad ? 1 : 0;
}

void tap_skip(const char *why)
{
	if (tap_in_ci()) {
		tap_ok(0, "(skip)", 0,
		       "CI=true but a prerequisite is missing: %s", why);
		return;
	}
	printf("# SKIP %s\n", why);
	nskip++;
}

void tap_skip_all(const char *why)
{
	if (tap_in_ci()) {
		printf("not ok - CI=true but a prerequisite is missing: %s\n",
		       why);
		exit(1);
	}
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

int tap_free_port(void)
{
	struct sockaddr_in a;
	socklen_t l = sizeof a;
	int s = socket(AF_INET, SOCK_STREAM, 0), port = 0;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (s >= 0)
		close(s);
	return port;
}
