/*
 * Host transports: one table of operations per kind of host (local, netns,
 * ssh in host_ssh.c), after Redis's ConnectionType. A transport only turns
 * "argv to run over there" into "argv to run here"; proc does the rest, so
 * deadlines, capture and interrupts behave the same on every host. Also
 * the quoting of words for a remote POSIX sh or PowerShell.
 *
 * SPDX-License-Identifier: MIT
 */
#include "host.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host_int.h"
#include "plan.h"
#include "strv.h"
#include "banned.h"

/* Deadline for small helper commands (address lookup, cat). */
#define HOST_HELPER_TIMEOUT 15.0

static int push_all(struct strv *out, const char *const *argv)
{
	int rc = 0;
	for (; *argv && rc == 0; argv++)
		rc = strv_push(out, *argv);
	return rc;
}

void host_quote_sh(const char *word, struct buf *out)
{
	const char *p;
	buf_addc(out, '\'');
	for (p = word; *p; p++) {
		if (*p == '\'')
			buf_adds(out, "'\\''");
		else
			buf_addc(out, *p);
	}
	buf_addc(out, '\'');
}

void host_quote_powershell(const char *word, struct buf *out)
{
	const unsigned char *p;
	buf_addc(out, '\'');
	for (p = (const unsigned char *)word; *p; p++) {
		/* PowerShell also ends a single-quoted string at the
		 * typographic quotes U+2018..U+201B; double them like '. */
		if (p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0x98 &&
		    p[2] <= 0x9b) {
			buf_add(out, p, 3);
			buf_add(out, p, 3);
			p += 2;
		} else if (*p == '\'') {
			buf_adds(out, "''");
		} else {
			buf_addc(out, (char)*p);
		}
	}
	buf_addc(out, '\'');
}

/* ---- local ------------------------------------------------------------ */

static int local_open(struct host *h, const char *control_dir,
		      struct xr_err *err)
{
	(void)h;
	(void)control_dir;
	(void)err;
	return 0;
}

static void local_close(struct host *h)
{
	(void)h;
}

static int local_wrap(struct host *h, const char *const *argv,
		      const char *const *env, double timeout, unsigned flags,
		      struct strv *out)
{
	(void)h;
	(void)env; /* passed to proc directly */
	(void)timeout;
	(void)flags;
	return push_all(out, argv);
}

static const struct host_ops host_local_ops = {
    "local", local_open, local_close, local_wrap, 0.0,
};

/* ---- netns ------------------------------------------------------------ */

