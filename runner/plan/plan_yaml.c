/*
 * The plan's YAML reader (see plan_yaml.h): libyaml events to a node tree
 * with positions, in the plan's arena. It is the line of defence against
 * hostile input: bytes that are not UTF-8, nesting past 64 levels, alias
 * bombs (aliases share nodes, but their expanded size is counted and
 * refused past PLAN_YAML_MAX_NODES) and duplicate keys. Everything here is
 * linear in the input so that a multi-megabyte file loads quickly.
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_yaml.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "arena.h"
#include "oom.h"
#include "utf8.h"
#include "banned.h"

struct frame {
	struct ynode *node;
	struct ynode **kids;
	size_t n, cap;
	const char *anchor;
};

struct anchor {
	const char *name;
	struct ynode *node;
};

struct reader {
	struct arena *a;
	struct xr_diag *d;
	struct frame stack[PLAN_YAML_MAX_DEPTH + 1];
	int depth;
	size_t expanded; /* nodes added by alias expansions */
	struct anchor *anchors;
	size_t nanchors, anchors_cap; /* open addressing, cap power of 2 */
	struct ynode *root;
	int failed;
	/* libyaml's mark.index counts characters; this cursor turns it
	 * into a byte offset in one forward walk over the text */
	const char *text;
	size_t len, cur_byte, cur_char;
};

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX / 4 - b ? SIZE_MAX / 4 : a + b;
}

