/* The counter group, scope and series name tables against the docs:
 * schema/plan.md's `counters` row and "### counters" section,
 * schema/plan.schema.json's counters enum, schema/store.md's counters
 * scopes and series names. Each side must name exactly what the other
 * does; the names themselves are written out here too, so a renamed row
 * is a change a reviewer sees.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counter_group.h"
#include "series_name.h"
#include "tap.h"

static void read_doc(struct buf *doc, const char *rel)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT;
	buf_addf(&path, "%s/%s", src ? src : XRUN_SOURCE_DIR, rel);
	buf_reset(doc);
	ok(buf_read_file(doc, path.s, 1 << 22) == 0, "read %s", rel);
	buf_release(&path);
}

/* Lines joined with a space, as a paragraph reads. */
static void unfold(struct buf *doc)
{
	for (char *p = doc->s; p && *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* The backquoted words of s..e followed by tail ("` (" for "`nic` ("),
 * as "a,b,c". */
static void quoted(const char *s, const char *e, const char *tail,
		   struct buf *out)
{
	size_t tl = strlen(tail);
	buf_reset(out);
	for (const char *p = s; p && p < e; p++) {
		const char *q;
		if (*p != '`' || !(q = strchr(p + 1, '`')) || q >= e)
			continue;
		if (!strncmp(q, tail, tl))
			buf_addf(out, "%s%.*s", out->len ? "," : "",
				 (int)(q - p - 1), p + 1);
		p = q;
	}
}

static void table_names(struct buf *out)
{
	buf_reset(out);
	for (int g = 0; g < COUNTER_GROUP_COUNT; g++)
		buf_addf(out, "%s%s", g ? "," : "", counter_group_name(g));
}

static void test_table(void)
{
	struct buf b = BUF_INIT;
	table_names(&b);
	is_str(b.s, "nic,tcp,cpu,capture", "the groups, in bit order");
	buf_reset(&b);
	for (int g = 0; g < COUNTER_GROUP_COUNT; g++)
		buf_adds(&b, counter_group_letter(g));
	is_str(b.s, "ntcp", "their letters (the far scripts' $2)");
	is_int(COUNTER_GROUP_ALL, 15, "all: 1|2|4|8");
	is_int(counter_group_find("cpu"), COUNTER_GROUP_CPU, "find cpu");
	is_int(counter_group_find("all"), -1, "all is no group");
	is_int(counter_group_find(NULL), -1, "no name");
	ok(counter_group_name(COUNTER_GROUP_COUNT) == NULL, "out of range");
	is_int(counter_group_os(COUNTER_GROUP_CPU),
	       COUNTER_OS_LINUX | COUNTER_OS_WINDOWS,
	       "cpu: no macOS snapshot reader (top samples it: mactop.c)");
	buf_reset(&b);
	for (int sc = 0; sc < COUNTER_SCOPE_COUNT; sc++)
		buf_addf(
		    &b, "%s%s=%s:%s", sc ? "," : "", counter_scope_name(sc),
		    counter_group_name(counter_scope_group(sc)),
		    counter_scope_series(sc) ? counter_scope_series(sc) : "-");
	is_str(b.s,
	       "nic=nic:nic.,ethtool=nic:nic.ethtool.,tcp=tcp:tcp.,"
	       "udp=tcp:udp.,softirq=cpu:softirq.,capture=capture:-,"
	       "qdisc=nic:qdisc.,cpu=cpu:cpu.",
	       "scopes: their group and series prefix");
	is_int(counter_scope_find("qdisc"), COUNTER_SCOPE_QDISC, "find qdisc");
	is_int(counter_scope_find("engine"), -1, "engine is no scope");
	buf_release(&b);
}

/* schema/plan.md: the keys table's row and the section's "`name` (doc)". */
static void test_plan_md(void)
{
	struct buf doc = BUF_INIT, want = BUF_INIT, got = BUF_INIT;
	const char *sec, *end;
	read_doc(&doc, "schema/plan.md");
	buf_adds(&want, "| `counters` | list of ");
	for (int g = 0; g < COUNTER_GROUP_COUNT; g++)
		buf_addf(&want, "`%s`, ", counter_group_name(g));
	buf_adds(&want, "or `all` / `none` | all four |");
	ok(doc.s && strstr(doc.s, want.s), "plan.md's row: %s", want.s);
	is_int(COUNTER_GROUP_COUNT, 4, "\"all four\" is the table's count");

	unfold(&doc);
	sec = doc.s ? strstr(doc.s, "### counters ") : NULL;
	end = sec ? strstr(sec + 1, "### ") : NULL;
	ok(sec && end, "plan.md has a ### counters section");
	for (int g = 0; sec && end && g < COUNTER_GROUP_COUNT; g++) {
		buf_reset(&want);
		/* the whole text, to its closing parenthesis: a shortened
		 * row is a difference too */
		buf_addf(&want, "`%s` (%s)", counter_group_name(g),
			 counter_group_doc(g));
		const char *hit = strstr(sec, want.s);
		ok(hit && hit < end, "### counters says %s", want.s);
	}
	quoted(sec, end, "` (", &got);
	table_names(&want);
	buf_adds(&want, ",all"); /* "`all` (default) or `none`" */
	is_str(got.s, want.s, "### counters names the groups and all");
	buf_release(&doc);
	buf_release(&want);
	buf_release(&got);
}

/* schema/plan.schema.json: both enums are all, none and the groups. */
static void test_schema_json(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT, want = BUF_INIT, got = BUF_INIT;
	json_t *root, *c;
	buf_addf(&path, "%s/schema/plan.schema.json",
		 src ? src : XRUN_SOURCE_DIR);
	root = json_load_file(path.s, 0, NULL);
	c = json_object_get(json_object_get(root, "properties"), "counters");
	buf_adds(&want, "all,none,");
	for (int g = 0; g < COUNTER_GROUP_COUNT; g++)
		buf_addf(&want, "%s%s", g ? "," : "", counter_group_name(g));
	for (int k = 0; k < 2; k++) {
		json_t *one = json_array_get(json_object_get(c, "oneOf"), k);
		json_t *e = json_object_get(
		    k ? json_object_get(one, "items") : one, "enum");
		buf_reset(&got);
		for (size_t i = 0; i < json_array_size(e); i++)
			buf_addf(&got, "%s%s", i ? "," : "",
				 json_string_value(json_array_get(e, i)));
		is_str(got.s, want.s,
		       k ? "plan.schema.json counters list enum"
			 : "plan.schema.json counters word enum");
	}
	json_decref(root);
	buf_release(&path);
	buf_release(&want);
	buf_release(&got);
}

/* schema/store.md: the counters table's scopes, and every series the
 * reports read by name. */
static void test_store_md(void)
{
	struct buf doc = BUF_INIT, want = BUF_INIT, got = BUF_INIT;
	const char *sec, *end;
	read_doc(&doc, "schema/store.md");
	unfold(&doc);
	sec = doc.s ? strstr(doc.s, "`scope` (`") : NULL;
	end = sec ? strstr(sec, "), `name`") : NULL;
	ok(sec && end, "store.md's counters table says its scopes");
	/* each scope is "`name` " followed by its text or "`name`," */
	buf_reset(&got);
	for (const char *p = sec ? sec + 9 : NULL; p && p < end; p++) {
		const char *q;
		if (*p != '`')
			continue;
		if (!(q = strchr(p + 1, '`')) || q >= end)
			break;
		char word[32];
		snprintf(word, sizeof word, "%.*s", (int)(q - p - 1), p + 1);
		ok(counter_scope_find(word) >= 0,
		   "store.md's scope %s is a row", word);
		buf_addf(&got, "%s%s", got.len ? "," : "", word);
		p = q;
	}
	is_str(got.s, "nic,ethtool,tcp,udp,cpu,softirq,qdisc,capture",
	       "store.md's scopes");
	for (int sc = 0; sc < COUNTER_SCOPE_COUNT; sc++) {
		buf_reset(&want);
		buf_addf(&want, "`%s`", counter_scope_name(sc));
		const char *hit = sec ? strstr(sec, want.s) : NULL;
		ok(hit && hit < end, "store.md's scopes name %s", want.s);
	}
#define STORE_NAMES(name, scope, counter) name,
	static const char *const names[] = {SERIES_NAME_MAP(STORE_NAMES)};
#undef STORE_NAMES
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const char *d = strstr(names[i], "%d");
		buf_reset(&want);
		if (d)
			buf_addf(&want, "`%.*sN%s`", (int)(d - names[i]),
				 names[i], d + 2);
		else
			buf_addf(&want, "`%s`", names[i]);
		ok(doc.s && strstr(doc.s, want.s), "store.md names %s", want.s);
	}
	/* the engine's series, written by the engine and the sampler and
	 * read by explain by these constants */
	static const char *const engine[] = {
	    SERIES_ENGINE_THROUGHPUT,  SERIES_ENGINE_CPU,
	    SERIES_ENGINE_CORE,	       SERIES_ENGINE_SENDER_THROUGHPUT,
	    SERIES_ENGINE_RETRANSMITS, SERIES_ENGINE_SND_CWND,
	    SERIES_ENGINE_SND_WND,     SERIES_ENGINE_RTT,
	    SERIES_ENGINE_RTTVAR,
	};
	for (size_t i = 0; i < sizeof engine / sizeof *engine; i++) {
		buf_reset(&want);
		buf_addf(&want, "`%s`", engine[i]);
		ok(doc.s && strstr(doc.s, want.s), "store.md names %s", want.s);
	}
	buf_release(&doc);
	buf_release(&want);
	buf_release(&got);
}

int main(void)
{
	test_table();
	test_plan_md();
	test_schema_json();
	test_store_md();
	return tap_done();
}
