/*
 * Welch's t with unequal group sizes (3 against 10): the
 * Welch-Satterthwaite degrees of freedom weigh each side's variance by
 * its own n - 1, which equal-sized groups cannot tell apart. Reference
 * numbers: scipy 1.10.1 / numpy 1.24.2,
 *   a = [10.1, 10.9, 12.3]
 *   b = [20.2, 19.8, 21.5, 20.9, 19.1, 22.4, 20.0, 21.1, 19.7, 20.6]
 *   r = scipy.stats.ttest_ind(b, a, equal_var=False)
 *       -> t 13.224680674014632, p 0.0009481096339512039
 *   va = np.var(a, ddof=1) / 3; vb = np.var(b, ddof=1) / 10
 *   est 9.429999999999998, se sqrt(va + vb) 0.713060695562135
 *   df (va + vb)**2 / (va**2 / 2 + vb**2 / 9) 2.9912563359036035
 *   q = scipy.stats.t.ppf(0.975, df): ci 7.156965426058399,
 *   11.703034573941597
 * (with n_a - 1 on both sides the df would read 2.874236457746057).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>

#include "stats.h"
#include "tap.h"

static const double A[] = {10.1, 10.9, 12.3};
static const double B[] = {20.2, 19.8, 21.5, 20.9, 19.1,
			   22.4, 20.0, 21.1, 19.7, 20.6};

static void check(const struct stats_effect *e, double sign, const char *what)
{
	char name[96];
	snprintf(name, sizeof name, "%s: estimate", what);
	is_near(e->est, sign * 9.429999999999998, 1e-12, name);
	snprintf(name, sizeof name, "%s: standard error", what);
	is_near(e->se, 0.713060695562135, 1e-12, name);
	snprintf(name, sizeof name, "%s: Welch-Satterthwaite df", what);
	is_near(e->df, 2.9912563359036035, 1e-9, name);
	snprintf(name, sizeof name, "%s: t", what);
	is_near(e->t, sign * 13.224680674014632, 1e-9, name);
	snprintf(name, sizeof name, "%s: two-sided p", what);
	is_near(e->p, 0.0009481096339512039, 1e-9, name);
	snprintf(name, sizeof name, "%s: 95%% interval low", what);
	is_near(sign > 0 ? e->lo : -e->hi, 7.156965426058399, 1e-7, name);
	snprintf(name, sizeof name, "%s: 95%% interval high", what);
	is_near(sign > 0 ? e->hi : -e->lo, 11.703034573941597, 1e-7, name);
}

int main(void)
{
	struct stats_effect e;
	tap_plan(16);

	/* mean(b) - mean(a): the small group first, then the large one. */
	is_int(stats_welch(A, 3, B, 10, 0.95, &e), 0, "3 vs 10 computes");
	check(&e, 1, "3 vs 10");
	/* The same samples the other way round: the df is symmetric. */
	is_int(stats_welch(B, 10, A, 3, 0.95, &e), 0, "10 vs 3 computes");
	check(&e, -1, "10 vs 3");
	return tap_done();
}
