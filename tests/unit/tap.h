/* A tiny TAP-style unit test harness: ok(cond, fmt, ...) and done(). */
#ifndef XR_TAP_H
#define XR_TAP_H

int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int tap_done(void); /* prints "N passed, M failed"; returns exit status */
void tap_skip_all(const char *why); /* prints reason, exits 77 */

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(a, b, name)                                                     \
	tap_ok((long long)(a) == (long long)(b), __FILE__, __LINE__,           \
	       "%s (got %lld, want %lld)", name, (long long)(a),              \
	       (long long)(b))
#define is_str(a, b, name)                                                     \
	tap_ok((a) && (b) && strcmp((a), (b)) == 0, __FILE__, __LINE__,        \
	       "%s (got '%s', want '%s')", name, (a) ? (a) : "(null)",         \
	       (b) ? (b) : "(null)")
#define is_near(a, b, eps, name)                                               \
	tap_ok(fabs((double)(a) - (double)(b)) <= (eps), __FILE__, __LINE__,   \
	       "%s (got %g, want %g +- %g)", name, (double)(a), (double)(b),   \
	       (double)(eps))

#endif