static size_t hash_str(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static int anchor_put(struct reader *r, const char *name, struct ynode *n)
{
	size_t i, mask;
	if (r->nanchors * 2 >= r->anchors_cap) {
		size_t nc = r->anchors_cap ? r->anchors_cap * 2 : 64, k;
		struct anchor *na = calloc(nc, sizeof *na);
		if (!na)
			return -XR_ENOMEM;
		for (k = 0; k < r->anchors_cap; k++) {
			if (!r->anchors[k].name)
				continue;
			i = hash_str(r->anchors[k].name) & (nc - 1);
			while (na[i].name)
				i = (i + 1) & (nc - 1);
			na[i] = r->anchors[k];
		}
		free(r->anchors);
		r->anchors = na;
		r->anchors_cap = nc;
	}
	mask = r->anchors_cap - 1;
	i = hash_str(name) & mask;
	while (r->anchors[i].name && strcmp(r->anchors[i].name, name) != 0)
		i = (i + 1) & mask;
	if (!r->anchors[i].name) {
		r->anchors[i].name = name;
		r->nanchors++;
	}
	r->anchors[i].node = n; /* a redefined anchor replaces the old one */
	return 0;
}

static struct ynode *anchor_get(struct reader *r, const char *name)
{
	size_t i, mask;
	if (!r->anchors_cap)
		return NULL;
	mask = r->anchors_cap - 1;
	i = hash_str(name) & mask;
	while (r->anchors[i].name) {
		if (strcmp(r->anchors[i].name, name) == 0)
			return r->anchors[i].node;
		i = (i + 1) & mask;
	}
	return NULL;
}

static void fatal(struct reader *r, int line, int col, const char *msg,
		  const char *arg)
{
	xr_diag_add(r->d, 0, line, col, msg, arg);
	r->failed = 1;
}

/* Memory ran out at LINE:COL of the plan: said there and marked, so the
 * command ends with exit 3 and the stage (oom.h), not as a bad plan. */
static void nomem(struct reader *r, int line, int col)
{
	xr_oom_mark(r->d->file, line);
	fatal(r, line, col, "out of memory reading the plan%s", "");
}

/* Attach n (new, or aliased) to the open collection or make it the root. */
static int attach(struct reader *r, struct ynode *n, int line, int col)
{
	struct frame *f;
	if (r->expanded > PLAN_YAML_MAX_NODES) {
		fatal(r, line, col,
		      "aliases expand to more than %s nodes (alias bomb?); "
		      "write the values out or use fewer aliases",
		      "200000");
		return -XR_EYAML;
	}
	if (r->depth == 0) {
		r->root = n;
		return 0;
	}
	f = &r->stack[r->depth - 1];
	if (f->n == f->cap) {
		size_t nc = f->cap ? f->cap * 2 : 8;
		struct ynode **nk = realloc(f->kids, nc * sizeof *nk);
		if (!nk) {
			nomem(r, line, col);
			return -XR_ENOMEM;
		}
		f->kids = nk;
		f->cap = nc;
	}
	f->kids[f->n++] = n;
	return 0;
}

/* Byte offset of character index ci (events arrive in text order, so
 * the walk is linear; a step back restarts it). */
static size_t byte_at(struct reader *r, size_t ci)
{
	if (ci < r->cur_char)
		r->cur_byte = r->cur_char = 0;
	while (r->cur_char < ci && r->cur_byte < r->len) {
		uint32_t cp;
		r->cur_byte +=
		    utf8_next(r->text + r->cur_byte, r->len - r->cur_byte, &cp);
		r->cur_char++;
	}
	return r->cur_byte;
}

static struct ynode *new_node(struct reader *r, enum ynode_kind k,
			      const yaml_mark_t *m)
{
	struct ynode *n = arena_alloc(r->a, sizeof *n);
	if (!n)
		return NULL;
	n->kind = k;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	n->weight = 1;
	return n;
}

static int cmp_keyidx(const void *x, const void *y, void *ctx)
{
	struct ynode **kids = ctx;
	int a = *(const int *)x, b = *(const int *)y, c;
	c = strcmp(kids[2 * a]->s, kids[2 * b]->s);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

/*
 * Report duplicate and non-scalar keys of a closed mapping and drop those
 * pairs, so that later stages see each key once. Sorting keeps this
 * O(n log n) for maps with thousands of keys.
 */
static size_t check_keys(struct reader *r, struct ynode **kids, size_t npairs,
			 size_t nown)
{
	int *idx, k;
	char *drop;
	size_t i, out = 0;
	if (npairs == 0)
		return 0;
	idx = malloc(npairs * sizeof *idx);
	drop = calloc(npairs, 1);
	if (!idx || !drop) {
		free(idx);
		free(drop);
		return npairs;
	}
	k = 0;
	for (i = 0; i < npairs; i++) {
		if (kids[2 * i]->kind != YN_SCALAR) {
			xr_diag_add(r->d, 0, kids[2 * i]->line,
				    kids[2 * i]->col,
				    "a mapping key must be a scalar, not %s",
				    yn_kind_name(kids[2 * i]));
			drop[i] = 1;
		} else {
			idx[k++] = (int)i;
		}
	}
	qsort_r(idx, (size_t)k, sizeof *idx, cmp_keyidx, kids);
	for (i = 1; i < (size_t)k; i++) {
		struct ynode *a = kids[2 * idx[i - 1]], *b = kids[2 * idx[i]];
		if (strcmp(a->s, b->s) == 0) {
			/* idx[i-1] is the first occurrence of a run */
			size_t j = i;
			while (j > 0 &&
			       strcmp(kids[2 * idx[j - 1]]->s, b->s) == 0)
				j--;
			a = kids[2 * idx[j]];
			drop[idx[i]] = 1;
			if ((size_t)idx[i] >= nown)
				continue; /* a merged key the map overrides */
			xr_diag_add(r->d, 0, b->line, b->col,
				    "duplicate key '%s' (first at line %d, "
				    "column %d)",
				    b->s, a->line, a->col);
		}
	}
	for (i = 0; i < npairs; i++) {
		if (drop[i])
			continue;
		kids[2 * out] = kids[2 * i];
		kids[2 * out + 1] = kids[2 * i + 1];
		out++;
	}
	free(idx);
	free(drop);
	return out;
}

static int is_merge_key(const struct ynode *k)
{
	return k->kind == YN_SCALAR && k->plain && strcmp(k->s, "<<") == 0;
}

/*
 * YAML merge keys ("<<: *common" or "<<: [*a, *b]"): the map's own pairs
 * come first, then the merged ones; check_keys then drops merged keys the
 * map already has (own keys win, earlier sources win over later ones).
 * Returns the number of own pairs, or (size_t)-1 on OOM.
 */
static size_t merge_keys(struct reader *r, struct frame *f)
{
	size_t np = f->n / 2, i, j, k, nown = 0, total = 0;
	struct ynode **out;
	for (i = 0; i < np; i++) {
		struct ynode *v = f->kids[2 * i + 1];
		if (!is_merge_key(f->kids[2 * i])) {
			nown++;
			continue;
		}
		if (v->kind == YN_MAP) {
			total += (size_t)v->n;
		} else if (v->kind == YN_SEQ) {
			for (j = 0; j < (size_t)v->n; j++)
				if (v->kids[j]->kind == YN_MAP)
					total += (size_t)v->kids[j]->n;
		}
	}
	if (nown == np)
		return np;
	out = malloc((nown + total + 1) * 2 * sizeof *out);
	if (!out)
		return (size_t)-1;
	k = 0;
	for (i = 0; i < np; i++)
		if (!is_merge_key(f->kids[2 * i])) {
			out[k++] = f->kids[2 * i];
			out[k++] = f->kids[2 * i + 1];
		}
	for (i = 0; i < np; i++) {
		struct ynode *v = f->kids[2 * i + 1];
		size_t nsrc = v->kind == YN_SEQ ? (size_t)v->n : 1;
		if (!is_merge_key(f->kids[2 * i]))
			continue;
		for (j = 0; j < nsrc; j++) {
			struct ynode *m = v->kind == YN_SEQ ? v->kids[j] : v;
			size_t q;
			if (m->kind != YN_MAP) {
				xr_diag_add(
				    r->d, 0, m->line, m->col,
				    "'<<' merges a mapping or a list of "
				    "mappings (e.g. <<: *common), not "
				    "%s",
				    yn_kind_name(m));
				continue;
			}
			for (q = 0; q < (size_t)m->n; q++) {
				out[k++] = yn_key(m, (int)q);
				out[k++] = yn_val(m, (int)q);
			}
		}
	}
	free(f->kids);
	f->kids = out;
	f->n = k;
	f->cap = (nown + total + 1) * 2;
	return nown;
}

static int close_collection(struct reader *r)
{
	struct frame *f = &r->stack[--r->depth];
	struct ynode *n = f->node;
	size_t i, cnt = f->n, nown;
	/* the weight counts what aliases (merge sources too) expand to */
	for (i = 0; i < f->n; i++)
		n->weight = sat_add(n->weight, f->kids[i]->weight);
	if (n->kind == YN_MAP) {
		nown = merge_keys(r, f);
		if (nown == (size_t)-1) {
			nomem(r, n->line, n->col);
			return -XR_ENOMEM;
		}
		cnt = check_keys(r, f->kids, f->n / 2, nown) * 2;
	}
	if (cnt) {
		n->kids = arena_alloc(r->a, cnt * sizeof *n->kids);
		if (!n->kids) {
			nomem(r, n->line, n->col);
			return -XR_ENOMEM;
		}
		memcpy(n->kids, f->kids, cnt * sizeof *n->kids);
	}
	n->n = (int)(n->kind == YN_MAP ? cnt / 2 : cnt);
	free(f->kids);
	f->kids = NULL;
	/* Registered only when complete: an alias inside its own anchor
	 * would be a cycle, and is reported as undefined instead. */
	if (f->anchor && anchor_put(r, f->anchor, n) < 0) {
		nomem(r, n->line, n->col);
		return -XR_ENOMEM;
	}
	return attach(r, n, n->line, n->col);
}

static void syntax_error(struct reader *r, yaml_parser_t *ps, const char *text,
			 size_t len)
{
	const yaml_mark_t *m = &ps->problem_mark;
	int line = (int)m->line + 1, col = (int)m->column + 1;
	const char *problem = ps->problem ? ps->problem : "syntax error";
	if (ps->error == YAML_MEMORY_ERROR) {
		nomem(r, line, col);
		return;
	}
	if (ps->error == YAML_READER_ERROR) {
		/* offsets only; the UTF-8 pass has already said where,
		 * except for a control character (a NUL byte) in valid
		 * UTF-8: its byte offset gives line and column */
		size_t off = ps->problem_offset, i;
		line = 0;
		col = 0;
		if (off < len) {
			line = col = 1;
			for (i = 0; i < off; i++) {
				if (text[i] == '\n') {
					line++;
					col = 1;
				} else if (((unsigned char)text[i] & 0xC0) !=
					   0x80) {
					col++;
				}
			}
			if (text[off] == '\0') {
				xr_diag_add(r->d, 0, line, col,
					    "a NUL byte in the plan (a plan "
					    "is text)");
				r->failed = 1;
				return;
			}
		}
	}
	if (byte_at(r, m->index) < len && text[byte_at(r, m->index)] == '\t') {
		/* the commonest YAML mistake deserves a plain answer */
		xr_diag_add(r->d, 0, line, col,
			    "yaml syntax error: a tab character here (YAML "
			    "indents with spaces only)");
	} else if (ps->context)
		xr_diag_add(r->d, 0, line, col,
			    "yaml syntax error: %s (%s at line %d, column %d)",
			    problem, ps->context,
			    (int)ps->context_mark.line + 1,
			    (int)ps->context_mark.column + 1);
	else
		xr_diag_add(r->d, 0, line, col, "yaml syntax error: %s",
			    problem);
	r->failed = 1;
}

static int on_event(struct reader *r, yaml_event_t *ev, int *ndocs)
{
	struct ynode *n;
	const yaml_mark_t *m = &ev->start_mark;
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++*ndocs > 1) {
			fatal(r, (int)m->line + 1, (int)m->column + 1,
			      "more than one yaml document%s (a plan is one "
			      "mapping)",
			      "");
			return -XR_EYAML;
		}
		return 0;
	case YAML_SCALAR_EVENT:
		n = new_node(r, YN_SCALAR, m);
		if (!n)
			break;
		n->s = arena_strndup(r->a, (const char *)ev->data.scalar.value,
				     ev->data.scalar.length);
		if (!n->s)
			break;
		n->len = strlen(n->s);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->multiline = ev->end_mark.line != ev->start_mark.line;
		if (r->text) {
			size_t b0 = byte_at(r, ev->start_mark.index);
			size_t b1 = byte_at(r, ev->end_mark.index);
			n->src = r->text + b0;
			n->srclen = b1 >= b0 ? b1 - b0 : 0;
		}
		if (ev->data.scalar.anchor &&
		    anchor_put(
			r, arena_strdup(r->a, (char *)ev->data.scalar.anchor),
			n) < 0)
			break;
		return attach(r, n, n->line, n->col);
	case YAML_ALIAS_EVENT:
		n = anchor_get(r, (const char *)ev->data.alias.anchor);
		if (!n) {
			fatal(r, (int)m->line + 1, (int)m->column + 1,
			      "unknown alias '*%s' (no anchor of that name "
			      "before it)",
			      (const char *)ev->data.alias.anchor);
			return -XR_EYAML;
		}
		r->expanded = sat_add(r->expanded, n->weight);
		return attach(r, n, (int)m->line + 1, (int)m->column + 1);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		const unsigned char *anc = ev->type == YAML_SEQUENCE_START_EVENT
					       ? ev->data.sequence_start.anchor
					       : ev->data.mapping_start.anchor;
		struct frame *f;
		if (r->depth >= PLAN_YAML_MAX_DEPTH) {
			fatal(r, (int)m->line + 1, (int)m->column + 1,
			      "nesting deeper than %s levels", "64");
			return -XR_EYAML;
		}
		n = new_node(
		    r, ev->type == YAML_SEQUENCE_START_EVENT ? YN_SEQ : YN_MAP,
		    m);
		if (!n)
			break;
		f = &r->stack[r->depth++];
		memset(f, 0, sizeof *f);
		f->node = n;
		if (anc)
			f->anchor = arena_strdup(r->a, (const char *)anc);
		return 0;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (r->depth > 0)
			return close_collection(r);
		return 0;
	default:
		return 0;
	}
	nomem(r, (int)m->line + 1, (int)m->column + 1);
	return -XR_ENOMEM;
}

