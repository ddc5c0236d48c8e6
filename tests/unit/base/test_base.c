/* Unit tests for the shared helpers of runner/base: suggest.c (did you
 * mean), utf8.c (the one decoder) and kv.c ("key: value" lines).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "kv.h"
#include "suggest.h"
#include "tap.h"
#include "utf8.h"

static const char *sug(const char *word, const char *const *names)
{
	size_t n = 0;
	while (names[n])
		n++;
	return suggest(word, names, n);
}

static void test_suggest(void)
{
	static const char *const cmds[] = {
	    "run", "plan", "validate", "status", "report", "lab", NULL};
	static const char *const orders[] = {"abba", "random", "sequential",
					     NULL};
	static const char *const keys[] = {"levels", "apply", "restore", NULL};
	static const char *const ja[] = {"\xe9\x80\x9f\xe3\x81\x84",
					 "\xe9\x81\x85\xe3\x81\x84", NULL};
	static const char *const one[] = {"a", NULL};
	static const char *const params[] = {"parallel", "congestion", NULL};
	struct suggest s;
	size_t i;

	is_str(sug("reprot", cmds), "report", "two edits in a long word");
	is_str(sug("rn", cmds), "run", "one edit in a short word");
	ok(sug("plna", cmds) == NULL, "two edits in a short word: none");
	ok(sug("abab", orders) == NULL, "a swap is two edits");
	is_str(sug("RANDOM", orders), "random", "case only is one edit");
	is_str(sug("Random", orders), "random", "ASCII case folded");
	is_str(sug("levles", keys), "levels", "levles");
	is_str(sug("restor", keys), "restore", "restor");
	ok(sug("b", one) == NULL, "replacing every letter is no typo");
	ok(sug("levels", keys) == NULL, "an exact match is no suggestion");
	ok(sug("zzzzzzzz", keys) == NULL, "nothing close");
	/* one edit in a two-character Japanese word, not three bytes */
	is_str(sug("\xe9\x80\x9f\xe3\x82\x81", ja), ja[0], "code points");
	ok(sug("congestion_control", params) == NULL,
	   "leading word off by default");

	suggest_init(&s, "congestion_control", SUGGEST_LEADING_WORD);
	for (i = 0; params[i]; i++)
		suggest_add(&s, params[i]);
	is_str(suggest_best(&s), "congestion", "leading word");
	suggest_init(&s, "para", SUGGEST_LEADING_WORD);
	suggest_add(&s, "para-x");
	ok(suggest_best(&s) == NULL, "leading word is of the name, not word");

	/* first of equals wins; NULL names are skipped */
	suggest_init(&s, "cat", 0);
	suggest_add(&s, NULL);
	suggest_add(&s, "bat");
	suggest_add(&s, "cap");
	is_str(suggest_best(&s), "bat", "first on a tie");
	suggest_add(&s, "cat ");
	is_str(suggest_best(&s), "bat", "a later name at the same distance");

	/* too many names: no hint */
	suggest_init(&s, "levles", 0);
	suggest_add(&s, "levels");
	for (i = 0; i < SUGGEST_MAX_NAMES; i++)
		suggest_add(&s, "x");
	ok(suggest_best(&s) == NULL, "over SUGGEST_MAX_NAMES: none");
	ok(suggest("", keys, 3) == NULL, "empty word");
	ok(suggest(NULL, keys, 3) == NULL, "NULL word");
}

