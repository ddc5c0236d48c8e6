/* The words of `order:` and `counters:` (plan_choice.c): their tables,
 * the loader's bits, and schema/plan.md and schema/plan.schema.json
 * naming exactly the orders of PLAN_ORDER_MAP.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "plan.h"
#include "tap.h"

static void joined(const char *const *names, const char *fmt, const char *sep,
		   struct buf *out)
{
	buf_reset(out);
	for (int i = 0; names[i]; i++) {
		if (i)
			buf_adds(out, sep);
		buf_addf(out, fmt, names[i]);
	}
}

static void test_tables(void)
{
	struct buf b = BUF_INIT;
	unsigned bits = 99;
	joined(plan_order_names, "%s", ",", &b);
	is_str(b.s, "abba,random,sequential", "the orders");
	is_int(plan_order_find("random"), PLAN_ORDER_RANDOM, "find random");
	is_int(plan_order_find("ABBA"), -1, "case matters");
	is_int(plan_order_find(NULL), -1, "no name");
	is_str(plan_order_name(PLAN_ORDER_SEQUENTIAL), "sequential", "name");
	is_str(plan_order_name((enum plan_order)7), "abba",
	       "outside the table: the default's");
	joined(plan_counters_choices, "%s", ",", &b);
	is_str(b.s, "nic,tcp,cpu,capture,all,none", "counters' words");
	is_int(plan_counters_word("tcp", &bits), 0, "tcp");
	is_int(bits, PLAN_COUNTER_TCP, "tcp's bit: 2");
	is_int(PLAN_COUNTER_TCP, 2, "1 << 1");
	is_int(plan_counters_word("all", &bits), 0, "all");
	is_int(bits, 15, "all: nic|tcp|cpu|capture = 1+2+4+8");
	is_int(plan_counters_word("none", &bits), 0, "none");
	is_int(bits, 0, "none: 0");
	is_int(plan_counters_word("disk", &bits), -1, "disk");
	buf_release(&b);
}

static void test_docs(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	struct buf row = BUF_INIT;
	json_t *root, *e;

	buf_addf(&path, "%s/schema/plan.md", src ? src : XRUN_SOURCE_DIR);
	ok(buf_read_file(&doc, path.s, 1 << 22) == 0, "read plan.md");
	joined(plan_order_names, "`%s`", " \\| ", &row);
	buf_addf(&want, "| `order` | %s | `%s` |", row.s, plan_order_names[0]);
	ok(doc.s && strstr(doc.s, want.s), "plan.md's row: %s", want.s);
	for (int i = 0; plan_order_names[i]; i++) {
		buf_reset(&want);
		buf_addf(&want, "\n#### `order: %s`", plan_order_names[i]);
		ok(doc.s && strstr(doc.s, want.s), "plan.md has %s",
		   want.s + 1);
	}
	/* and no heading of an order the table lacks */
	for (const char *p = doc.s; p && (p = strstr(p, "\n#### `order: "));
	     p++) {
		char word[32];
		size_t n = strcspn(p + 14, "`");
		snprintf(word, sizeof word, "%.*s", (int)n, p + 14);
		ok(plan_order_find(word) >= 0, "plan.md's order %s is a row",
		   word);
	}
	buf_reset(&path);
	buf_addf(&path, "%s/schema/plan.schema.json",
		 src ? src : XRUN_SOURCE_DIR);
	root = json_load_file(path.s, 0, NULL);
	e = json_object_get(
	    json_object_get(json_object_get(root, "properties"), "order"),
	    "enum");
	buf_reset(&doc);
	for (size_t i = 0; i < json_array_size(e); i++)
		buf_addf(&doc, "%s%s", i ? "," : "",
			 json_string_value(json_array_get(e, i)));
	joined(plan_order_names, "%s", ",", &want);
	is_str(doc.s, want.s, "plan.schema.json's order enum");
	json_decref(root);
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
	buf_release(&row);
}

int main(void)
{
	test_tables();
	test_docs();
	return tap_done();
}
