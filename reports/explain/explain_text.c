/*
 * The pieces every explanation's sentences are made of (explain_text.h):
 * a part appended after a separator, a host's fact named in the report's
 * language, a value as a share of its ceiling.
 *
 * SPDX-License-Identifier: MIT
 */
#include "explain_text.h"

#include <stdio.h>
#include <string.h>

#include "format.h"

#include "banned.h"

void explain_cat(char *dst, size_t n, const char *sep, const char *s)
{
	size_t l = strlen(dst);
	snprintf(dst + l, n - l, "%s%s", l ? sep : "", s);
}

void explain_fact_text(char *dst, size_t n, int ja, const char *host,
		       const char *key, const char *value)
{
	size_t l = strlen(dst);
	if (l >= n)
		return;
	snprintf(dst + l, n - l, ja ? "%s%s の %s%s%s" : "%s%s of %s%s%s",
		 l ? (ja ? "、" : ", ") : "", ja ? host : key, ja ? key : host,
		 value ? ": " : "", value ? value : "");
}

void explain_share(const struct report *r, int ja, double v, double ceiling,
		   const char *name, int digits, char *dst, size_t n)
{
	char pv[64], cv[64], buf[512];
	report_fmt_value_unit(r, v, pv, sizeof pv);
	report_fmt_value_unit(r, ceiling, cv, sizeof cv);
	if (ja)
		snprintf(buf, sizeof buf, "%s = %s（%s）の %.*f%%", pv, cv,
			 name, digits, 100 * v / ceiling);
	else
		snprintf(buf, sizeof buf, "%s = %.*f%% of %s (%s)", pv, digits,
			 100 * v / ceiling, cv, name);
	explain_cat(dst, n, "; ", buf);
}