/* suggest_distance and suggest_nearest: the distances by hand. */
static void test_nearest(void)
{
	const char *out[4];
	/* nic.ethtool.rx_pasue against three series a host sampled:
	 * rx_pause: 's','u' swapped = 2 edits (replace both); rx_packets:
	 * "sue" -> "ckets" = s->c, u->k, e, +t, +s = 4; nic.rx_bytes: over
	 * 8 deletions ("ethtool.") alone, so last */
	const char *sampled[] = {"nic.rx_bytes", "nic.ethtool.rx_packets",
				 "nic.ethtool.rx_pause", "cpu.0.busy",
				 "nic.ethtool.rx_pause"};
	/* a NIC with the counter under a longer name: it holds "rx_pause",
	 * 9 edits ("_ctrl_phy" added), and comes before rx_packets (4) */
	const char *other[] = {"nic.ethtool.rx_packets",
			       "nic.ethtool.rx_pause_ctrl_phy", "nic.rx_bytes"};
	const char *ties[] = {"bat", "cap", "cat"};

	is_int(suggest_distance("kitten", "sitting"), 3,
	       "k->s, e->i, +g: 3 edits");
	is_int(suggest_distance("rx_pasue", "rx_pause"), 2, "a swap is 2");
	is_int(suggest_distance("rx_pause", "rx_packets"), 4,
	       "use -> ckets: 4 edits");
	is_int(suggest_distance("PAUSE", "pause"), 1, "case only: 1 edit");
	is_int(suggest_distance("", "abc"), 3, "from nothing: 3 inserts");
	is_int(suggest_distance("same", "same"), 0, "equal: 0");

	is_int((long long)suggest_nearest("nic.ethtool.rx_pasue", sampled, 5,
					  out, 3),
	       3, "three nearest of four names (one repeated)");
	is_str(out[0], "nic.ethtool.rx_pause", "nearest: 2 edits");
	is_str(out[1], "nic.ethtool.rx_packets", "then 4 edits");
	is_str(out[2], "nic.rx_bytes", "then the rest by edits");
	is_int((long long)suggest_nearest("nic.ethtool.rx_pause", other, 3, out,
					  2),
	       2, "k = 2 of three");
	is_str(out[0], "nic.ethtool.rx_pause_ctrl_phy",
	       "a name holding the last part first, at 9 edits");
	is_str(out[1], "nic.ethtool.rx_packets", "then fewest edits");
	is_int((long long)suggest_nearest("cat", ties, 3, out, 4), 2,
	       "the word itself is not its own nearest name");
	is_str(out[0], "bat", "ties keep the given order");
	is_str(out[1], "cap", "ties keep the given order (2)");
	is_int((long long)suggest_nearest("x", ties, 3, out, 0), 0, "k = 0");
}

static void test_utf8(void)
{
	uint32_t cp;
	size_t k;

	is_int((long long)utf8_decode("A", 1, &cp), 1, "ASCII length");
	is_int(cp, 'A', "ASCII");
	is_int((long long)utf8_decode("\xc2\xb5", 2, &cp), 2, "two bytes");
	is_int(cp, 0xb5, "U+00B5");
	is_int((long long)utf8_decode("\xe9\x80\x9f", 3, &cp), 3, "three");
	is_int(cp, 0x901f, "U+901F");
	is_int((long long)utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4, "four");
	is_int(cp, 0x1f600, "U+1F600");
	is_int((long long)utf8_decode("\xe9\x80\x9f", 2, &cp), 0, "cut by n");
	is_int((long long)utf8_decode("\xe9\x80", SIZE_MAX, &cp), 0,
	       "cut by NUL");
	is_int((long long)utf8_decode("\x80", 1, &cp), 0, "stray continuation");
	is_int(cp, 0x80, "cp of a bad byte is the byte");
	is_int((long long)utf8_decode("\xc0\xaf", 2, &cp), 0, "overlong C0");
	is_int((long long)utf8_decode("\xe0\x80\xaf", 3, &cp), 0,
	       "overlong E0");
	is_int((long long)utf8_decode("\xed\xa0\x80", 3, &cp), 0, "surrogate");
	is_int((long long)utf8_decode("\xf4\x90\x80\x80", 4, &cp), 0,
	       "past U+10FFFF");
	is_int((long long)utf8_decode("\xf5\x80\x80\x80", 4, &cp), 0,
	       "F5 lead");
	is_int((long long)utf8_decode("\xe9"
				      "ab",
				      3, &cp),
	       0, "lead without continuation");
	is_int((long long)utf8_decode("", 0, &cp), 0, "n = 0");

	k = utf8_next("\xe9"
		      "ab",
		      3, &cp);
	ok(k == 1 && cp == 0xe9, "utf8_next: a bad byte is one character");
	ok(utf8_next("x", 0, &cp) == 0, "utf8_next: n = 0");
	k = utf8_next("\xe3\x81\x82x", SIZE_MAX, &cp);
	ok(k == 3 && cp == 0x3042, "utf8_next: a good sequence");
}

