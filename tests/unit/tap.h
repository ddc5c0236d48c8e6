/* A tiny TAP-style unit test harness: tap_plan(), ok(cond, fmt, ...), skips
 * that fail under CI, and tap_done().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_TAP_H
#define XR_TAP_H

/* The number of assertions the test makes when every prerequisite is
 * there. tap_done() fails a test that ran fewer (an early return, a loop
 * that stopped), and any test that ran none, planned or not. More than
 * planned only prints a note, so that adding checks never breaks a test. */
void tap_plan(int n);
int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int tap_done(void); /* prints "N passed, M failed"; returns exit status */
/* A missing prerequisite (no root, no sshd, no namespace, no iperf3) for a
 * part of the test. Outside CI it prints "# SKIP why" and relaxes the plan
 * check; under CI (CI=true: root and every package installed) it is a
 * failure, so that a broken setup cannot pass as a skip. */
void tap_skip(const char *why);
/* The same for the whole test: exit 77 (ctest's skip), or a failure
 * (exit 1) under CI. */
void tap_skip_all(const char *why);
int tap_in_ci(void); /* CI is set to "true" or "1" */
/* A TCP port free on 127.0.0.1 now, picked by the kernel (bind to port 0),
 * so that tests running at once never draw the same one; 0 on error. */
int tap_free_port(void);

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* Each argument is evaluated once. */
int tap_is_int(long long got, long long want, const char *file, int line,
	       const char *name);
int tap_is_str(const char *got, const char *want, const char *file, int line,
	       const char *name);
int tap_is_near(double got, double want, double eps, const char *file, int line,
		const char *name);
#define is_int(a, b, name) tap_is_int((a), (b), __FILE__, __LINE__, name)
#define is_str(a, b, name) tap_is_str((a), (b), __FILE__, __LINE__, name)
#define is_near(a, b, eps, name)                                               \
	tap_is_near((a), (b), (eps), __FILE__, __LINE__, name)

#endif
