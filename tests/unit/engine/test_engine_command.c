/*
 * Tests of the command engine with real processes on the local host: a
 * script printing JSON and one printing text (values extracted exactly,
 * B/s turned into bit/s), a timed copy-like command (bytes over elapsed),
 * a failing command, garbage output, a hanging command killed at its
 * timeout with nothing of its process group left, and check().
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"

static char dir[64];

static const char *write_script(const char *name, const char *body)
{
	static char path[160];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(body, f);
	fclose(f);
	return path;
}

static const struct engine_metric *metric(const struct engine_result *res,
					  const char *name)
{
	int i;
	for (i = 0; i < res->nmetrics; i++)
		if (strcmp(res->metrics[i].name, name) == 0)
			return &res->metrics[i];
	return NULL;
}

static struct host *h;

/* Run argv through the engine with the plan's metrics. */
static int run_with(struct plan_metric *ms, int nms, const char *const *argv,
		    double timeout, struct engine_result *res)
{
	struct plan p;
	struct engine_request rq = {0};
	struct xr_err err;
	void *st = NULL;
	int rc;

	memset(&p, 0, sizeof p);
	memset(res, 0, sizeof *res);
	p.engine.type = "command";
	p.engine.metrics = ms;
	p.engine.nmetrics = nms;
	rq.run_argv = argv;
	rq.timeout = timeout;
	rc = engine_command.open(&p, h, NULL, &st, &err);
	if (rc < 0)
		return rc;
	rc = engine_command.run(st, &p, &rq, res);
	engine_command.close(st);
	return rc;
}

static void test_json(void)
{
	const char *s = write_script(
	    "json.sh",
	    "printf '{\"download\": {\"bandwidth\": 117500000}, '\n"
	    "printf '\"ping\": {\"latency\": 12.5}, \"a/b\": {\"m~n\": 3}, '\n"
	    "printf '\"list\": [1, 2, {\"x\": \" 42.5 \"}], '\n"
	    "printf '\"o\": {}, \"\": {\"\": 7}}\\n'\n");
	const char *argv[] = {"sh", s, NULL};
	struct plan_metric ms[] = {
	    {.name = "latency", .json = "/ping/latency", .unit = "ms"},
	    {.name = "throughput",
	     .json = "/download/bandwidth",
	     .unit = "B/s"},
	    {.name = "escaped", .json = "/a~1b/m~0n", .unit = "count"},
	    {.name = "indexed", .json = "/list/2/x"},
	    {.name = "empty_key", .json = "//"},
	};
	struct engine_result res;
	int rc = run_with(ms, 5, argv, 10, &res);

	is_int(rc, 0, "json run returns 0");
	is_str(run_status_name(res.status), "ok", "json run ok");
	printf("# reason: %s\n", res.reason);
	is_int(res.nmetrics, 5, "5 metrics");
	if (res.nmetrics == 5) {
		is_str(res.metrics[0].name, "throughput",
		       "throughput is metrics[0]");
		is_near(res.metrics[0].value, 940000000.0, 0,
			"117500000 B/s is 940000000 bit/s");
		is_str(res.metrics[0].unit, "bit/s", "throughput unit");
		is_near(metric(&res, "latency")->value, 0.0125, 1e-15,
			"12.5 ms in s");
		is_str(metric(&res, "latency")->unit, "s", "latency unit");
		is_near(metric(&res, "escaped")->value, 3, 0, "~0 ~1 escapes");
		is_near(metric(&res, "indexed")->value, 42.5, 0,
			"array index, numeric string");
		is_near(metric(&res, "empty_key")->value, 7, 0, "empty keys");
	}
	is_int(res.exit_code, 0, "exit code 0");
	ok(res.raw && strstr(res.raw, "bandwidth"), "stdout kept");
	ok(res.argv_json && strstr(res.argv_json, "json.sh"), "argv_json");
	engine_result_release(&res);

	{
		struct plan_metric bad[][1] = {
		    {{.name = "throughput", .json = "/download/nope"}},
		    {{.name = "throughput", .json = "/ping"}},
		    {{.name = "throughput", .json = "/list/3"}},
		    {{.name = "throughput", .json = "/list/01"}},
		    {{.name = "throughput", .json = "/ping/latency/x"}},
		};
		const char *want[] = {"no member 'nope'", "an object",
				      "past the end", "not an array index",
				      "neither object nor array"};
		size_t i;
		for (i = 0; i < 5; i++) {
			run_with(bad[i], 1, argv, 10, &res);
			ok(res.status == RUN_FAILED &&
			       strstr(res.reason, "metric 'throughput'") &&
			       strstr(res.reason, want[i]),
			   "bad pointer %zu: %s", i, res.reason);
			engine_result_release(&res);
		}
	}
}

