/*
 * tc policers from `tc -s filter show` text (qdisc_police.h). Each line
 * that starts with "filter " opens a block (tc/tc_filter.c print_filter:
 * "filter [parent P] [protocol X] [pref N] KIND ..."); a block holds its
 * classifier's match lines (f_u32.c show_keys: "match VAL/MASK at OFF")
 * and its actions, a police action printed by tc/m_police.c
 * print_police as "police 0xI rate R burst B mtu M [peakrate P] [avrate
 * A] [pkts_rate N pkts_burst N] action EXCEED[/CONFORM] overhead Ob
 * [linklayer L]", then with -s "Sent N bytes M pkt (dropped D,
 * overlimits O requeues Q)" (tc/tc_util.c print_tcstats2_attr). Sizes
 * come from sprint_size() (b, Kb, Mb, Gb in steps of 1024), rates from
 * sprint_rate() (qdisc_rate_bits).
 *
 * SPDX-License-Identifier: MIT
 */
#include "qdisc_police.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qdisc_htb.h"

#include "banned.h"

/* The word at s (up to a blank) into w, and where the next one starts. */
static const char *word(const char *s, char *w, size_t n)
{
	size_t i = 0;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		if (i + 1 < n)
			w[i++] = *s;
		s++;
	}
	w[i] = '\0';
	return s;
}

/* sprint_size()'s text in bytes, or -1. */
static double size_bytes(const char *w)
{
	char *e;
	double v = strtod(w, &e);
	if (e == w || v < 0)
		return -1;
	if (!strcmp(e, "b"))
		return v;
	if (!strcmp(e, "Kb"))
		return v * 1024;
	if (!strcmp(e, "Mb"))
		return v * 1024 * 1024;
	if (!strcmp(e, "Gb"))
		return v * 1024 * 1024 * 1024;
	return -1;
}

/* The filter line: protocol, pref and the classifier's name (the first
 * word that is not one of tc's "KEY VALUE" fields before it). */
static void filter_line(const char *s, const char *eol, struct qdisc_police *p)
{
	char w[32];
	snprintf(p->proto, sizeof p->proto, "all"); /* ETH_P_ALL unprinted */
	s = word(s, w, sizeof w);		    /* "filter" */
	while (s < eol) {
		s = word(s, w, sizeof w);
		if (!strcmp(w, "protocol")) {
			s = word(s, p->proto, sizeof p->proto);
		} else if (!strcmp(w, "pref")) {
			s = word(s, w, sizeof w);
			p->pref = (unsigned)strtoul(w, NULL, 10);
		} else if (!strcmp(w, "parent") || !strcmp(w, "block") ||
			   !strcmp(w, "dev")) {
			s = word(s, w, sizeof w);
		} else if (!strcmp(w, "ingress") || !strcmp(w, "egress")) {
			continue;
		} else {
			snprintf(p->cls, sizeof p->cls, "%.15s", w);
			return;
		}
	}
}

/* Whether the block [s, e) of classifier cls matches every packet: a
 * matchall; a u32 whose every key has mask 0 ("match u32 0 0", "match ip
 * src 0/0") and that neither links to a hash table nor reads a variable
 * offset or a mark; a basic with no ematch. Other classifiers are read
 * as matching some traffic only (flower, bpf, fw: their keys are not
 * parsed here). */
static int matches_all(const char *cls, const char *s, const char *e)
{
	const char *m;
	size_t n = (size_t)(e - s);
	char *t;
	int all = 0;
	if (!strcmp(cls, "matchall"))
		return 1;
	if (strcmp(cls, "u32") && strcmp(cls, "basic"))
		return 0;
	t = malloc(n + 1);
	if (!t)
		return 0;
	memcpy(t, s, n);
	t[n] = '\0';
	if (!strcmp(cls, "basic")) {
		all = !strstr(t, "ematch");
	} else if (!strstr(t, " link ") && !strstr(t, "offset ") &&
		   !strstr(t, "  mark ")) {
		unsigned val, mask;
		all = 1;
		for (m = strstr(t, "match "); m; m = strstr(m + 6, "match "))
			if (sscanf(m + 6, "%8x/%8x", &val, &mask) != 2 ||
			    mask != 0)
				all = 0;
	}
	free(t);
	return all;
}

/* One police action at s (after "police 0xI"), up to "ref" or the end of
 * its block e; its statistics when -s printed them before e. */
