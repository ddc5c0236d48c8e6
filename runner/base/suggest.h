/*
 * "Did you mean": the known name closest to a word that is none of them,
 * for every message about an unknown command, key, parameter, factor,
 * level, host or placeholder.
 *
 * The rule, the same everywhere:
 *  - distance is the number of edits (insert, delete, replace) between
 *    code points, so a typo in a Japanese level is one edit, not three;
 *    two swapped letters are two edits ('abab' is not 'abba');
 *  - ASCII letters compare without case, and a difference in case only
 *    counts as one edit ('RANDOM' suggests 'random');
 *  - a name counts when its distance is at most 1 for words of up to four
 *    characters, else a third of the word's length plus one, at most 3;
 *    and when fewer edits than the word has characters ('b' never
 *    suggests 'a');
 *  - with SUGGEST_LEADING_WORD, a name of four or more characters
 *    followed in the word by '_' or '-' and more is one edit
 *    ('congestion_control' suggests 'congestion'); only for closed lists
 *    (iperf3 parameters), where the longer word can be no other name;
 *  - the closest name wins, the first one on a tie; words or names over
 *    SUGGEST_MAX_CHARS characters are never matched, and a list of more
 *    than SUGGEST_MAX_NAMES names gets no suggestion (not worth the time).
 *
 * Usage, for names held in a table of structs:
 *	struct suggest s;
 *	suggest_init(&s, word, 0);
 *	for (i = 0; i < n; i++)
 *		suggest_add(&s, table[i].name);
 *	best = suggest_best(&s);	(NULL: nothing close)
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SUGGEST_H
#define XR_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#define SUGGEST_MAX_CHARS 64
#define SUGGEST_MAX_NAMES 5000

/* Flags of suggest_init. */
#define SUGGEST_LEADING_WORD 1u

struct suggest {
	/* Private. */
	const char *word;
	unsigned flags;
	uint32_t w[SUGGEST_MAX_CHARS];
	int lw;		  /* characters in w; -1 when no match is possible */
	unsigned limit;	  /* most edits that still count */
	unsigned best_d;  /* edits of best */
	const char *best; /* borrowed from the caller */
	size_t n;	  /* names seen */
};

/* word is borrowed until the last suggest_add/suggest_best; flags are
 * 0 or SUGGEST_LEADING_WORD. */
void suggest_init(struct suggest *s, const char *word, unsigned flags);
/* Consider one known name (borrowed; NULL is skipped). */
void suggest_add(struct suggest *s, const char *name);
/* The closest name added, or NULL. */
const char *suggest_best(const struct suggest *s);

/* The closest of names[0..n) to word, or NULL (no flags). */
const char *suggest(const char *word, const char *const *names, size_t n);

/* Edits between a and b by the rule above (code points, ASCII letters
 * without case, a difference in case only one edit); UINT_MAX when either
 * is over SUGGEST_MAX_CHARS characters. */
unsigned suggest_distance(const char *a, const char *b);

/*
 * The "nearest existing names" of a name that got nothing (a declared
 * metric or series without values): up to k of names[0..n) into out,
 * nearest first, at any distance (the caller lists them; it does not
 * guess one). A name that holds the word's last dotted part
 * ("rx_pause" of "nic.ethtool.rx_pause") comes before every name that
 * does not (a NIC's counter under a longer name); then fewer edits
 * first, then the order given. Names equal to word, NULL or repeated are
 * skipped. Returns how many were put in out.
 */
size_t suggest_nearest(const char *word, const char *const *names, size_t n,
		       const char **out, size_t k);

#endif
