/*
 * The iperf3 load engine: validates the plan's iperf3 parameters, builds
 * the client argv, keeps one `iperf3 -s` per session on the server host
 * (started, watched, restarted when it died, stopped at the end) and turns
 * the client's -J output into a run result (parsing in iperf3_json.c).
 * Everything runs through host_run/host_spawn: never a shell.
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine.h"

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "iperf3_args.h"
#include "iperf3_flows.h"
#include "iperf3_json.h"
#include "plan.h"
#include "proc.h"
#include "units.h"
#include "banned.h"

_Static_assert(IPERF3_MAX_FLOWS <= HOST_MANY_MAX,
	       "host_run_many runs every flow at once");

/* time for iperf3 -s to say it listens (ssh start-up included) */
#define IPERF3_LISTEN_WAIT 8.0

static char **build_argv(const struct plan *p, const struct engine_request *rq,
			 struct xr_err *err)
{
	(void)p;
	return iperf3_args_build(rq, err);
}

/* ---- session: the iperf3 server -------------------------------------- */

struct iperf3_state {
	struct host *client, *server;
	/* one server per flow, srv[k] on port + k; NULL when xrun does not
	 * run the servers */
	struct proc *srv[IPERF3_MAX_FLOWS];
	int port, nflows;
	char interval[16]; /* -i of the server: the plan's sample period,
			      "" for iperf3's default (1 s) */
	int restarts;
	int recycle; /* a client run was cut off: the server may still
			think its test is running ("server is busy") */
};

/*
 * Whether TCP port is in LISTEN state on host h (/proc/net/tcp and tcp6
 * there: the same locally, in a namespace and over ssh): 1, 0, or -1
 * when neither file could be read.
 */
static int port_listening(struct host *h, int port)
{
	static const char *const files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
	struct buf b = BUF_INIT;
	struct xr_err err;
	unsigned lport, state;
	const char *line;
	int found = 0, read = 0;
	size_t i;

	for (i = 0; i < 2 && !found; i++) {
		buf_reset(&b);
		xr_err_clear(&err);
		if (host_read_file(h, files[i], &b, &err) < 0 || !b.s)
			continue;
		read = 1;
		for (line = b.s; line && *line && !found;
		     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			/* "  0: 00000000:1451 00000000:0000 0A ..." */
			found = sscanf(line,
				       " %*u: %*[0-9A-Fa-f]:%x "
				       "%*[0-9A-Fa-f]:%*x %x",
				       &lport, &state) == 2 &&
				(int)lport == port && state == 0x0A;
	}
	buf_release(&b);
	return found ? 1 : read ? 0 : -1;
}

/*
 * Start iperf3 -s and wait until it listens. On Linux the server runs
 * with -J, so that a client's --get-server-output brings back its
 * intervals as JSON (the receiver's side of a forward test); a -J server
 * prints nothing when it listens, so the port's LISTEN state is the test
 * (free before the start, listening after). Elsewhere (no /proc) it runs
 * in text mode and its own "Server listening" line is the test. A probe
 * connection would count as a client on the server.
 */
/* Is the server of port_ctx serving? Its port in LISTEN (by_port >= 0)
 * or, in text mode, its "Server listening" line (host_spawn_ready). */
struct port_ctx {
	struct host *h;
	int port, by_port;
};

static int server_ready(void *ctx, const char *log_text)
{
	const struct port_ctx *c = ctx;
	if (c->by_port < 0)
		return strstr(log_text, "Server listening") != NULL;
	return port_listening(c->h, c->port) == 1;
}

static int server_start(struct iperf3_state *st, int k, struct xr_err *err)
{
	char port[16], tail[256];
	const int pnum = st->port + k;
	/* the server's intervals are the receiver's series: at the same
	 * period as the client's (-i, iperf3_args.c) */
	const char *argv[] = {"iperf3", "-s",		"-p",
			      port,	"--forceflush", "-J",
			      "-i",	st->interval,	NULL};
	struct proc_opts o = {0};
	struct buf b = BUF_INIT;
	struct port_ctx pc = {st->server, pnum, -1};
	int r;

	snprintf(port, sizeof port, "%d", pnum);
	pc.by_port = host_os(st->server) == PLAN_OS_LINUX
			 ? port_listening(st->server, pnum)
			 : -1;
	if (pc.by_port == 1)
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "port %d on host '%s' is already in use; set "
				  "engine.port or stop the other iperf3",
				  pnum, host_name(st->server));
	if (!st->interval[0])
		argv[6] = NULL;
	if (pc.by_port < 0) { /* text mode: no -J */
		argv[5] = st->interval[0] ? "-i" : NULL;
		argv[6] = st->interval[0] ? st->interval : NULL;
		argv[7] = NULL;
	}
	o.argv = argv;
	o.stderr_to_stdout = 1;
	o.watch = host_name(st->server);
	r = host_spawn_ready(st->server, &o, "iperf3", IPERF3_LISTEN_WAIT,
			     server_ready, &pc, &st->srv[k], &b, err);
	if (r != 0) {
		buf_release(&b);
		return r < 0 ? r : 0;
	}
	engine_stderr_tail(b.s, tail, sizeof tail);
	buf_release(&b);
	if (strstr(tail, "Address already in use"))
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "port %d on host '%s' is already in use; set "
				  "engine.port or stop the other iperf3",
				  pnum, host_name(st->server));
	if (proc_interrupted)
		return xr_err_set(err, XR_EINTR, NULL, 0, 0,
				  "interrupted while starting the iperf3 "
				  "server");
	return xr_err_set(err, XR_EENV, NULL, 0, 0,
			  "iperf3 server on host '%s' did not start "
			  "listening on port %d%s%s",
			  host_name(st->server), pnum,
			  tail[0] ? ": " : " (no output)", tail);
}

