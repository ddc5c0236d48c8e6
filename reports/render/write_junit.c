/*
 * The JUnit XML writer, for CI systems' test-report views (GitLab's
 * artifacts:reports:junit, Jenkins' junit step, GitHub test-report
 * actions): one <testsuite> for the report, one <testcase> per
 * comparison, a <failure> for each comparison whose verdict is one the
 * gate names (`xrun report --fail-on`), a <skipped/> for a comparison
 * refused as not comparable or withheld as not verified (when the gate
 * does not name it). Elements
 * and attributes are those of the Jenkins/Ant schema junit-10.xsd
 * (jenkinsci/xunit-plugin): testsuites > testsuite (name, tests,
 * failures, errors, skipped, timestamp) > properties > property (name,
 * value), testcase (name, classname) > failure (message, type) |
 * skipped, system-out. That schema has no per-testcase properties, so
 * each comparison's Δ and interval are suite properties named after the
 * test case ("<name>.delta_pct"), and its verdict line is its
 * system-out. docs/ci.md shows the file.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "escape.h"
#include "render.h"
#include "banned.h"

/* What the escaping replaced in the report being written. */
static struct esc_count junit_count;

/* s as XML text or attribute value: ill-formed UTF-8 replaced, the five
 * special characters as entities, control characters dropped. */
static void xml(FILE *f, const char *s)
{
	struct buf b = BUF_INIT;
	esc_count_add(&junit_count, esc_html(&b, s ? s : ""));
	if (b.len)
		fwrite(b.s, 1, b.len, f);
	buf_release(&b);
}

/* "cc=cubic → cc=bbr (streams=4)": the two sides as the comparisons table
 * names them, baseline first. */
static void case_name(const struct report *r, const struct report_cmp *c,
		      struct buf *b)
{
	char sa[256], sb[256], common[256];
	report_fmt_side(r, &r->cells[c->a], &r->cells[c->b], sa, sizeof sa);
	report_fmt_side(r, &r->cells[c->b], &r->cells[c->a], sb, sizeof sb);
	report_fmt_common(r, &r->cells[c->a], &r->cells[c->b], common,
			  sizeof common);
	buf_addf(b, "%s \u2192 %s", sa, sb);
	if (strcmp(common, "\u2013"))
		buf_addf(b, " (%s)", common);
}

static void property(FILE *f, const char *name, const char *suffix,
		     const char *value)
{
	fputs("      <property name=\"", f);
	xml(f, name);
	fputs(suffix, f);
	fputs("\" value=\"", f);
	xml(f, value);
	fputs("\"/>\n", f);
}

static void num_property(FILE *f, const char *name, const char *suffix,
			 double v)
{
	char s[40];
	if (isnan(v) || isinf(v))
		s[0] = 0;
	else
		snprintf(s, sizeof s, "%.6g", v);
	property(f, name, suffix, s);
}

static void properties(FILE *f, const struct report *r)
{
	struct buf n = BUF_INIT;
	char theta[40];
	int k;
	snprintf(theta, sizeof theta, "%.6g", r->met.threshold * 100);
	fputs("    <properties>\n", f);
	property(f, "plan", "", r->about.plan_name);
	property(f, "plan_hash", "", r->about.plan_hash);
	property(f, "store", "", r->about.db_path);
	property(f, "metric", "", r->met.metric);
	property(f, "theta_pct", "", theta);
	for (k = 0; k < r->ncmps; k++) {
		const struct report_cmp *c = &r->cmps[k];
		buf_reset(&n);
		case_name(r, c, &n);
		num_property(f, n.s, ".delta_pct", c->delta_pct);
		num_property(f, n.s, ".ci_low_pct", c->ci_low_pct);
		num_property(f, n.s, ".ci_high_pct", c->ci_high_pct);
		property(f, n.s, ".verdict", report_verdict_name(c->verdict));
	}
	fputs("    </properties>\n", f);
	buf_release(&n);
}

static void testcase(FILE *f, const struct report *r,
		     const struct report_cmp *c, const char *name,
		     unsigned fail_on)
{
	const char *v = report_verdict_name(c->verdict);
	char line[2048];
	report_fmt_verdict(r, c, line, sizeof line);
	fputs("    <testcase name=\"", f);
	xml(f, name);
	fputs("\" classname=\"", f);
	xml(f, r->about.plan_name);
	fputs(".", f);
	xml(f, c->factor >= 0 ? r->factors[c->factor].name : "pair");
	fputs("\" time=\"0\">\n", f);
	if (fail_on & (1u << c->verdict)) {
		fputs("      <failure type=\"", f);
		xml(f, v);
		fputs("\" message=\"", f);
		xml(f, v);
		fputs(": ", f);
		xml(f, line);
		fputs("\">", f);
		xml(f, line);
		fputs("</failure>\n", f);
	} else if (c->verdict >= REPORT_NOT_COMPARABLE) {
		fputs("      <skipped message=\"", f);
		xml(f, line);
		fputs("\"/>\n", f);
	}
	fputs("      <system-out>", f);
	xml(f, line);
	fputs("</system-out>\n", f);
	fputs("    </testcase>\n", f);
}

/* ISO 8601 without a zone, as junit-10.xsd's timestamp wants (UTC). */
static void timestamp(double t, char *out, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;
	if (isnan(t) || !gmtime_r(&s, &tm) ||
	    !strftime(out, n, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(out, n, "1970-01-01T00:00:00");
}

int report_write_junit(const struct report *r, unsigned fail_on, FILE *f,
		       struct xr_err *err)
{
	struct buf name = BUF_INIT;
	char ts[32];
	int k, nfail = 0, nskip = 0;

	memset(&junit_count, 0, sizeof junit_count);
	for (k = 0; k < r->ncmps; k++) {
		if (fail_on & (1u << r->cmps[k].verdict))
			nfail++;
		else if (r->cmps[k].verdict >= REPORT_NOT_COMPARABLE)
			nskip++; /* refused or withheld: no verdict */
	}
	timestamp(r->about.generated_at, ts, sizeof ts);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"%d\" failures=\"%d\" errors=\"0\">\n",
		r->ncmps, nfail);
	fputs("  <testsuite name=\"", f);
	xml(f, r->about.title ? r->about.title : r->about.plan_name);
	fprintf(f,
		"\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" "
		"time=\"0\" timestamp=\"%s\">\n",
		r->ncmps, nfail, nskip, ts);
	properties(f, r);
	for (k = 0; k < r->ncmps; k++) {
		buf_reset(&name);
		case_name(r, &r->cmps[k], &name);
		testcase(f, r, &r->cmps[k], name.s, fail_on);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	buf_release(&name);
	esc_warn(&junit_count, "junit", stderr);
	return ferror(f)
		   ? xr_err_set(err, XR_EIO, NULL, 0, 0,
				"cannot write the junit xml: %s", "write error")
		   : 0;
}
