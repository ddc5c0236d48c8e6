/* The engine descriptors: every engine in the table says what the rest of
 * xrun needs of it (default duration, programs, primary metric, its
 * parameters' JSON Schema), and schema/plan.schema.json and schema/plan.md
 * list exactly the table's engines and parameters: a row missing from
 * the schema, or a schema entry no engine has, fails here.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "tap.h"

/* engine keys every engine shares (plan_sections.c reads them) */
static const char *const fixed[] = {"type",	"client", "server",  "target",
				    "duration", "omit",	  "timeout", "run",
				    "metrics",	NULL};

static int is_fixed(const char *k)
{
	int i;
	for (i = 0; fixed[i]; i++)
		if (!strcmp(fixed[i], k))
			return 1;
	return 0;
}

static int nengines(void)
{
	int n = 0;
	while (engine_at(n))
		n++;
	return n;
}

static void test_fields(void)
{
	const struct engine_ops *e;
	int i;
	ok(nengines() >= 2, "%d engines", nengines());
	for (i = 0; (e = engine_at(i)); i++) {
		ok(e->desc.name && e->desc.name[0], "engine %d has a name", i);
		ok(engine_find(e->desc.name) == e, "%s: found by name",
		   e->desc.name);
		ok(e->desc.default_duration > 0, "%s: a default duration",
		   e->desc.name);
		ok(e->desc.check || e->desc.has_param, "%s: checks its params",
		   e->desc.name);
		ok(!e->primary_metric == !e->primary_unit,
		   "%s: primary metric and unit together", e->desc.name);
		ok(e->primary_metric || e->desc.reads_run,
		   "%s: a primary metric, or the plan's metrics name it",
		   e->desc.name);
		ok(e->programs || e->desc.reads_run,
		   "%s: programs to check before a run", e->desc.name);
		ok(e->build_argv && e->open && e->run && e->close,
		   "%s: every operation", e->desc.name);
	}
}

/* Each engine's parameters against the schema's engine properties. */
static void test_params(json_t *props)
{
	const struct engine_ops *e;
	const char *key, *frag;
	json_t *v;
	int i, k;
	for (i = 0; (e = engine_at(i)); i++)
		for (k = 0;
		     e->param_schema && (key = e->param_schema(k, &frag));
		     k++) {
			json_t *want = json_loads(frag, 0, NULL);
			json_t *got = json_object_get(props, key);
			const char *fk;
			json_t *fv;
			int same = got != NULL && want != NULL;
			ok(e->desc.has_param && e->desc.has_param(key),
			   "%s: has_param(%s)", e->desc.name, key);
			json_object_foreach(want, fk, fv) same =
			    same && json_equal(json_object_get(got, fk), fv);
			ok(same, "%s: parameter '%s' in the schema as %s",
			   e->desc.name, key, frag);
			json_decref(want);
		}
	/* and every non-fixed property is some engine's parameter */
	json_object_foreach(props, key, v)
	{
		int has = is_fixed(key);
		for (i = 0; !has && (e = engine_at(i)); i++)
			has = e->desc.has_param && e->desc.has_param(key);
		ok(has, "schema engine property '%s' is an engine's", key);
	}
}

static void test_schema(const char *src)
{
	struct buf path = BUF_INIT;
	json_error_t jerr;
	json_t *root, *eng, *props, *en, *x;
	size_t j;
	int i, n = nengines();

	buf_addf(&path, "%s/schema/plan.schema.json", src);
	root = json_load_file(path.s, 0, &jerr);
	ok(root != NULL, "read %s: %s", path.s, root ? "" : jerr.text);
	if (!root)
		return;
	eng = json_object_get(json_object_get(root, "$defs"), "engine");
	props = json_object_get(eng, "properties");
	en = json_object_get(json_object_get(props, "type"), "enum");
	ok(json_is_array(en), "engine.type has an enum");
	is_int((long long)json_array_size(en), n, "as many engines as rows");
	for (i = 0; i < n; i++) {
		int found = 0;
		json_array_foreach(en, j, x) found |=
		    json_is_string(x) &&
		    !strcmp(json_string_value(x), engine_at(i)->desc.name);
		ok(found, "engine '%s' in the schema's enum",
		   engine_at(i)->desc.name);
	}
	json_array_foreach(en, j, x)
	    ok(engine_find(json_string_value(x)) != NULL,
	       "schema engine '%s' is in the table", json_string_value(x));
	test_params(props);
	json_decref(root);
	buf_release(&path);
}

/* schema/plan.md's engine table lists each engine as `name`. */
static void test_doc(const char *src)
{
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	const char *row;
	int i;
	buf_addf(&path, "%s/schema/plan.md", src);
	ok(buf_read_file(&doc, path.s, 1 << 22) == 0, "read %s", path.s);
	row = doc.s ? strstr(doc.s, "| `type` |") : NULL;
	ok(row != NULL, "plan.md has the engine type row");
	for (i = 0; row && engine_at(i); i++) {
		const char *eol = strchr(row, '\n');
		buf_reset(&want);
		buf_addf(&want, "`%s`", engine_at(i)->desc.name);
		ok(strstr(row, want.s) && strstr(row, want.s) < eol,
		   "plan.md's type row names %s", want.s);
	}
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
}

int main(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	if (!src)
		src = XRUN_SOURCE_DIR;
	tap_plan(120);
	test_fields();
	test_schema(src);
	test_doc(src);
	return tap_done();
}