static void close_(void *state)
{
	struct iperf3_state *st = state;
	if (!st)
		return;
	for (int k = 0; k < IPERF3_MAX_FLOWS; k++)
		if (st->srv[k])
			proc_stop(st->srv[k]);
	free(st);
}

static int open_(const struct plan *p, struct host *client, struct host *server,
		 void **state, struct xr_err *err)
{
	struct iperf3_state *st = calloc(1, sizeof *st);
	int rc, k;
	if (!st)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	st->client = client;
	st->server = server;
	st->port = iperf3_args_server_port(p);
	st->nflows = iperf3_args_flows(p);
	if (p->sample > 0 && fabs(p->sample - 1.0) > 1e-9)
		snprintf(st->interval, sizeof st->interval, "%g",
			 p->sample < 0.1  ? 0.1
			 : p->sample > 60 ? 60
					  : p->sample);
	*state = st;
	if (!p->engine.server_start)
		return 0;
	if (!server)
		return xr_err_set(err, XR_EPLAN, NULL, 0, 0,
				  "engine.server.start is set but there is "
				  "no server host");
	for (rc = 0, k = 0; k < st->nflows && rc == 0; k++)
		rc = server_start(st, k, err);
	if (rc < 0) {
		close_(st);
		*state = NULL;
	}
	return rc;
}

/* ---- one run --------------------------------------------------------- */

/* A dead server is restarted (and the fact recorded), so one crash costs
 * at most the run it happened in. */