/* The first global IPv4 address in the namespace (ip -j -4 addr). */
static char *netns_first_ipv4(const char *ns)
{
	const char *argv[] = {"ip",   "-n",   ns,      "-j",	 "-4",
			      "addr", "show", "scope", "global", NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	json_t *root = NULL, *ifc, *ai, *a;
	size_t i, j;
	char *addr = NULL;
	o.argv = argv;
	o.timeout = HOST_HELPER_TIMEOUT;
	if (proc_run(&o, &r, &e) < 0)
		return NULL;
	if (r.status == PROC_EXITED && r.exit_code == 0)
		root = json_loads(r.out, 0, NULL);
	json_array_foreach(root, i, ifc)
	{
		ai = json_object_get(ifc, "addr_info");
		json_array_foreach(ai, j, a)
		{
			const char *l =
			    json_string_value(json_object_get(a, "local"));
			if (l && !addr)
				addr = strdup(l);
		}
	}
	json_decref(root);
	proc_result_release(&r);
	return addr;
}

static int netns_open(struct host *h, const char *control_dir,
		      struct xr_err *err)
{
	struct buf p = BUF_INIT;
	struct stat st;
	int ok;
	(void)control_dir;
	buf_addf(&p, "/run/netns/%s", h->netns);
	/* A namespace is a bind-mounted file there: "." and ".." name
	 * directories, which ip refuses only later, at every run. */
	ok = strchr(h->netns, '/') == NULL && stat(p.s, &st) == 0 &&
	     !S_ISDIR(st.st_mode);
	buf_release(&p);
	if (!ok)
		return xr_err_set(err, XR_EHOST, NULL, 0, 0,
				  "network namespace '%s' of host '%s' does "
				  "not exist (create it with 'xrun lab up' or "
				  "'ip netns add %s')",
				  h->netns, h->name, h->netns);
	return 0;
}

static void netns_close(struct host *h)
{
	(void)h;
}

static int netns_wrap(struct host *h, const char *const *argv,
		      const char *const *env, double timeout, unsigned flags,
		      struct strv *out)
{
	int rc;
	(void)env;
	(void)timeout;
	(void)flags;
	/* ip execs the command in place: same pid, same process group, so
	 * proc's deadline reaches it directly. */
	rc = push_all(
	    out, (const char *const[]){"ip", "netns", "exec", h->netns, NULL});
	if (!rc)
		rc = push_all(out, argv);
	return rc;
}

static const struct host_ops host_netns_ops = {
    "netns", netns_open, netns_close, netns_wrap, 0.0,
};

/* ---- the interface ---------------------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static const struct host_ops *ops_for(const struct plan_host *ph)
{
	if (ph->ssh)
		return &host_ssh_ops;
	if (ph->netns)
		return &host_netns_ops;
	return &host_local_ops;
}

/*
 * The address engines use to reach h when the plan gives no `address:`:
 * local 127.0.0.1, a namespace its first global IPv4 (ip -n NS addr), ssh
 * the host name `ssh -G` resolves. None of these connects anywhere, so the
 * dry run (host_plan_address) and host_open share this one function.
 * OUT: caller frees; NULL when nothing is found (host_address then says
 * 127.0.0.1).
 */
static char *resolve_address(struct host *h)
{
	if (h->address)
		return strdup(h->address);
	if (h->ops == &host_ssh_ops)
		return host_ssh_address(h);
	if (h->ops == &host_netns_ops)
		return netns_first_ipv4(h->netns);
	return strdup("127.0.0.1");
}

static void host_free(struct host *h);

/* A host with the plan's settings, not opened. */
static struct host *host_new(const struct plan_host *ph)
{
	struct host *h = calloc(1, sizeof *h);
	int i;
	if (!h)
		return NULL;
	h->name = strdup(ph->name ? ph->name : "local");
	h->address = dup_or_null(ph->address);
	h->iface = dup_or_null(ph->iface);
	h->ssh = dup_or_null(ph->ssh);
	h->identity = dup_or_null(ph->identity);
	h->netns = dup_or_null(ph->netns);
	h->port = ph->port;
	h->shell = ph->shell;
	h->os = ph->os;
	h->os_known = ph->os_given;
	h->session_off = ph->no_session;
	for (i = 0; i < ph->ssh_options.argc && ph->ssh_options.argv; i++)
		strv_push(&h->ssh_options, ph->ssh_options.argv[i]);
	for (i = 0; i < ph->path.argc && ph->path.argv; i++)
		strv_push(&h->path, ph->path.argv[i]);
	h->ops = ops_for(ph);
	return h;
}

int host_open(const struct plan_host *ph, const char *control_dir,
	      struct host **out, struct xr_err *err)
{
	struct host *h = host_new(ph);
	int rc;
	*out = NULL;
	if (!h)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = h->ops->open(h, control_dir, err);
	if (rc < 0) {
		host_close(h);
		return rc;
	}
	if (!h->address)
		h->address = resolve_address(h);
	*out = h;
	return 0;
}

char *host_plan_address(const struct plan_host *ph)
{
	struct host *h = host_new(ph);
	char *a = h ? resolve_address(h) : NULL;
	host_free(h);
	return a ? a : strdup("127.0.0.1");
}

int host_plan_is_local(const struct plan_host *ph)
{
	return ops_for(ph) == &host_local_ops;
}

void host_close(struct host *h)
{
	if (!h)
		return;
	host_session_stop(h);
	if (h->ops)
		h->ops->close(h);
	host_free(h);
}

const char *host_cache_get(struct host *h, const char *key)
{
	return h && h->cache_key && key && strcmp(h->cache_key, key) == 0
		   ? h->cache_text
		   : NULL;
}

const char *host_cache_key(struct host *h)
{
	return h ? h->cache_key : NULL;
}

void host_cache_set(struct host *h, const char *key, const char *text)
{
	char *k = strdup(key), *t = strdup(text);
	if (!k || !t) {
		free(k);
		free(t);
		return;
	}
	free(h->cache_key);
	free(h->cache_text);
	h->cache_key = k;
	h->cache_text = t;
}

static void host_free(struct host *h)
{
	if (!h)
		return;
	free(h->cache_key);
	free(h->cache_text);
	free(h->name);
	free(h->address);
	free(h->iface);
	free(h->ssh);
	free(h->identity);
	free(h->netns);
	free(h->control_dir);
	free(h->target);
	strv_release(&h->ssh_options);
	strv_release(&h->path);
	free(h);
}

const char *host_name(const struct host *h)
{
	return h->name;
}

const char *host_address(const struct host *h)
{
	/* A namespace without a global address still needs an answer. */
	return h->address ? h->address : "127.0.0.1";
}

const char *host_iface(const struct host *h)
{
	return h->iface;
}

int host_is_local(const struct host *h)
{
	return h->ops == &host_local_ops;
}

/*
 * An ssh host whose plan names no OS is asked once, with `uname -s`, so
 * that a Mac reached with `ssh:` alone gets the macOS commands. Windows
 * needs `shell: powershell` (hence a known OS) for its quoting anyway; a
 * failed or unknown answer keeps Linux, the historical behaviour.
 */
static void detect_os(struct host *h)
{
	static const char *const argv[] = {"uname", "-s", NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	int rc;
	o.argv = argv;
	o.timeout = HOST_HELPER_TIMEOUT;
	h->detecting = 1; /* no coreutils timeout on a stock Mac */
	rc = host_read_run(h, &o, &r, &e);
	h->detecting = 0;
	if (rc < 0)
		return;
	if (r.status == PROC_EXITED && r.exit_code == 0 && r.out &&
	    strncmp(r.out, "Darwin", 6) == 0)
		h->os = PLAN_OS_MACOS;
	proc_result_release(&r);
}

enum plan_os host_os(struct host *h)
{
	if (!h)
		return PLAN_OS_LINUX;
	if (!h->os_known && h->ops == &host_ssh_ops &&
	    h->shell == PLAN_SHELL_SH)
		detect_os(h);
	h->os_known = 1;
	return h->os;
}

const char *host_kind(const struct host *h)
{
	return h->ops->kind;
}

const char *host_netns(const struct host *h)
{
	return h->ops == &host_netns_ops ? h->netns : NULL;
}

static int wrap(struct host *h, const struct proc_opts *o, unsigned flags,
		struct strv *out, struct xr_err *err)
{
	int rc;
	if (!o->argv || !o->argv[0])
		return xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
				  "empty command line for host '%s'", h->name);
	rc = h->ops->wrap(h, o->argv, o->env, o->timeout, flags, out);
	if (rc < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "out of memory building the command for "
				  "host '%s'",
				  h->name);
	return 0;
}

/* o->watch as the local process runs it: on an ssh host the process
 * here is ssh, not the command, so nothing is followed here; a Linux one
 * follows it over there (far_watch). */
static const char *watch_here(const struct host *h, const struct proc_opts *o)
{
	return strcmp(h->ops->kind, "ssh") ? o->watch : NULL;
}

const char *host_watch_token(struct host *h)
{
	if (!h || h->ops != &host_ssh_ops || h->shell != PLAN_SHELL_SH ||
	    !h->watch_token[0] || host_os(h) != PLAN_OS_LINUX)
		return NULL;
	return h->watch_token;
}

/* HOST_WRAP_WATCH when o->watch is followed on the far side. */
static unsigned far_watch(struct host *h, const struct proc_opts *o)
{
	return o->watch && host_watch_token(h) ? HOST_WRAP_WATCH : 0;
}

int host_run(struct host *h, const struct proc_opts *o, struct proc_result *res,
	     struct xr_err *err)
{
	struct strv av = {0};
	struct proc_opts lo = *o;
	/* The far pid goes to stderr, which must stay apart from stdout. */
	int rc =
	    wrap(h, o,
		 (o->stderr_to_stdout ? 0 : HOST_WRAP_FARPID) | far_watch(h, o),
		 &av, err);
	if (rc < 0) {
		memset(res, 0, sizeof *res);
		return rc;
	}
	lo.argv = (const char *const *)av.v;
	lo.watch = watch_here(h, o);
	if (o->timeout > 0)
		lo.timeout = o->timeout + h->ops->margin;
	/* ssh may leave its ControlMaster behind, on purpose. */
	lo.keep_daemons |= !strcmp(h->ops->kind, "ssh");
	rc = proc_run(&lo, res, err);
	strv_release(&av);
	if (rc == 0 && h->ops->finish)
		h->ops->finish(h, o, res);
	return rc;
}

struct proc *host_spawn(struct host *h, const struct proc_opts *o,
			const char *log_path, struct xr_err *err)
{
	struct strv av = {0};
	struct proc_opts lo = *o;
	struct proc *p;
	if (wrap(h, o, HOST_WRAP_BACKGROUND | far_watch(h, o), &av, err) < 0)
		return NULL;
	lo.argv = (const char *const *)av.v;
	lo.watch = watch_here(h, o);
	p = proc_spawn(&lo, log_path, err);
	strv_release(&av);
	return p;
}

int host_spawn_ready(struct host *h, const struct proc_opts *o,
		     const char *name, double wait,
		     int (*ready)(void *ctx, const char *log_text), void *ctx,
		     struct proc **out, struct buf *log, struct xr_err *err)
{
	char path[64];
	double deadline = proc_now_mono() + wait;
	int fd, ok = 0;

	*out = NULL;
	/* a fresh log per start: a stale line would look like a fresh
	 * "listening" */
	snprintf(path, sizeof path, "/tmp/xrun-%.16ss-XXXXXX", name);
	if ((fd = mkstemp(path)) < 0)
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot create a log file for the %s server "
				  "in /tmp",
				  name);
	close(fd);
	if (!(*out = host_spawn(h, o, path, err))) {
		unlink(path);
		return err && err->code ? -err->code : -XR_EENV;
	}
	while (proc_now_mono() < deadline) {
		buf_reset(log);
		if (buf_read_file(log, path, 1 << 20) < 0)
			buf_reset(log);
		if (ready(ctx, log->s ? log->s : "") && proc_alive(*out)) {
			ok = 1;
			break;
		}
		if (!proc_alive(*out) || proc_sleep(0.05) < 0)
			break;
	}
	if (!ok) {
		proc_stop(*out);
		*out = NULL;
		buf_reset(log);
		if (buf_read_file(log, path, 1 << 20) < 0)
			buf_reset(log);
	}
	unlink(path);
	return ok;
}