static void test_regex_and_garbage(void)
{
	const char *s = write_script(
	    "text.sh", "echo 'copying...'\n"
		       "echo 'rate: 941.5 Mbit/s, latency 0.25 ms'\n"
		       "echo 'rate: 1 Mbit/s'\n");
	const char *argv[] = {"sh", s, NULL};
	struct plan_metric ms[] = {
	    {.name = "throughput",
	     .regex = "rate: ([0-9.]+) Mbit/s",
	     .unit = "Mbit/s"},
	    {.name = "latency", .regex = "latency ([0-9.]+) ms", .unit = "ms"},
	};
	struct plan_metric js[] = {{.name = "throughput", .json = "/x"}};
	struct plan_metric nomatch[] = {
	    {.name = "loss", .regex = "loss ([0-9]+)%", .unit = "%"}};
	struct plan_metric notnum[] = {
	    {.name = "speed", .regex = "(copying)", .unit = "B/s"}};
	struct engine_result res;

	run_with(ms, 2, argv, 10, &res);
	is_str(run_status_name(res.status), "ok", "regex run ok");
	if (res.nmetrics == 2) {
		is_near(res.metrics[0].value, 941.5e6, 1e-6,
			"first match, Mbit/s to bit/s");
		is_near(res.metrics[1].value, 0.25e-3, 1e-18, "ms to s");
	} else {
		ok(0, "2 metrics (got %d: %s)", res.nmetrics, res.reason);
	}
	engine_result_release(&res);

	run_with(js, 1, argv, 10, &res);
	ok(res.status == RUN_FAILED && strstr(res.reason, "not JSON"),
	   "garbage for a json metric: %s", res.reason);
	engine_result_release(&res);
	run_with(nomatch, 1, argv, 10, &res);
	ok(res.status == RUN_FAILED && strstr(res.reason, "metric 'loss'") &&
	       strstr(res.reason, "did not match"),
	   "regex without match: %s", res.reason);
	engine_result_release(&res);
	run_with(notnum, 1, argv, 10, &res);
	ok(res.status == RUN_FAILED && strstr(res.reason, "not a number"),
	   "capture not a number: %s", res.reason);
	engine_result_release(&res);
}

/* JSON with a banner before it and a text summary after it, as many tools
 * print: the JSON metrics and the regex metrics come from the same stdout. */
static void test_json_and_text(void)
{
	const char *s = write_script(
	    "mixed.sh", "echo 'tool v1.2 starting'\n"
			"echo '{\"dl\": {\"bw\": 125000.5}, \"lat\": 12.25}'\n"
			"echo 'rate: 93.5 MB/s'\n"
			"echo '{not json'\n");
	const char *argv[] = {"sh", s, NULL};
	struct plan_metric ms[] = {
	    {.name = "throughput", .json = "/dl/bw", .unit = "B/s"},
	    {.name = "latency", .json = "/lat", .unit = "ms"},
	    {.name = "copy", .regex = "rate: ([0-9.]+) MB/s", .unit = "MB/s"},
	};
	struct engine_result res;

	run_with(ms, 3, argv, 10, &res);
	ok(res.status == RUN_OK, "json between text: %s", res.reason);
	if (res.nmetrics == 3) {
		is_near(res.metrics[0].value, 125000.5 * 8, 1e-9,
			"embedded JSON B/s to bit/s");
		is_near(res.metrics[1].value, 12.25e-3, 1e-15,
			"embedded JSON ms to s");
		is_near(res.metrics[2].value, 93.5e6 * 8, 1e-9,
			"regex beside JSON, MB/s to bit/s");
		is_str(res.metrics[2].unit, "bit/s", "MB/s stored as bit/s");
	} else {
		ok(0, "3 metrics (got %d: %s)", res.nmetrics, res.reason);
	}
	engine_result_release(&res);
}

