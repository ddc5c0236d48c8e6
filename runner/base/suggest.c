/*
 * Did-you-mean suggestions (the rule is in suggest.h): Levenshtein
 * distance over code points, ASCII case folded, and one threshold for
 * every caller.
 *
 * SPDX-License-Identifier: MIT
 */
#include "suggest.h"

#include <limits.h>
#include <string.h>

#include "utf8.h"

#include "banned.h"

/* What folded_chars() returns for a word it will not match: not an error,
 * one more "no suggestion" (callers test <= 0). */
#define TOO_LONG (-1)

/* Code points of s, ASCII letters in lower case; TOO_LONG when longer
 * than SUGGEST_MAX_CHARS. */
static int folded_chars(const char *s, uint32_t *cp)
{
	size_t i = 0, len = strlen(s);
	int n = 0;

	while (i < len) {
		uint32_t c;
		i += utf8_next(s + i, len - i, &c);
		if (n == SUGGEST_MAX_CHARS)
			return TOO_LONG;
		cp[n++] = c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
	}
	return n;
}

/* Edits (insert, delete, replace) between a and b: Levenshtein. */
static unsigned distance(const uint32_t *a, int la, const uint32_t *b, int lb)
{
	unsigned row[SUGGEST_MAX_CHARS + 1];
	int i, j;

	for (j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned d = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			diag = up;
			row[j] = d;
		}
	}
	return row[lb];
}

/* Is name a word of its own at the start of the word ("congestion" in
 * "congestion_control")? */
static int leading_word(const char *word, const char *name)
{
	size_t ln = strlen(name);
	return ln >= 4 && strncmp(word, name, ln) == 0 &&
	       (word[ln] == '_' || word[ln] == '-') && word[ln + 1];
}

void suggest_init(struct suggest *s, const char *word, unsigned flags)
{
	memset(s, 0, sizeof *s);
	s->word = word ? word : "";
	s->flags = flags;
	s->lw = folded_chars(s->word, s->w);
	if (s->lw > 0) {
		/* one typo in short words, up to a third of the letters in
		 * long ones */
		s->limit = s->lw <= 4 ? 1 : (unsigned)s->lw / 3 + 1;
		if (s->limit > 3)
			s->limit = 3;
	}
	s->best_d = s->limit + 1;
}

void suggest_add(struct suggest *s, const char *name)
{
	uint32_t c[SUGGEST_MAX_CHARS];
	unsigned d;
	int lc;

	if (++s->n > SUGGEST_MAX_NAMES || s->lw <= 0 || !name)
		return;
	if ((s->flags & SUGGEST_LEADING_WORD) && leading_word(s->word, name)) {
		d = 1;
	} else {
		if ((lc = folded_chars(name, c)) <= 0)
			return;
		d = distance(s->w, s->lw, c, lc);
		if (d == 0 && strcmp(s->word, name) != 0)
			d = 1; /* differs in case only */
	}
	/* replacing every letter ('b' for 'a') is no typo */
	if (d > 0 && d <= s->limit && d < (unsigned)s->lw && d < s->best_d) {
		s->best_d = d;
		s->best = name;
	}
}

const char *suggest_best(const struct suggest *s)
{
	return s->n > SUGGEST_MAX_NAMES ? NULL : s->best;
}

const char *suggest(const char *word, const char *const *names, size_t n)
{
	struct suggest s;
	size_t i;

	if (n > SUGGEST_MAX_NAMES)
		return NULL; /* a hint is not worth a quadratic load */
	suggest_init(&s, word, 0);
	for (i = 0; i < n; i++)
		suggest_add(&s, names[i]);
	return suggest_best(&s);
}

unsigned suggest_distance(const char *a, const char *b)
{
	uint32_t ca[SUGGEST_MAX_CHARS], cb[SUGGEST_MAX_CHARS];
	int la = folded_chars(a ? a : "", ca),
	    lb = folded_chars(b ? b : "", cb);
	unsigned d;
	if (la < 0 || lb < 0)
		return UINT_MAX;
	d = distance(ca, la, cb, lb);
	if (d == 0 && strcmp(a ? a : "", b ? b : ""))
		d = 1; /* differs in case only */
	return d;
}

/* The ranking key of suggest_nearest: a name holding the word's last
 * dotted part sorts before any other, then by edits. */
static unsigned long long nearest_key(const char *word, const char *tail,
				      const char *name)
{
	unsigned d = suggest_distance(word, name);
	int holds = *tail && strstr(name, tail) != NULL;
	return ((unsigned long long)!holds << 32) | d;
}

size_t suggest_nearest(const char *word, const char *const *names, size_t n,
		       const char **out, size_t k)
{
	unsigned long long key[8];
	const char *tail;
	size_t i, j, got = 0;
	if (!word || k == 0)
		return 0;
	if (k > 8)
		k = 8;
	tail = strrchr(word, '.');
	tail = tail ? tail + 1 : word;
	for (i = 0; i < n && i < SUGGEST_MAX_NAMES; i++) {
		unsigned long long kk;
		if (!names[i] || !strcmp(names[i], word))
			continue;
		for (j = 0; j < got; j++)
			if (!strcmp(out[j], names[i]))
				break;
		if (j < got)
			continue;
		kk = nearest_key(word, tail, names[i]);
		if (got == k && kk >= key[got - 1])
			continue;
		/* insert after every key <= kk: ties keep the given order */
		j = got < k ? got++ : got - 1;
		while (j > 0 && key[j - 1] > kk) {
			key[j] = key[j - 1];
			out[j] = out[j - 1];
			j--;
		}
		key[j] = kk;
		out[j] = names[i];
	}
	return got;
}