int plan_yaml_read(struct arena *a, const char *text, size_t len,
		   struct ynode **root, struct xr_diag *d)
{
	struct reader r;
	yaml_parser_t ps;
	yaml_event_t ev;
	int done = 0, ndocs = 0, i;
	memset(&r, 0, sizeof r);
	r.a = a;
	r.d = d;
	*root = NULL;
	if (!yaml_parser_initialize(&ps)) {
		xr_oom_mark(NULL, 0);
		xr_diag_add(d, 0, 0, 0, "out of memory starting yaml parser");
		return -XR_ENOMEM;
	}
	/* Editors on Windows save UTF-8 with a byte order mark; with the
	 * encoding set explicitly libyaml would take it for content. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	r.text = text;
	r.len = len;
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&ps, YAML_UTF8_ENCODING);
	while (!done && !r.failed) {
		if (!yaml_parser_parse(&ps, &ev)) {
			syntax_error(&r, &ps, text, len);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		on_event(&r, &ev, &ndocs);
		yaml_event_delete(&ev);
	}
	for (i = 0; i < r.depth; i++)
		free(r.stack[i].kids);
	free(r.anchors);
	yaml_parser_delete(&ps);
	if (r.failed)
		return -XR_EYAML;
	*root = r.root;
	return 0;
}

struct ynode *yn_get(const struct ynode *m, const char *key)
{
	int i;
	if (!m || m->kind != YN_MAP)
		return NULL;
	for (i = 0; i < m->n; i++)
		if (strcmp(yn_key(m, i)->s, key) == 0)
			return yn_val(m, i);
	return NULL;
}

int yn_is_null(const struct ynode *n)
{
	return n && n->kind == YN_SCALAR && n->plain &&
	       (n->len == 0 || strcmp(n->s, "~") == 0 ||
		strcmp(n->s, "null") == 0 || strcmp(n->s, "Null") == 0 ||
		strcmp(n->s, "NULL") == 0);
}

const char *yn_kind_name(const struct ynode *n)
{
	if (!n)
		return "nothing";
	switch (n->kind) {
	case YN_SEQ:
		return "a list";
	case YN_MAP:
		return "a mapping";
	default:
		return yn_is_null(n) ? "an empty value" : "a scalar";
	}
}