static void test_bytes_and_failure(void)
{
	const char *argv[] = {"sleep", "0.2", NULL};
	const char *fail = write_script("fail.sh", "echo partial\n"
						   "echo 'disk full' >&2\n"
						   "exit 3\n");
	const char *fargv[] = {"sh", fail, NULL};
	const char *missing[] = {"xrun-no-such-program-here", NULL};
	struct plan_metric ms[] = {
	    {.name = "throughput", .bytes = 2147483648.0}};
	struct engine_result res;
	int rc;

	run_with(ms, 1, argv, 10, &res);
	is_str(run_status_name(res.status), "ok", "timed command ok");
	ok(res.elapsed >= 0.2 && res.elapsed < 5, "elapsed %g s", res.elapsed);
	if (res.nmetrics == 1) {
		is_near(res.metrics[0].value, 2147483648.0 * 8 / res.elapsed,
			1e-3, "bytes / elapsed, in bit/s");
		is_str(res.metrics[0].unit, "bit/s", "unit bit/s");
	}
	engine_result_release(&res);

	run_with(ms, 1, fargv, 10, &res);
	is_str(run_status_name(res.status), "failed", "non-zero exit fails");
	is_int(res.exit_code, 3, "exit code kept");
	ok(strstr(res.reason, "exited with status 3") &&
	       strstr(res.reason, "disk full"),
	   "reason with stderr tail: %s", res.reason);
	ok(res.raw && strstr(res.raw, "partial"), "stdout kept on failure");
	ok(res.err_text && strstr(res.err_text, "disk full"), "stderr kept");
	is_int(res.nmetrics, 0, "no metrics from a failed run");
	engine_result_release(&res);

	rc = run_with(ms, 1, missing, 10, &res);
	ok(rc < 0 && res.status == RUN_FAILED &&
	       strstr(res.reason, "xrun-no-such-program-here"),
	   "missing program: rc %d, %s", rc, res.reason);
	engine_result_release(&res);
}

static void test_hang(void)
{
	char pidfile[128], body[512];
	const char *s;
	const char *argv[3] = {"sh", NULL, NULL};
	struct plan_metric ms[] = {{.name = "throughput", .bytes = 1}};
	struct engine_result res;
	struct buf b = BUF_INIT;
	long sh_pid = 0, child = 0;
	double t0;

	snprintf(pidfile, sizeof pidfile, "%s/pids", dir);
	/* a child of the script and the script both hang */
	snprintf(body, sizeof body, "sleep 30 &\necho $$ $! > %s\nwait\n",
		 pidfile);
	s = write_script("hang.sh", body);
	argv[1] = s;
	t0 = proc_now_mono();
	run_with(ms, 1, argv, 0.5, &res);
	is_str(run_status_name(res.status), "timeout", "hang: status timeout");
	ok(proc_now_mono() - t0 < 5, "killed promptly (%.2f s)",
	   proc_now_mono() - t0);
	ok(strstr(res.reason, "timed out") != NULL, "reason: %s", res.reason);
	engine_result_release(&res);
	if (buf_read_file(&b, pidfile, 0) == 0 && b.s &&
	    sscanf(b.s, "%ld %ld", &sh_pid, &child) == 2) {
		usleep(100000);
		ok(kill((pid_t)-sh_pid, 0) < 0 && errno == ESRCH,
		   "no process of group %ld survives", sh_pid);
		ok(kill((pid_t)child, 0) < 0 && errno == ESRCH,
		   "the background child %ld is gone", child);
	} else {
		ok(0, "hang script wrote its pids");
	}
	buf_release(&b);
}

/* A grandchild that ignores SIGTERM and keeps stdout open: SIGKILL after
 * the grace period reaches it; the reason names the deadline, not the
 * (longer) time it took to kill the group. */