static int ensure_server(struct iperf3_state *st, int k,
			 struct engine_result *res)
{
	struct xr_err err;
	char why[64], note[160], which[32] = "";
	if (!st->srv[k])
		return 0;
	if (!proc_alive(st->srv[k]))
		snprintf(why, sizeof why, "had exited (wait status %d)",
			 proc_exit_status(st->srv[k]));
	else if (st->recycle)
		/* iperf3 -s serves one test at a time and notices a vanished
		 * client only after its own timeouts: start a fresh one. */
		snprintf(why, sizeof why, "was serving a cut-off run");
	else
		return 0;
	if (st->nflows > 1)
		snprintf(which, sizeof which, " on port %d", st->port + k);
	proc_stop(st->srv[k]);
	st->srv[k] = NULL;
	xr_err_clear(&err);
	if (server_start(st, k, &err) < 0) {
		res->status = RUN_FAILED;
		engine_result_set_reason(
		    res, "iperf3 server%s %s and could not be restarted: %s",
		    which, why, err.msg);
		return -XR_EENV;
	}
	st->restarts++;
	snprintf(note, sizeof note, "iperf3 server%s %s; restart #%d", which,
		 why, st->restarts);
	engine_result_add_observed(res, "server_restarted", note);
	return 0;
}

/* Every flow's server, before a run. */
static int ensure_servers(struct iperf3_state *st, struct engine_result *res)
{
	int k, rc = 0;
	for (k = 0; k < st->nflows && rc == 0; k++)
		rc = ensure_server(st, k, res);
	st->recycle = 0;
	return rc;
}

static int output_has(const struct proc_result *pr, const char *s)
{
	size_t n = strlen(s);
	return (pr->out && memmem(pr->out, pr->out_len, s, n)) ||
	       (pr->err && memmem(pr->err, pr->err_len, s, n));
}

/* iperf3's refusal while its server still winds down the previous test
 * (-J puts it in the JSON "error", without -J it is on stderr): "busy",
 * or, between two tests, a moment with no listening socket ("Connection
 * refused") when xrun runs the server itself and it is still there. */
static int server_busy(struct proc *srv, const struct proc_result *pr)
{
	if (pr->status != PROC_EXITED || pr->exit_code == 0)
		return 0;
	return output_has(pr, "the server is busy running a test") ||
	       (srv && proc_alive(srv) &&
		output_has(pr, "unable to connect to server: Connection "
			       "refused"));
}

/*
 * Run the client. Runs now follow each other within a millisecond or two,
 * which can be before the server has finished the previous test; the
 * server then refuses ("busy", or no listener for a moment), and the
 * client is started again after 0.1 s, up to 5 times, instead of failing
 * the run.
 */
static int run_client(struct iperf3_state *st, const struct proc_opts *o,
		      struct proc_result *pr, struct xr_err *err)
{
	int rc, attempt;
	for (attempt = 0;; attempt++) {
		memset(pr, 0, sizeof *pr);
		rc = host_run(st->client, o, pr, err);
		if (rc < 0 || attempt >= 4 || !server_busy(st->srv[0], pr))
			return rc;
		proc_result_release(pr);
		if (proc_sleep(0.1) < 0) {
			memset(pr, 0, sizeof *pr);
			pr->status = PROC_INTERRUPTED;
			return 0;
		}
	}
}

/* An exited client: its JSON report, else why the run failed. */
/* The report's roles as the plan's host labels, for its series. */
static void set_hosts(const struct iperf3_state *st, struct iperf3_report *rep)
{
	snprintf(rep->client_host, sizeof rep->client_host, "%s",
		 st->client ? host_name(st->client) : "client");
	snprintf(rep->server_host, sizeof rep->server_host, "%s",
		 st->server ? host_name(st->server) : "server");
}

static void judge_exited(const struct iperf3_state *st,
			 const struct proc_result *pr,
			 struct engine_result *res)
{
	struct iperf3_report rep;
	struct xr_err err;
	char tail[240];
	int rc;

