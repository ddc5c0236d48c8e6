/*
 * The report's several comparisons taken together (schema/report.md,
 * "Verdicts", Multiplicity): the multiplicity note on every decided
 * comparison when there are two or more, and `--adjust holm`, Holm's
 * step-down adjustment of their p values (report_holm, verdict.c) with
 * the verdicts it no longer supports.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>

#include "model_flag.h"
#include "model_int.h"
#include "banned.h"

/* More than one comparison with a verdict: each is at 95%, uncorrected
 * unless --adjust says; a warning on every decided one says how many fall
 * by chance when none is real (0.05 n) and the chance of at least one
 * (1 - 0.95^n: 37% at nine, where a warning from ten on said nothing in
 * 16% of reports, issue 23), or the adjustment used. */
#define MULTIPLICITY_FROM 2

const char *report_adjust_name(size_t i)
{
	static const char *const names[] = {"none", "holm"};
	return i < sizeof names / sizeof *names ? names[i] : NULL;
}

/* The decided comparisons' p values adjusted by Holm's method
 * (report_holm, verdict.c); a claim (better, worse, different) whose
 * adjusted p is not below 0.05 becomes not_significant. 0, or -1 out of
 * memory. */
static int adjust_holm(struct report_cmp *v, int n)
{
	double *p = calloc(((size_t)n + 1) * 2, sizeof *p);
	int i, m = 0;
	if (!p)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].verdict != REPORT_NOT_COMPARABLE && !isnan(v[i].p))
			p[m++] = v[i].p;
	if (report_holm(p, (size_t)m, p + n + 1) < 0) {
		free(p);
		return -1;
	}
	for (i = 0, m = 0; i < n; i++) {
		struct report_cmp *c = &v[i];
		if (c->verdict == REPORT_NOT_COMPARABLE || isnan(c->p))
			continue;
		c->p_adj = p[n + 1 + m++];
		if (c->p_adj >= 0.05 && (c->verdict == REPORT_BETTER ||
					 c->verdict == REPORT_WORSE ||
					 c->verdict == REPORT_DIFFERENT))
			c->verdict = REPORT_NOT_SIGNIFICANT;
	}
	free(p);
	return 0;
}

int model_multiplicity(struct model_build *m, struct report_cmp *v, int nv)
{
	int i, n = 0, holm = m->r->met.adjust == REPORT_ADJUST_HOLM;
	for (i = 0; i < nv; i++)
		n += v[i].verdict < REPORT_NOT_COMPARABLE; /* decided */
	if (holm && adjust_holm(v, nv) < 0)
		return -1;
	if (n < MULTIPLICITY_FROM)
		return 0;
	for (i = 0; i < nv; i++) {
		struct report_cmp *c = &v[i];
		if (c->verdict >= REPORT_NOT_COMPARABLE)
			continue;
		if (holm)
			model_flag(m, c->warnings, &c->nwarnings,
				   REPORT_FLAG_MULTIPLICITY,
				   MODEL_JA(m)
				       ? "%d 件の比較、Holm 法で補正（Holm "
					 "1979）: 補正後 p=%.4g"
				       : "%d comparisons, verdicts adjusted "
					 "by Holm's method (Holm 1979): "
					 "adjusted p=%.4g",
				   n, c->p_adj);
		else
			model_flag(m, c->warnings, &c->nwarnings,
				   REPORT_FLAG_MULTIPLICITY,
				   MODEL_JA(m)
				       ? "%d 件の比較（補正なし。差がなくても"
					 "偶然の差 約 %.2f 件、1 件以上の確率 "
					 "%.0f%%）"
				       : "%d comparisons, no adjustment (with "
					 "no true difference about %.2f false "
					 "claims by chance, at least one with "
					 "probability %.0f%%; --adjust holm "
					 "adjusts them)",
				   n, n / 20.0, 100 * (1 - pow(0.95, n)));
	}
	return 0;
}
