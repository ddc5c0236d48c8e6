/*
 * Internal to the plan loader: a YAML document read with libyaml's event
 * API into a small tree of nodes that remember their line:col (1-based).
 * Aliases share the anchored node (no copy), but their expanded size is
 * counted so that an alias bomb is refused instead of walked.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLAN_YAML_H
#define XR_PLAN_YAML_H

#include <stddef.h>

#include "xr_err.h"

struct arena;

enum ynode_kind { YN_SCALAR = 0, YN_SEQ, YN_MAP };

struct ynode {
	enum ynode_kind kind;
	int line, col;
	int plain;     /* scalar written without quotes or block style */
	int multiline; /* scalar spans lines (columns of offsets unreliable) */
	const char *s; /* scalar text, NUL-terminated */
	size_t len;
	/* A scalar's source bytes as written (quotes, escapes, anchor),
	 * from its first line:col; they point into the text given to
	 * plan_yaml_read(), so they are valid only while that text is. */
	const char *src;
	size_t srclen;
	/* SEQ: kids[i]; MAP: kids[2i] key, kids[2i+1] value */
	struct ynode **kids;
	int n;	       /* items (SEQ) or pairs (MAP) */
	size_t weight; /* nodes including alias expansions, saturating */
};

#define PLAN_YAML_MAX_DEPTH 64
/* Nodes that aliases may add; plain nodes are bounded by the file size. */
#define PLAN_YAML_MAX_NODES 200000
#define PLAN_YAML_MAX_BYTES ((size_t)64 << 20)

/*
 * Parse text into *root (NULL for an empty document). Problems go to d
 * (duplicate keys are reported but do not stop the read). Returns 0, or
 * -XR_EYAML when the text cannot be read as one YAML document.
 */
int plan_yaml_read(struct arena *a, const char *text, size_t len,
		   struct ynode **root, struct xr_diag *d);

static inline struct ynode *yn_key(const struct ynode *m, int i)
{
	return m->kids[2 * i];
}
static inline struct ynode *yn_val(const struct ynode *m, int i)
{
	return m->kids[2 * i + 1];
}
/* The value of key in map m, or NULL. */
struct ynode *yn_get(const struct ynode *m, const char *key);
/* Is this a null scalar ("", "~", "null" unquoted)? */
int yn_is_null(const struct ynode *n);
const char *yn_kind_name(const struct ynode *n);

#endif