struct proc *host_spawn_stream(struct host *h, const struct proc_opts *o,
			       int *out_fd, int *err_fd, struct xr_err *err)
{
	struct strv av = {0};
	struct proc_opts lo = *o;
	struct proc *p;
	*out_fd = *err_fd = -1;
	if (wrap(h, o, HOST_WRAP_BACKGROUND | far_watch(h, o), &av, err) < 0)
		return NULL;
	lo.argv = (const char *const *)av.v;
	lo.watch = watch_here(h, o);
	p = proc_spawn_stream(&lo, out_fd, err_fd, err);
	strv_release(&av);
	return p;
}

int host_read_file(struct host *h, const char *path, struct buf *out,
		   struct xr_err *err)
{
	const char *argv[] = {"cat", path, NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	char d[256];
	int rc;
	if (host_is_local(h)) {
		rc = buf_read_file(out, path, 0);
		if (rc == -XR_EIO)
			return xr_err_set(err, XR_EIO, path, 0, 0,
					  "cannot read '%s': %s", path,
					  strerror(errno));
		return rc;
	}
	o.argv = argv;
	o.timeout = HOST_HELPER_TIMEOUT;
	rc = host_read_run(h, &o, &r, err);
	if (rc < 0)
		return rc;
	if (r.status != PROC_EXITED || r.exit_code != 0) {
		size_t n = r.err_len;
		while (n && (r.err[n - 1] == '\n' || r.err[n - 1] == '\r'))
			r.err[--n] = 0;
		rc = xr_err_set(err, XR_EIO, path, 0, 0,
				"cannot read '%s' on host '%s': %s%s%s", path,
				h->name, proc_describe(&r, d, sizeof d),
				n ? ": " : "", r.err);
	} else {
		rc = buf_add(out, r.out, r.out_len);
	}
	proc_result_release(&r);
	return rc;
}

int host_is_down(const struct host *h)
{
	return h && h->down;
}

double host_down_since(const struct host *h)
{
	return h && h->down ? h->down_since : 0;
}

const char *host_down_reason(const struct host *h)
{
	return h && h->down ? h->down_why : "";
}

void host_mark_down(struct host *h, const char *why)
{
	size_t n = why ? strcspn(why, "\r\n") : 0;
	if (!h->down)
		h->down_since = proc_now_wall();
	h->down = 1;
	snprintf(h->down_why, sizeof h->down_why, "%.*s", (int)n,
		 why ? why : "");
}

int host_check(struct host *h, struct buf *why)
{
	if (!h || !h->ops->check)
		return 0;
	if (h->ops->check(h, why) == 0) {
		h->down = 0;
		h->down_why[0] = 0;
		return 0;
	}
	return -XR_EHOST;
}

char **host_wrap_argv(struct host *h, const char *const *argv, double timeout)
{
	struct strv av = {0};
	if (!argv || !argv[0] || h->ops->wrap(h, argv, NULL, timeout, 0, &av)) {
		strv_release(&av);
		return NULL;
	}
	return av.v;
}

void host_argv_free(char **argv)
{
	strv_free(argv);
}