/* Control characters from a command, as the terminal is shown them
 * (utf8_term_escape): input, flags, expected. */
static const struct {
	const char *in;
	size_t n;
	unsigned flags;
	const char *want, *what;
} term_cases[] = {
    {"\x1b]0;owned\x07", 10, 0, "\\x1b]0;owned\\x07",
     "window title (OSC ... BEL)"},
    {"\x1b[2J\x1b[H", 7, 0, "\\x1b[2J\\x1b[H", "screen clear, cursor home"},
    {"50%\rok", 6, 0, "50%\\x0dok", "CR"},
    {"a\nb", 3, 0, "a\\x0ab", "LF in one line"},
    {"a\nb", 3, UTF8_TERM_KEEP_LF, "a\nb", "LF kept when asked"},
    {"a\tb", 3, 0, "a\tb", "TAB kept"},
    {"\x7f", 1, 0, "\\x7f", "DEL"},
    {"\xc2\x9b"
     "31m",
     5, 0,
     "\\x9b"
     "31m",
     "C1 CSI in UTF-8"},
    {"\x9b"
     "31m",
     4, 0,
     "\\x9b"
     "31m",
     "a raw C1 byte (ill-formed)"},
    {"\xe9t\xe9", 3, 0, "\\xe9t\\xe9", "Latin-1 bytes"},
    {"\xe9\x80\x9f \xc2\xb5s \xe3\x81\x82", 11, 0,
     "\xe9\x80\x9f \xc2\xb5s \xe3\x81\x82", "UTF-8 kept (CJK, micro sign)"},
    {"a\0b", 3, 0, "a\\x00b", "NUL inside"},
    {"C:\\dir", 6, 0, "C:\\dir", "a backslash stays"},
    {"", 0, 0, "", "empty"},
};

static void test_term(void)
{
	struct buf b = BUF_INIT;
	size_t i;
	for (i = 0; i < sizeof term_cases / sizeof term_cases[0]; i++) {
		buf_reset(&b);
		is_int(utf8_term_escape(&b, term_cases[i].in, term_cases[i].n,
					term_cases[i].flags),
		       0, term_cases[i].what);
		is_str(b.s, term_cases[i].want, term_cases[i].what);
	}
	is_str(utf8_term(&b, "x\x1b[Ky"), "x\\x1b[Ky", "utf8_term: one line");
	is_str(utf8_term(&b, NULL), "", "utf8_term: NULL");
	buf_release(&b);
}

static void test_kv(void)
{
	struct buf b = BUF_INIT;
	const char *cpuinfo = "processor\t: 0\n"
			      "model name\t: Xeon  E5 \r\n"
			      "MemTotal:       16384 kB\n"
			      "device:\n"
			      "devtype: \n"
			      "driver: ixgbe";

	ok(kv_get(cpuinfo, "model name", &b), "blanks before ':'");
	is_str(b.s, "Xeon  E5", "value trimmed, inner blanks kept, CR gone");
	ok(kv_get(cpuinfo, "MemTotal", &b), "no blank before ':'");
	is_str(b.s, "16384 kB", "MemTotal");
	ok(kv_get(cpuinfo, "driver", &b), "last line without newline");
	is_str(b.s, "ixgbe", "driver");
	ok(kv_get(cpuinfo, "device", &b) && b.len == 0, "empty value found");
	ok(kv_get(cpuinfo, "devtype", &b) && b.len == 0, "blank value");
	buf_reset(&b);
	buf_adds(&b, "kept");
	ok(!kv_get(cpuinfo, "model", &b), "a key is the whole name");
	is_str(b.s, "kept", "out untouched when not found");
	ok(!kv_get(cpuinfo, "dev", &b), "prefix of a key is no key");
	ok(!kv_get(cpuinfo, "processor 0", &b), "no colon: no match");
	ok(!kv_get(NULL, "x", &b), "NULL text");
	ok(!kv_get("x", "x", &b), "a key without ':'");
	buf_release(&b);
}

int main(void)
{
	test_suggest();
	test_nearest();
	test_utf8();
	test_term();
	test_kv();
	return tap_done();
}