static void test_hang_term_ignored(void)
{
	char pidfile[128], body[512];
	const char *s;
	const char *argv[3] = {"sh", NULL, NULL};
	struct plan_metric ms[] = {{.name = "throughput", .bytes = 1}};
	struct engine_result res;
	struct buf b = BUF_INIT;
	long sh_pid = 0, gc = 0;

	snprintf(pidfile, sizeof pidfile, "%s/pids2", dir);
	snprintf(body, sizeof body,
		 "(trap '' TERM; while :; do sleep 0.1; done) &\n"
		 "trap '' TERM\necho $$ $! > %s\nsleep 30\n",
		 pidfile);
	s = write_script("hang2.sh", body);
	argv[1] = s;
	run_with(ms, 1, argv, 0.5, &res);
	is_str(run_status_name(res.status), "timeout", "TERM ignored: timeout");
	ok(strstr(res.reason, "0.5 s deadline") != NULL,
	   "reason names the deadline: %s", res.reason);
	ok(res.elapsed >= 0.5 && res.elapsed < 5, "killed after grace (%.2f s)",
	   res.elapsed);
	engine_result_release(&res);
	if (buf_read_file(&b, pidfile, 0) == 0 && b.s &&
	    sscanf(b.s, "%ld %ld", &sh_pid, &gc) == 2) {
		usleep(100000);
		ok(kill((pid_t)-sh_pid, 0) < 0 && errno == ESRCH,
		   "no process of group %ld survives", sh_pid);
		ok(kill((pid_t)gc, 0) < 0 && errno == ESRCH,
		   "the TERM-ignoring grandchild %ld is gone", gc);
	} else {
		ok(0, "hang2 script wrote its pids");
	}
	unlink(pidfile);
	unlink(s);
	buf_release(&b);
}

static int diag_has(const struct xr_diag *d, int line, const char *s)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if (d->items[i].line == line && strstr(d->items[i].msg, s))
			return 1;
	return 0;
}

static void test_check(void)
{
	struct plan p;
	struct plan_metric ms[] = {
	    {.name = "throughput", .json = "/a", .unit = "B/s", .pos = {1}},
	    {.name = "two", .json = "/a", .regex = "(x)", .pos = {2}},
	    {.name = "none", .pos = {3}},
	    {.name = "unit", .json = "/a", .unit = "furlong/s", .pos = {4}},
	    {.name = "re", .regex = "([0-9", .pos = {5}},
	    {.name = "nocap", .regex = "[0-9]+", .pos = {6}},
	    {.name = "ptr", .json = "a/b", .pos = {7}},
	    {.name = "copy", .bytes = 100, .unit = "ms", .pos = {8}},
	};
	struct plan_kv kv[] = {{"parallel", "2", {9, 3}}};
	struct plan_factor f = {0};
	struct xr_diag d;
	const char *run[] = {"speedtest", NULL};
	size_t i;

	memset(&p, 0, sizeof p);
	p.engine.type = "command";
	p.engine.pos.line = 20;
	p.engine.metrics = ms;
	p.engine.nmetrics = 8;
	p.engine.params = kv;
	p.engine.nparams = 1;
	f.name = "streams";
	f.param = "parallel";
	f.pos.line = 10;
	p.factors = &f;
	p.nfactors = 1;
	xr_diag_init(&d, "plan.yaml");
	engine_command.desc.check(&p, &d);
	for (i = 0; i < d.n; i++)
		printf("# %d: %s\n", d.items[i].line, d.items[i].msg);
	ok(!diag_has(&d, 1, ""), "good metric passes");
	ok(diag_has(&d, 2, "exactly one"), "two sources");
	ok(diag_has(&d, 3, "exactly one"), "no source");
	ok(diag_has(&d, 4, "unknown unit 'furlong/s'"), "unknown unit");
	ok(diag_has(&d, 5, "bad regex"), "regex does not compile");
	ok(diag_has(&d, 6, "capture group"), "regex without a group");
	ok(diag_has(&d, 7, "must start with '/'"), "pointer without /");
	ok(diag_has(&d, 8, "B/s"), "bytes metric with a time unit");
	ok(diag_has(&d, 9, "no parameter 'parallel'"), "engine param");
	ok(diag_has(&d, 10, "{{streams}}"), "factor param");
	ok(diag_has(&d, 20, "non-empty 'run'"), "missing run");
	is_int(d.nerr, 10, "error count");
	xr_diag_release(&d);

	p.engine.run.argv = run;
	p.engine.run.argc = 1;
	p.engine.nmetrics = 1;
	p.engine.nparams = 0;
	p.nfactors = 0;
	xr_diag_init(&d, "plan.yaml");
	engine_command.desc.check(&p, &d);
	is_int(d.nerr, 0, "a valid command engine");
	xr_diag_release(&d);
	ok(!engine_command.desc.has_param("parallel"), "no params");
}