static void police_fields(const char *s, const char *e, struct qdisc_police *p)
{
	char w[32], v[32];
	const char *st;
	while (s < e) {
		s = word(s, w, sizeof w);
		if (!w[0] || !strcmp(w, "ref") || !strcmp(w, "police"))
			break;
		s = word(s, v, sizeof v);
		if (!strcmp(w, "rate"))
			p->rate = qdisc_rate_bits(v, NULL);
		else if (!strcmp(w, "peakrate"))
			p->peakrate = qdisc_rate_bits(v, NULL);
		else if (!strcmp(w, "burst"))
			p->burst = size_bytes(v);
		else if (!strcmp(w, "mtu"))
			p->mtu = size_bytes(v);
		else if (!strcmp(w, "pkts_rate"))
			p->pkts_rate = strtod(v, NULL);
		else if (!strcmp(w, "overhead"))
			p->overhead = (int)size_bytes(v);
		else if (!strcmp(w, "linklayer"))
			p->atm = !strcmp(v, "atm");
		else if (!strcmp(w, "action"))
			snprintf(p->exceed, sizeof p->exceed, "%.*s",
				 (int)strcspn(v, "/"), v);
	}
	if (p->rate < 0)
		p->rate = 0;
	st = strstr(s, "Sent ");
	if (st && st < e &&
	    sscanf(st,
		   "Sent %llu bytes %llu pkt (dropped %llu, overlimits %llu",
		   &p->bytes, &p->packets, &p->drops, &p->overlimits) == 4)
		p->has_stats = 1;
}

/* The end of the block that starts at s: the next line that starts with
 * "filter ", or the end of the text. */
static const char *block_end(const char *s)
{
	const char *n = s;
	while ((n = strchr(n, '\n')) != NULL) {
		n++;
		if (!strncmp(n, "filter ", 7))
			return n;
	}
	return s + strlen(s);
}

int qdisc_police_parse(const char *text, struct qdisc_police *p, int cap)
{
	const char *s = text, *e, *q, *eol;
	int n = 0, before = 0; /* filters (not headers) seen before s */
	if (!text)
		return 0;
	while (*s) {
		struct qdisc_police head;
		int inst = 0;
		e = block_end(s);
		memset(&head, 0, sizeof head);
		if (!strncmp(s, "filter ", 7)) {
			char line[512];
			eol = strchr(s, '\n');
			if (!eol || eol > e)
				eol = e;
			filter_line(s, eol, &head);
			head.all = matches_all(head.cls, s, e);
			head.first = before == 0;
			/* A filter, not its group's header or a u32 hash
			 * table ("fh 800:"): a handle, or a u32 node. */
			snprintf(line, sizeof line, "%.*s", (int)(eol - s), s);
			inst = strstr(line, " handle ") || strstr(line, "::");
		}
		for (q = strstr(s, "police 0x"); q && q < e;
		     q = strstr(q + 9, "police 0x")) {
			if (n < cap) {
				const char *f = strchr(q + 7, ' ');
				p[n] = head;
				police_fields(f ? f : q + 9, e, &p[n]);
			}
			n++;
		}
		before += inst;
		s = e;
	}
	return n;
}

int qdisc_police_limits(const struct qdisc_police *p, const char **why)
{
	const char *w = NULL;
	if (!p->all)
		w = "the filter does not match all traffic";
	else if (!p->first)
		w = "a filter before it may take some traffic first";
	else if (!(p->rate > 0))
		w = "no byte rate (avrate or pkts_rate only)";
	else if (strcmp(p->exceed, "drop") && strcmp(p->exceed, "reclassify"))
		w = "the exceed action does not drop";
	if (why)
		*why = w;
	return w == NULL;
}

int qdisc_police_fact(const struct qdisc_police *p, int n, struct buf *out)
{
	const struct qdisc_police *best = NULL;
	const char *why = NULL;
	buf_reset(out);
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (qdisc_police_limits(&p[i], NULL) &&
		    (!best || p[i].rate < best->rate))
			best = &p[i];
	if (best)
		buf_addf(out, "%.0f overhead %d linklayer %s: ", best->rate,
			 best->overhead, best->atm ? "atm" : "ethernet");
	else
		qdisc_police_limits(best = &p[0], &why);
	buf_addf(out, "%s%s protocol %s pref %u, exceed %s",
		 why ? "none: " : "", best->cls[0] ? best->cls : "?",
		 best->proto, best->pref, best->exceed[0] ? best->exceed : "?");
	if (why)
		buf_addf(out, ": %s", why);
	return out->truncated ? -1 : 0;
}
