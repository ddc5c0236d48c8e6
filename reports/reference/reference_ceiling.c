/*
 * The published conditions that set a reference's ceilings
 * (schema/reference.md, "Conditions for ceilings"): the link speed, the
 * PCIe link, the USB link and the Wi-Fi PHY rate a publication states,
 * file-wide or per level of a factor (`condition,pcie,3.0 x1,slot=pcie3x1`,
 * `condition,usb,USB 3.2 Gen 1,nic=rtl8156`); parsing their values, checking
 * their scopes against the table, and the value that holds for a row.
 * reports/explain turns them into ceilings.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
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

/* A rate with its unit at s ("5 Gb/s", "480Mbps", "866.7 Mbit/s"; bare:
 * Mbit/s) within (0, max] bit/s; 0, or -XR_EPARSE. */
static int rate_at(const char *s, double max, double *bps)
{
	const char *e;
	double v, mul = 1e6;
	if (num_at(skip_blank(s), 1e12, &v, &e) < 0)
		return -XR_EPARSE;
	e = skip_blank(e);
	if (*e == 'G' || *e == 'g')
		mul = 1e9;
	else if (*e == 'k' || *e == 'K')
		mul = 1e3;
	else if (*e && *e != 'M' && *e != 'm')
		return -XR_EPARSE;
	if (*e) { /* "Gb/s", "Gbit/s", "Gbps", "GT/s" is not a rate here */
		e++;
		if (strncasecmp(e, "bit/s", 5) && strncasecmp(e, "b/s", 3) &&
		    strncasecmp(e, "bps", 3))
			return -XR_EPARSE;
		e += !strncasecmp(e, "bit/s", 5) ? 5 : 3;
	}
	if (*skip_blank(e) || v * mul > max)
		return -XR_EPARSE;
	*bps = v * mul;
	return 0;
}

int report_ref_parse_usb(const char *s, double *lane_bps, int *lanes)
{
	const char *e;
	double ver = 0, gen, r;
	s = skip_blank(s);
	if (!strncasecmp(s, "usb", 3))
		s = skip_blank(s + 3);
	/* a signalling rate: USB 2.0 high speed, Gen 1, Gen 2, Gen 2x2 */
	if (rate_at(s, 20e9, &r) == 0 &&
	    (r == 480e6 || r == 5e9 || r == 10e9 || r == 20e9)) {
		*lanes = r == 20e9 ? 2 : 1;
		*lane_bps = r / *lanes;
		return 0;
	}
	if (*s >= '0' && *s <= '9') {
		if (num_at(s, 4, &ver, &e) < 0)
			return -XR_EPARSE;
		s = skip_blank(e);
	}
	if (!*s && (ver == 2 || ver == 2.0 || ver == 3.0)) {
		*lane_bps = ver == 3.0 ? 5e9 : 480e6; /* 3.0 is Gen 1 */
		*lanes = 1;
		return 0;
	}
	/* "Gen 1", "Gen 2x1", "Gen 1x2", "Gen 2x2" after 3.1, 3.2 or nothing
	 * (USB 3.2 spec: Gen 1 5 GT/s, Gen 2 10 GT/s per lane, 1 or 2
	 * lanes; USB 3.1 has Gen 1 and Gen 2 on one lane) */
	if ((ver && ver != 3.1 && ver != 3.2) || strncasecmp(s, "gen", 3) ||
	    num_at(skip_blank(s + 3), 2, &gen, &e) < 0 || gen != floor(gen))
		return -XR_EPARSE;
	*lanes = 1;
	if (*e == 'x' || *e == 'X') {
		double l;
		if (num_at(e + 1, 2, &l, &e) < 0 || l != floor(l) ||
		    (l == 2 && ver == 3.1))
			return -XR_EPARSE;
		*lanes = (int)l;
	}
	if (*skip_blank(e))
		return -XR_EPARSE;
	*lane_bps = gen == 1 ? 5e9 : 10e9;
	return 0;
}

int report_ref_parse_wifi(const char *s, double *bps)
{
	/* IEEE 802.11be's highest PHY rate is 46.1 Gbit/s */
	return rate_at(s, 100e9, bps);
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
	if (!strcmp(c->key, "usb") &&
	    report_ref_parse_usb(c->value, &a, &b) < 0)
		xr_diag_add(d, 0, c->line, c->col,
			    "usb '%s' is not a USB link ('USB 2.0', "
			    "'USB 3.2 Gen 1', 'Gen 2x2', '5 Gb/s')",
			    c->value);
	if (!strcmp(c->key, "wifi") && report_ref_parse_wifi(c->value, &a) < 0)
		xr_diag_add(d, 0, c->line, c->col,
			    "wifi '%s' is not a Wi-Fi PHY rate ('866.7 "
			    "Mbit/s', '2.4 Gbit/s', '1201' in Mbit/s)",
			    c->value);
}

int ref_check_scopes(struct ref_read *rr)
{
	rr->scope_col =
	    arena_alloc(rr->a, ((size_t)rr->nlconds + 1) * sizeof(int));
	rr->scope_seen = arena_alloc(rr->a, (size_t)rr->nlconds + 1);
	if (!rr->scope_col || !rr->scope_seen)
		return -XR_ENOMEM;
	for (int i = 0; i < rr->nlconds; i++) {
		const struct report_ref_cond *c = &rr->lconds[i];
		int col = -1;
		for (int j = 0; j < rr->hdr->n; j++)
			if (!strcmp(rr->hdr->f[j].s, c->factor) &&
			    rr->kind[j] == REF_COL_FACTOR)
				col = j;
		rr->scope_col[i] = col;
		if (col < 0)
			xr_diag_add(rr->d, 0, c->line, c->scope_col,
				    "condition scope '%s' is not a factor "
				    "column of the table",
				    c->factor);
	}
	return 0;
}

void ref_scopes_see(struct ref_read *rr, const struct ref_record *w)
{
	if (!rr->scope_col || !rr->scope_seen)
		return;
	for (int i = 0; i < rr->nlconds; i++) {
		int col = rr->scope_col[i];
		if (col >= 0 && !rr->scope_seen[i] && w->n > col &&
		    !strcmp(w->f[col].s, rr->lconds[i].level))
			rr->scope_seen[i] = 1;
	}
}

void ref_scopes_warn(struct ref_read *rr)
{
	if (!rr->scope_col || !rr->scope_seen)
		return;
	for (int i = 0; i < rr->nlconds; i++) {
		const struct report_ref_cond *c = &rr->lconds[i];
		if (rr->scope_col[i] >= 0 && !rr->scope_seen[i])
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
