/*
 * The published conditions that set a reference's ceilings
 * (schema/reference.md, "Conditions for ceilings"): the link speed and
 * the PCIe link a publication states, file-wide or per level of a factor
 * (`condition,pcie,3.0 x1,slot=pcie3x1`); parsing their values, checking
 * their scopes against the table, and the value that holds for a row.
 * reports/explain turns them into ceilings.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reference_int.h"
#include "banned.h"

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A number at s, finite and within (0, max]; its end in *end. */
static int num_at(const char *s, double max, double *v, const char **end)
{
	char *e;
	errno = 0;
	*v = strtod(s, &e);
	if (e == s || errno || !isfinite(*v) || *v <= 0 || *v > max)
		return -XR_EPARSE;
	*end = e;
	return 0;
}

int report_ref_parse_link(const char *s, double *bps)
{
	const char *e;
	double v;
	if (num_at(skip_blank(s), 1e7, &v, &e) < 0)
		return -XR_EPARSE;
	e = skip_blank(e);
	if (*e == 'G' || *e == 'g')
		*bps = v * 1e9; /* 10G, 10GBASE-T, 10 Gbit/s, 10GbE */
	else if (*e == 'M' || *e == 'm' || !*e || !strncmp(e, "BASE", 4))
		*bps = v * 1e6; /* 1000BASE-T, 100M, 10000 (ethtool) */
	else
		return -XR_EPARSE;
	return 0;
}

int report_ref_parse_pcie(const char *s, double *gts, int *lanes)
{
	/* PCIe base spec 1.0-5.0: 2.5, 5, 8, 16, 32 GT/s per lane */
	static const double rate[] = {0, 2.5, 5, 8, 16, 32};
	const char *e;
	double v, l;
	s = skip_blank(s);
	if (!strncasecmp(s, "pcie", 4))
		s = skip_blank(s + 4);
	if (!strncasecmp(s, "gen", 3))
		s = skip_blank(s + 3);
	if (num_at(s, 64, &v, &e) < 0)
		return -XR_EPARSE;
	e = skip_blank(e);
	if (!strncasecmp(e, "GT/s", 4)) {
		e = skip_blank(e + 4);
	} else if (v == floor(v) && v >= 1 && v <= 5) {
		v = rate[(int)v]; /* a generation: "3.0", "Gen3" */
	} else {
		return -XR_EPARSE;
	}
	if (*e != 'x' && *e != 'X')
		return -XR_EPARSE;
	if (num_at(e + 1, 32, &l, &e) < 0 || l != floor(l) || *skip_blank(e))
		return -XR_EPARSE;
	*gts = v;
	*lanes = (int)l;
	return 0;
}

void ref_check_ceiling_cond(struct xr_diag *d, const struct report_ref_cond *c)
{
	double a;
	int b;
	if (!strcmp(c->key, "link") && report_ref_parse_link(c->value, &a) < 0)
		xr_diag_add(d, 0, c->line, c->col,
			    "link '%s' is not a link speed ('10GBASE-T', "
			    "'2.5G', '1000' in Mbit/s)",
			    c->value);
	if (!strcmp(c->key, "pcie") &&
	    report_ref_parse_pcie(c->value, &a, &b) < 0)
		xr_diag_add(d, 0, c->line, c->col,
			    "pcie '%s' is not a PCIe link ('3.0 x1', "
			    "'Gen4 x4', '8 GT/s x1'; generations 1 to 5)",
			    c->value);
}

void ref_check_scopes(struct ref_read *rr)
{
	for (int i = 0; i < rr->nlconds; i++) {
		const struct report_ref_cond *c = &rr->lconds[i];
		int col = -1, seen = 0;
		for (int j = 0; j < rr->hdr->n; j++)
			if (!strcmp(rr->hdr->f[j].s, c->factor) &&
			    rr->kind[j] == REF_COL_FACTOR)
				col = j;
		if (col < 0) {
			xr_diag_add(rr->d, 0, c->line, c->scope_col,
				    "condition scope '%s' is not a factor "
				    "column of the table",
				    c->factor);
			continue;
		}
		for (int k = rr->first_row; k < rr->ps.nrec && !seen; k++) {
			const struct ref_record *w = &rr->ps.rec[k];
			seen = w->n > col && !strcmp(w->f[col].s, c->level);
		}
		if (!seen)
			xr_diag_add(rr->d, 1, c->line, c->scope_col,
				    "no row has %s=%s: the condition holds "
				    "for none",
				    c->factor, c->level);
	}
}

const char *report_ref_row_cond(const struct report_ref *ref,
				const struct report_ref_row *w, const char *key)
{
	for (int i = 0; i < ref->nlconds; i++)
		for (int j = 0; j < ref->nfactors; j++)
			if (!strcmp(ref->lconds[i].key, key) &&
			    !strcmp(ref->lconds[i].factor, ref->factors[j]) &&
			    !strcmp(ref->lconds[i].level, w->levels[j]))
				return ref->lconds[i].value;
	for (int j = 0; j < ref->nfactors; j++)
		if (!strcmp(ref->factors[j], key))
			return w->levels[j];
	for (int i = 0; i < ref->nconds; i++)
		if (!strcmp(ref->conds[i].key, key))
			return ref->conds[i].value;
	return NULL;
}