/* The command's own intervals: `xrun-interval START END VALUE [UNIT]`
 * lines in the primary metric's unit unless a line names one; a bad line
 * fails the run (schema/plan.md, "Intervals"). */
static void test_intervals(void)
{
	char s[160], bad[160];
	const char *argv[] = {"sh", s, NULL};
	struct plan_metric ms[] = {
	    {.name = "latency", .regex = "total ([0-9.]+)", .unit = "ms"},
	    {.name = "throughput", .regex = "total ([0-9.]+)", .unit = "MB/s"},
	};
	struct engine_result res;

	snprintf(s, sizeof s, "%s",
		 write_script("iv.sh", "echo 'tool starting'\n"
				       "echo 'xrun-interval 0 1 12.5'\n"
				       "echo 'xrun-interval 1 2.5 3 Gbit/s'\n"
				       "echo 'not xrun-interval 9 9 9'\n"
				       "echo 'total 11.25'\n"));
	snprintf(bad, sizeof bad, "%s",
		 write_script("ivbad.sh", "echo 'total 1'\n"
					  "echo 'xrun-interval 2 1 5'\n"));
	run_with(ms, 2, argv, 10, &res);
	ok(res.status == RUN_OK, "intervals beside metrics: %s", res.reason);
	is_int(res.nintervals, 2, "two xrun-interval lines, one look-alike");
	if (res.nintervals == 2) {
		is_near(res.iv_value[0], 12.5e6 * 8, 1e-6,
			"the primary metric's unit (MB/s -> bit/s)");
		is_near(res.iv_start[1], 1, 0, "start");
		is_near(res.iv_end[1], 2.5, 0, "end");
		is_near(res.iv_value[1], 3e9, 1e-3, "a line's own unit");
	}
	engine_result_release(&res);

	run_with(ms, 1, argv, 10, &res);
	is_near(res.nintervals == 2 ? res.iv_value[0] : NAN, 12.5e-3, 1e-15,
		"only latency: its unit (ms -> s)");
	engine_result_release(&res);

	argv[1] = bad;
	run_with(ms, 2, argv, 10, &res);
	is_str(run_status_name(res.status), "failed", "a bad line fails");
	ok(strstr(res.reason, "stdout line 2: bad interval line "
			      "'xrun-interval 2 1 5'") != NULL,
	   "reason: %s", res.reason);
	engine_result_release(&res);
}

int main(void)
{
	tap_plan(74);
	struct plan_host ph = {0};
	struct xr_err err;
	struct buf rm = BUF_INIT;

	snprintf(dir, sizeof dir, "/tmp/xrun-test-cmd-XXXXXX");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	ph.name = "local";
	if (host_open(&ph, NULL, &h, &err) < 0) {
		ok(0, "host_open local: %s", err.msg);
		return tap_done();
	}
	test_check();
	test_json();
	test_regex_and_garbage();
	test_json_and_text();
	test_intervals();
	test_bytes_and_failure();
	test_hang();
	test_hang_term_ignored();
	host_close(h);
	buf_addf(&rm, "%s/json.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/text.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/mixed.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/iv.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/ivbad.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/fail.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/hang.sh", dir);
	unlink(rm.s);
	buf_reset(&rm);
	buf_addf(&rm, "%s/pids", dir);
	unlink(rm.s);
	buf_release(&rm);
	rmdir(dir);
	return tap_done();
}
