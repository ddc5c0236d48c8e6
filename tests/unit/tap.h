/* A tiny TAP-style unit test harness: ok(cond, fmt, ...) and done(). */
#ifndef XR_TAP_H
#define XR_TAP_H

int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int tap_done(void); /* prints "N passed, M failed"; returns exit status */
void tap_skip_all(const char *why); /* prints reason, exits 77 */

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