	xr_err_clear(&err);
	rc = iperf3_json_parse(pr->out ? pr->out : "",
			       pr->out ? pr->out_len : 0, &rep, &err);
	if (rc == -XR_EENGINE) {
		engine_result_set_reason(res, "iperf3: %s", err.msg);
	} else if (rc < 0 || pr->exit_code != 0) {
		struct buf r = BUF_INIT;
		if (rc < 0)
			buf_adds(&r, err.msg);
		if (pr->exit_code != 0)
			buf_addf(&r, "%siperf3 exited with status %d",
				 rc < 0 ? "; " : "", pr->exit_code);
		engine_stderr_tail(pr->err, tail, sizeof tail);
		if (tail[0])
			buf_addf(&r, ": %s", tail);
		engine_result_set_reason(res, "%s",
					 r.s ? r.s : "iperf3 failed");
		buf_release(&r);
	} else {
		set_hosts(st, &rep);
		if (iperf3_report_to_result(&rep, res) < 0)
			engine_result_set_reason(
			    res, "out of memory storing iperf3 results");
		else
			res->status = RUN_OK;
	}
	iperf3_report_release(&rep);
}

/* A finished client's result into res (the status, else its JSON); 0,
 * or -XR_EENV when iperf3 could not be executed. */
static int settle(struct iperf3_state *st, const struct proc_result *pr,
		  double timeout, struct engine_result *res)
{
	int rc;
	engine_result_take_output(res, pr);
	rc = engine_result_from_proc(res, pr, "iperf3 ", timeout);
	if (rc > 0)
		st->recycle =
		    1; /* a cut-off run: the server may still hold it */
	else if (rc == 0)
		judge_exited(st, pr, res);
	engine_result_note_cut(res);
	return rc > 0 ? 0 : rc;
}

/* The clients of all flows, started together and waited for together
 * (host_run_many); when a server was still busy with the previous run,
 * all again after 0.1 s, up to 5 times (as run_client). */
static int run_clients(struct iperf3_state *st, const struct proc_opts *o,
		       int n, struct proc_result *pr, struct xr_err *err)
{
	int rc, attempt, k, busy;
	for (attempt = 0;; attempt++) {
		rc = host_run_many(st->client, o, n, pr, err);
		if (rc < 0)
			return rc;
		for (busy = 0, k = 0; k < n; k++)
			busy |= server_busy(st->srv[k], &pr[k]);
		if (attempt >= 4 || !busy)
			return 0;
		for (k = 0; k < n; k++)
			proc_result_release(&pr[k]);
		if (proc_sleep(0.1) < 0) {
			memset(pr, 0, (size_t)n * sizeof *pr);
			for (k = 0; k < n; k++)
				pr[k].status = PROC_INTERRUPTED;
			return 0;
		}
	}
}

/* Flow k's argv: the run's, against port. */
static char **flow_argv(const struct engine_request *rq, int port,
			struct xr_err *err)
{
	struct engine_param *pv = calloc((size_t)rq->nparams + 1, sizeof *pv);
	struct engine_request r = *rq;
	char num[16];
	char **argv;
	if (!pv)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory"),
		       NULL;
	if (rq->nparams > 0)
		memcpy(pv, rq->params, (size_t)rq->nparams * sizeof *pv);
	snprintf(num, sizeof num, "%d", port);
	pv[rq->nparams].key = "port"; /* last: it wins */
	pv[rq->nparams].value = num;
	r.params = pv;
	r.nparams = rq->nparams + 1;
	argv = iperf3_args_build(&r, err);
	free(pv);
	return argv;
}

/*
 * engine.flows > 1: the flows' clients started together, flow k against
 * the server on port + k - 1, their results merged into res
 * (iperf3_flows.c). runs.argv_json is then an array of the argvs.
 */
