/*
 * The responsiveness and speed-test engines (engine_resp.c): each parser
 * on the outputs under tests/data/resp (their sources in its README),
 * an optional key absent, a required one missing, output that is not
 * JSON, and one real run on the local host of a stand-in `networkQuality`
 * (a script that prints a recorded file: the real tool runs only on
 * macOS) found through PATH, and its failure when the tool exits non-zero.
 * Expected values: the files' numbers times the unit factor (bytes/s * 8,
 * ms * 1e-3, librespeed Mbit/s * 1e6), computed with python3.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "engine_resp.h"
#include "host.h"
#include "plan.h"
#include "tap.h"

static const char *src;

static const struct engine_metric *metric(const struct engine_result *r,
					  const char *name)
{
	int i;
	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static void near(const struct engine_result *r, const char *name, double want,
		 const char *unit)
{
	const struct engine_metric *m = metric(r, name);
	ok(m && fabs(m->value - want) <= 1e-9 * fabs(want) + 1e-12 &&
	       !strcmp(m->unit, unit),
	   "%s = %.9g %s (got %.9g %s)", name, want, unit, m ? m->value : NAN,
	   m ? m->unit : "-");
}

static int parse_file(const struct engine_ops *e, const char *file,
		      struct engine_result *r)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	int rc;
	memset(r, 0, sizeof *r);
	buf_addf(&path, "%s/tests/data/resp/%s", src, file);
	rc = buf_read_file(&text, path.s, 1 << 20);
	ok(rc == 0, "read %s", path.s);
	rc = rc ? rc : engine_resp_parse(e, text.s, text.len, r);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

static void test_networkquality(void)
{
	struct engine_result r;
	is_int(parse_file(&engine_networkquality, "networkquality-12.json", &r),
	       0, "networkQuality (macOS 12) parses");
	ok(r.nmetrics > 0 && !strcmp(r.metrics[0].name, "throughput"),
	   "throughput is metrics[0]");
	near(&r, "throughput", 412368104, "bit/s");
	near(&r, "throughput_up", 37810288, "bit/s");
	near(&r, "rpm", 967, "1");
	near(&r, "latency.idle", 0.02125, "s");
	ok(!metric(&r, "rpm_down"), "no dl_responsiveness: no rpm_down");
	engine_result_release(&r);

	is_int(parse_file(&engine_networkquality, "networkquality-14.json", &r),
	       0, "networkQuality (macOS 14) parses");
	near(&r, "throughput", 935120440, "bit/s");
	near(&r, "rpm_down", 512, "1");
	near(&r, "rpm_up", 1044, "1");
	near(&r, "latency.idle", 0.0185, "s");
	engine_result_release(&r);
}

static void test_speedtest(void)
{
	struct engine_result r;
	is_int(parse_file(&engine_speedtest, "speedtest.json", &r), 0,
	       "speedtest -f json parses");
	near(&r, "throughput", 67360000, "bit/s");
	near(&r, "throughput_up", 69350000, "bit/s");
	near(&r, "latency.idle", 0.004261, "s");
	near(&r, "jitter", 0.000532, "s");
	near(&r, "loss", 0.4, "%");
	near(&r, "latency.loaded_down", 0.038114, "s");
	near(&r, "latency.loaded_up", 0.0615, "s");
	engine_result_release(&r);

	is_int(parse_file(&engine_speedtest, "speedtest-noloss.json", &r), 0,
	       "speedtest without packetLoss parses");
	near(&r, "throughput", 10000000, "bit/s");
	near(&r, "throughput_up", 5000000, "bit/s");
	near(&r, "latency.idle", 0.0125, "s");
	ok(!metric(&r, "loss") && !metric(&r, "latency.loaded_down"),
	   "absent optional keys are skipped, not zero");
	engine_result_release(&r);
}

static void test_librespeed(void)
{
	struct engine_result r;
	const char *two = "[{\"ping\":4,\"download\":2.5,\"upload\":1},"
			  "{\"ping\":9,\"download\":7,\"upload\":3}]";
	const char *banner = "Retrieving server list\n[{\"ping\":1,"
			     "\"download\":2,\"upload\":1.5}]\n";
	is_int(parse_file(&engine_librespeed, "librespeed.json", &r), 0,
	       "librespeed-cli --json parses");
	ok(r.nmetrics > 0 && !strcmp(r.metrics[0].name, "throughput"),
	   "throughput is metrics[0]");
	near(&r, "throughput", 93470000, "bit/s");
	near(&r, "throughput_up", 41080000, "bit/s");
	near(&r, "latency.idle", 0.01235, "s");
	near(&r, "jitter", 0.00127, "s");
	near(&r, "bytes_received", 175243264, "B");
	near(&r, "bytes_sent", 77070336, "B");
	engine_result_release(&r);

	memset(&r, 0, sizeof r);
	is_int(engine_resp_parse(&engine_librespeed, two, strlen(two), &r), 0,
	       "two servers' reports parse");
	near(&r, "throughput", 2500000, "bit/s");
	near(&r, "latency.idle", 0.004, "s");
	ok(!metric(&r, "jitter"), "no jitter key: no jitter metric");
	engine_result_release(&r);
	is_int(
	    engine_resp_parse(&engine_librespeed, banner, strlen(banner), &r),
	    0, "an array after a progress line is read");
	near(&r, "throughput_up", 1500000, "bit/s");
	engine_result_release(&r);
	is_int(engine_resp_parse(&engine_librespeed, "[]\n", 3, &r), -XR_EPARSE,
	       "no report (the server did not respond) fails");
	ok(strstr(r.reason, "librespeed-cli output has no number at "
			    "'/0/download'") != NULL,
	   "the reason names the key: %s", r.reason);
	engine_result_release(&r);
	is_int(engine_resp_parse(&engine_librespeed, "{\"0\":{}}", 8, &r),
	       -XR_EPARSE, "an object is not an array of reports");
	engine_result_release(&r);
}

static void test_bad(void)
{
	struct engine_result r;
	const char *nokey = "{\"type\":\"result\",\"ping\":{\"latency\":3},"
			    "\"upload\":{\"bandwidth\":5}}";
	const char *banner = "Speedtest by Ookla\n{\"ping\":{\"latency\":2},"
			     "\"download\":{\"bandwidth\":1},"
			     "\"upload\":{\"bandwidth\":2}}\n";
	memset(&r, 0, sizeof r);
	is_int(engine_resp_parse(&engine_speedtest, nokey, strlen(nokey), &r),
	       -XR_EPARSE, "a required key missing fails");
	ok(strstr(r.reason, "'/download/bandwidth'") != NULL,
	   "the reason names the key: %s", r.reason);
	engine_result_release(&r);
	is_int(engine_resp_parse(&engine_networkquality, "oops\n", 5, &r),
	       -XR_EPARSE, "no JSON fails");
	ok(strstr(r.reason, "networkQuality printed no JSON") != NULL,
	   "the reason says so: %s", r.reason);
	engine_result_release(&r);
	is_int(engine_resp_parse(&engine_speedtest, banner, strlen(banner), &r),
	       0, "JSON after a banner line is read");
	near(&r, "throughput", 8, "bit/s");
	engine_result_release(&r);
	is_int(engine_resp_parse(&engine_command, "{}", 2, &r), -XR_EINTERNAL,
	       "the command engine has no preset");
	engine_result_release(&r);
}

/* A stand-in networkQuality on PATH: prints a recorded file, or fails. */
static void test_run(void)
{
	char dir[] = "/tmp/xrun-test-resp-XXXXXX";
	struct buf script = BUF_INIT, path = BUF_INIT, body = BUF_INIT;
	struct plan_host ph = {0};
	struct plan p;
	struct engine_request rq = {0};
	struct engine_result r;
	struct xr_err err;
	struct host *h = NULL;
	void *st = NULL;
	const char *old = getenv("PATH");
	FILE *f;

	ok(mkdtemp(dir) != NULL, "mkdtemp");
	buf_addf(&script, "%s/networkQuality", dir);
	buf_addf(&body,
		 "#!/bin/sh\n[ \"$1\" = -c ] || exit 9\n"
		 "[ -n \"$XR_FAIL\" ] && { echo 'no network' >&2; exit 1; }\n"
		 "cat '%s/tests/data/resp/networkquality-12.json'\n",
		 src);
	f = fopen(script.s, "w");
	ok(f != NULL, "write %s", script.s);
	if (!f)
		return;
	fputs(body.s, f);
	fclose(f);
	ok(chmod(script.s, 0755) == 0, "chmod");
	buf_addf(&path, "%s:%s", dir, old ? old : "/usr/bin:/bin");
	setenv("PATH", path.s, 1);
	memset(&p, 0, sizeof p);
	p.engine.type = "networkquality";
	ph.name = "local";
	ok(host_open(&ph, NULL, &h, &err) == 0, "host_open local");
	rq.timeout = 20;
	ok(engine_networkquality.open(&p, h, NULL, &st, &err) == 0, "open");
	memset(&r, 0, sizeof r);
	is_int(engine_networkquality.run(st, &p, &rq, &r), 0, "run");
	ok(r.status == RUN_OK, "the run is ok: %s", r.reason);
	near(&r, "throughput", 412368104, "bit/s");
	ok(r.argv_json && strstr(r.argv_json, "\"networkQuality\",\"-c\""),
	   "argv stored: %s", r.argv_json ? r.argv_json : "-");
	engine_result_release(&r);
	setenv("XR_FAIL", "1", 1);
	is_int(engine_networkquality.run(st, &p, &rq, &r), 0, "failing run");
	is_int(r.status, RUN_FAILED, "a non-zero exit fails the run");
	ok(strstr(r.reason, "networkQuality exited with status 1: no network"),
	   "the reason has the status and stderr: %s", r.reason);
	engine_result_release(&r);
	unsetenv("XR_FAIL");
	engine_networkquality.close(st);
	host_close(h);
	if (old)
		setenv("PATH", old, 1);
	unlink(script.s);
	rmdir(dir);
	buf_release(&script);
	buf_release(&path);
	buf_release(&body);
}

int main(void)
{
	src = getenv("XRUN_SOURCE_DIR");
	if (!src)
		src = XRUN_SOURCE_DIR;
	tap_plan(66);
	test_networkquality();
	test_librespeed();
	test_speedtest();
	test_bad();
	test_run();
	return tap_done();
}