static int run_flows(struct iperf3_state *st, const struct engine_request *rq,
		     double timeout, struct engine_result *res)
{
	struct engine_result fr[IPERF3_MAX_FLOWS];
	struct proc_result pr[IPERF3_MAX_FLOWS];
	struct proc_opts o[IPERF3_MAX_FLOWS];
	char **argv[IPERF3_MAX_FLOWS];
	int ports[IPERF3_MAX_FLOWS], n = st->nflows, k, rc = 0, r;
	struct buf js = BUF_INIT;
	struct xr_err err;

	memset(argv, 0, sizeof argv);
	memset(o, 0, sizeof o);
	memset(fr, 0, sizeof fr);
	xr_err_clear(&err);
	buf_addc(&js, '[');
	for (k = 0; k < n; k++) {
		ports[k] = st->port + k;
		if (!(argv[k] = flow_argv(rq, ports[k], &err))) {
			engine_result_set_reason(res, "flow %d: %s", k + 1,
						 err.msg);
			goto out;
		}
		buf_adds(&js, k ? "," : "");
		engine_argv_json((const char *const *)argv[k], &js);
		o[k].argv = (const char *const *)argv[k];
		o[k].timeout = timeout;
		o[k].watch = host_name(st->client);
	}
	buf_addc(&js, ']');
	res->argv_json = buf_detach(&js, NULL);
	if ((rc = run_clients(st, o, n, pr, &err)) < 0) {
		engine_result_set_reason(res,
					 "cannot run iperf3 on host '%s': %s",
					 host_name(st->client), err.msg);
		goto out;
	}
	for (k = 0; k < n; k++) {
		fr[k].status = RUN_FAILED;
		if ((r = settle(st, &pr[k], timeout, &fr[k])) < 0)
			rc = r;
		proc_result_release(&pr[k]);
	}
	if (iperf3_flows_merge(fr, n, ports, res) < 0) {
		res->status = RUN_FAILED;
		engine_result_set_reason(res, "out of memory merging flows");
	}
	for (k = 0; k < n; k++)
		engine_result_release(&fr[k]);
out:
	for (k = 0; k < n; k++)
		engine_argv_free(argv[k]);
	buf_release(&js);
	return rc;
}

static int run(void *state, const struct plan *p,
	       const struct engine_request *rq, struct engine_result *res)
{
	struct iperf3_state *st = state;
	struct proc_opts o = {0};
	struct proc_result pr;
	struct xr_err err;
	struct buf js = BUF_INIT;
	char **argv;
	double timeout;
	int rc;

	(void)p; /* the runner has put everything into rq */
	engine_result_begin(res);
	if (!st) {
		engine_result_set_reason(
		    res, "iperf3 engine used without a session");
		return -XR_EINTERNAL;
	}
	rc = ensure_servers(st, res);
	if (rc < 0)
		return rc;
	timeout = engine_run_timeout(&engine_iperf3, rq);
	if (st->nflows > 1)
		return run_flows(st, rq, timeout, res);

	xr_err_clear(&err);
	argv = iperf3_args_build(rq, &err);
	if (!argv) {
		engine_result_set_reason(res, "%s", err.msg);
		return 0;
	}
	engine_argv_json((const char *const *)argv, &js);
	res->argv_json = buf_detach(&js, NULL);

	o.argv = (const char *const *)argv;
	o.timeout = timeout;
	o.watch = host_name(st->client);
	rc = run_client(st, &o, &pr, &err);
	engine_argv_free(argv);
	if (rc < 0) {
		engine_result_set_reason(res,
					 "cannot run iperf3 on host '%s': %s",
					 host_name(st->client), err.msg);
		proc_result_release(&pr);
		return rc;
	}
	rc = settle(st, &pr, timeout, res);
	proc_result_release(&pr);
	return rc;
}

static const char *const programs[] = {"iperf3", NULL};

const struct engine_ops engine_iperf3 = {
    .desc = {.name = "iperf3",
	     .check = iperf3_args_check,
	     .has_param = iperf3_args_has_param,
	     .default_duration = 10,
	     .has_server = 1},
    .programs = programs,
    .primary_metric = "throughput",
    .primary_unit = "bit/s",
    .metrics = iperf3_json_metrics,
    /* the client's connect and the server's end-of-test exchange */
    .timeout_slack = 15,
    .ref_params = iperf3_ref_params,
    .param_schema = iperf3_args_schema,
    .build_argv = build_argv,
    .open = open_,
    .run = run,
    .close = close_,
};
