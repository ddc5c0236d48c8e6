/*
 * Tests of the iperf3 engine: the -J parser on iperf3 3.12 outputs
 * captured on this machine (tests/data/iperf3), error and garbage inputs,
 * parameter validation and argv building, and real runs over loopback
 * with the server started by the engine: reno actually used, port taken,
 * a killed server restarted before the next run.
 *
 * SPDX-License-Identifier: MIT
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "host.h"
#include "iperf3_args.h"
#include "iperf3_json.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"

static const char *srcdir(void)
{
	const char *s = getenv("XRUN_SOURCE_DIR");
	return s ? s : XRUN_SOURCE_DIR;
}

static int parse_file(const char *name, struct iperf3_report *r,
		      struct xr_err *err)
{
	struct buf path = BUF_INIT, b = BUF_INIT;
	int rc;
	buf_addf(&path, "%s/tests/data/iperf3/%s", srcdir(), name);
	if (buf_read_file(&b, path.s, 0) < 0) {
		ok(0, "read %s", path.s);
		buf_release(&path);
		memset(r, 0, sizeof *r);
		return -1;
	}
	rc = iperf3_json_parse(b.s, b.len, r, err);
	buf_release(&path);
	buf_release(&b);
	return rc;
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

static const char *observed(const struct engine_result *res, const char *key)
{
	int i;
	for (i = 0; i < res->nobserved; i++)
		if (strcmp(res->observed[i].key, key) == 0)
			return res->observed[i].value;
	return NULL;
}

static double mval(const struct engine_result *res, const char *name)
{
	const struct engine_metric *m = metric(res, name);
	return m ? m->value : NAN;
}

/* Expected values come from python's json module on the same files. */
static void test_fixtures(void)
{
	struct iperf3_report r;
	struct engine_result res = {0};
	struct xr_err err;
	int rc;

	rc = parse_file("tcp.json", &r, &err);
	is_int(rc, 0, "tcp.json parses");
	is_near(r.recv_bps, 25843315156.20532, 1e-3, "tcp receiver bit/s");
	is_near(r.recv_bytes, 6461849600.0, 0, "tcp receiver bytes");
	is_near(r.sent_bps, 25844749313.1954, 1e-3, "tcp sender bit/s");
	is_int(r.nintervals, 2, "tcp: 2 intervals");
	is_near(r.iv_bps[1], 25161301168.14282, 1e-3, "tcp interval 2");
	is_str(r.congestion, "bbr", "tcp congestion");
	is_near(r.mss, 32768, 0, "tcp mss default");
	is_near(r.sndbuf, 16384, 0, "sndbuf_actual");
	is_near(r.rcvbuf, 131072, 0, "rcvbuf_actual");
	is_str(r.version, "iperf 3.12", "version");
	rc = iperf3_report_to_result(&r, &res);
	is_int(rc, 0, "tcp to result");
	ok(res.nmetrics > 0 && strcmp(res.metrics[0].name, "throughput") == 0,
	   "throughput is metrics[0]");
	is_str(res.metrics[0].unit, "bit/s", "throughput unit");
	is_near(mval(&res, "retransmits"), 0, 0, "tcp retransmits");
	is_near(mval(&res, "cpu_host"), 97.5998225310608, 1e-9, "cpu_host");
	is_near(mval(&res, "cpu_remote"), 71.89383751680973, 1e-9,
		"cpu_remote");
	is_str(metric(&res, "cpu_host")->unit, "%", "cpu unit");
	is_near(mval(&res, "bytes"), 6461849600.0, 0, "bytes metric");
	is_str(observed(&res, "congestion"), "bbr", "observed congestion");
	is_str(observed(&res, "mss"), "32768", "observed mss");
	is_str(observed(&res, "version"), "iperf 3.12", "observed version");
	is_int(res.nintervals, 2, "result intervals");
	ok(!metric(&res, "jitter"), "no jitter for TCP");
	iperf3_report_release(&r);
	engine_result_release(&res);

	rc = parse_file("parallel4.json", &r, &err);
	is_int(rc, 0, "-P 4 parses");
	is_near(r.recv_bps, 23872079905.076736, 1e-3, "-P 4 receiver");
	is_int(r.num_streams, 4, "-P 4 streams");
	iperf3_report_release(&r);

	rc = parse_file("reverse.json", &r, &err);
	is_int(rc, 0, "-R parses");
	is_near(r.recv_bps, 18000130186.401985, 1e-3, "-R receiver");
	is_int(r.reverse, 1, "-R flag seen");
	iperf3_report_release(&r);

	rc = parse_file("bidir.json", &r, &err);
	is_int(rc, 0, "--bidir parses");
	rc = iperf3_report_to_result(&r, &res);
	is_int(rc, 0, "bidir to result");
	is_near(mval(&res, "throughput"),
		5983451366.773685 + 12011985685.846525, 1e-2,
		"bidir throughput = both receivers");
	is_near(mval(&res, "throughput_up"), 5983451366.773685, 1e-3,
		"bidir up");
	is_near(mval(&res, "throughput_down"), 12011985685.846525, 1e-3,
		"bidir down");
	is_near(mval(&res, "retransmits"), 16, 0, "bidir retransmits summed");
	is_near(res.iv_value[0], 18399435592.277935, 1e-2,
		"bidir interval sums both directions");
	iperf3_report_release(&r);
	engine_result_release(&res);

	rc = parse_file("udp.json", &r, &err);
	is_int(rc, 0, "udp parses");
	rc = iperf3_report_to_result(&r, &res);
	is_int(rc, 0, "udp to result");
	is_near(mval(&res, "throughput"), 100120185.40514383, 1e-3,
		"udp receiver");
	is_near(mval(&res, "jitter"), 0.008637239973912436e-3, 1e-15,
		"udp jitter in s");
	is_str(metric(&res, "jitter")->unit, "s", "jitter unit");
	is_near(mval(&res, "lost_packets"), 0, 0, "udp lost");
	is_near(mval(&res, "packets"), 382, 0, "udp packets");
	ok(!metric(&res, "retransmits"), "no retransmits for UDP");
	ok(!observed(&res, "mss"), "no mss for UDP");
	iperf3_report_release(&r);
	engine_result_release(&res);

	rc = parse_file("reno.json", &r, &err);
	is_int(rc, 0, "-C reno parses");
	is_str(r.congestion, "reno", "-C reno: sender congestion");
	is_str(r.receiver_congestion, "reno", "-C reno: receiver congestion");
	iperf3_report_release(&r);

	rc = parse_file("omit_reno.json", &r, &err);
	is_int(rc, 0, "-O 1 parses");
	is_int(r.nintervals, 1, "omitted interval left out");
	is_near(r.iv_bps[0], 34791195923.87767, 1e-3, "kept interval");
	iperf3_report_release(&r);
}

/* The series (host, name) of res, or NULL. */
static const struct series *ser(const struct engine_result *res,
				const char *host, const char *name)
{
	return series_set_find(&res->series, host, name);
}

static double ser_v(const struct engine_result *res, const char *host,
		    const char *name, size_t i)
{
	const struct series *s = ser(res, host, name);
	return s && i < s->n ? s->v[i] : NAN;
}

/* One recording made with --get-server-output against a -J server
 * (tests/data/iperf3/README.md) into res, the client on host "cli" and
 * the server on "srv". */
static int load_srv(const char *name, struct iperf3_report *r,
		    struct engine_result *res)
{
	struct xr_err err;
	int rc = parse_file(name, r, &err);
	if (rc < 0) {
		ok(0, "%s parses: %s", name, err.msg);
		return rc;
	}
	snprintf(r->client_host, sizeof r->client_host, "cli");
	snprintf(r->server_host, sizeof r->server_host, "srv");
	memset(res, 0, sizeof *res);
	rc = iperf3_report_to_result(r, res);
	ok(rc == 0 && r->have_server, "%s: to result, server JSON seen", name);
	return rc;
}

/* Expected values: python3's json module on the same files (the
 * receiver's sums, runts under a quarter of the longest interval left
 * out; the sending streams' retransmits, snd_cwnd and snd_wnd summed, rtt and
 * rttvar averaged and turned from us into s). */
static void test_server_output(void)
{
	struct iperf3_report r;
	struct engine_result res;
	const struct series *s;
	struct xr_err err;

	if (load_srv("srv_tcp.json", &r, &res) == 0) {
		is_int(res.nintervals, 2,
		       "tcp: the server's 2 intervals "
		       "(its 9 ms runt left out)");
		is_near(res.iv_value[0], 5067570266.82544, 1e-3,
			"tcp: interval 1 is the receiver's");
		is_near(res.iv_value[1], 33341002710.31382, 1e-3,
			"tcp: interval 2 is the receiver's");
		is_near(res.iv_end[1], 2.000056, 1e-9, "tcp: server's times");
		is_str(res.iv_host, "srv", "tcp: intervals on the server");
		is_str(observed(&res, "interval_side"), "receiver",
		       "tcp: interval_side receiver");
		is_near(ser_v(&res, "cli", "engine.sender_throughput", 1),
			33497410189.62026, 1e-3, "tcp: sender's interval 2");
		is_near(ser_v(&res, "cli", "engine.retransmits", 0), 10, 0,
			"tcp: retransmits in interval 1");
		is_near(ser_v(&res, "cli", "engine.snd_cwnd", 1), 1047728, 0,
			"tcp: snd_cwnd in interval 2");
		is_near(ser_v(&res, "cli", "engine.snd_wnd", 0), 1470464, 0,
			"tcp: snd_wnd in interval 1");
		is_near(ser_v(&res, "cli", "engine.snd_wnd", 1), 0, 0,
			"tcp: snd_wnd 0 in interval 2 (as iperf3 wrote it)");
		is_near(ser_v(&res, "cli", "engine.rtt", 0), 31e-6, 1e-12,
			"tcp: rtt in interval 1 (s)");
		is_near(ser_v(&res, "cli", "engine.rttvar", 1), 11e-6, 1e-12,
			"tcp: rttvar in interval 2 (s)");
		s = ser(&res, "cli", "engine.rtt");
		ok(s && s->n == 2 && fabs(s->t[0] - 1.000861) < 1e-9 &&
		       !strcmp(s->unit, "s"),
		   "tcp: rtt at the interval's end, in s");
		ok(!ser(&res, "srv", "engine.rtt"), "tcp: no rtt on receiver");
		is_near(mval(&res, "rtt_mean"), 35e-6, 1e-12, "tcp rtt_mean");
		is_near(mval(&res, "rtt_min"), 31e-6, 1e-12, "tcp rtt_min");
		is_near(mval(&res, "rtt_max"), 39e-6, 1e-12, "tcp rtt_max");
		is_str(metric(&res, "rtt_mean")->unit, "s", "rtt unit");
		is_near(mval(&res, "retransmits"), 10, 0, "tcp retransmits");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);

	if (load_srv("srv_reverse.json", &r, &res) == 0) {
		is_int(res.nintervals, 2, "-R: the client's 2 intervals");
		is_near(res.iv_value[0], 15092722980.708946, 1e-3,
			"-R: interval 1 is the client's (receiver)");
		is_near(res.iv_value[1], 3704746069.9104657, 1e-3,
			"-R: interval 2 is the client's (receiver)");
		is_str(res.iv_host, "cli", "-R: intervals on the client");
		s = ser(&res, "srv", "engine.rtt");
		ok(s && s->n == 2, "-R: sender series on the server, the "
				   "55 ms runt left out");
		is_near(ser_v(&res, "srv", "engine.rtt", 0), 330e-6, 1e-12,
			"-R: server's rtt interval 1");
		is_near(ser_v(&res, "srv", "engine.rttvar", 1), 27e-6, 1e-12,
			"-R: server's rttvar interval 2");
		is_near(mval(&res, "rtt_mean"), 291e-6, 1e-12,
			"-R rtt_mean from the server's end");
		is_near(mval(&res, "rtt_min"), 53e-6, 1e-12, "-R rtt_min");
		is_near(mval(&res, "rtt_max"), 492e-6, 1e-12, "-R rtt_max");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);

	if (load_srv("srv_udp.json", &r, &res) == 0) {
		is_int(res.nintervals, 2, "-u: 2 intervals");
		is_near(res.iv_value[0], 1048296.0747481065, 1e-6,
			"-u: interval 1 is the server's");
		is_near(res.iv_value[1], 1045956.933120228, 1e-6,
			"-u: interval 2 is the server's");
		is_near(ser_v(&res, "cli", "engine.sender_throughput", 0),
			1048460.6376933347, 1e-6, "-u: sender's interval 1");
		ok(!ser(&res, "cli", "engine.rtt") && !metric(&res, "rtt_mean"),
		   "-u: no rtt");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);

	if (load_srv("srv_parallel2.json", &r, &res) == 0) {
		is_near(res.iv_value[0], 6030438915.8788, 1e-3,
			"-P 2: the server's sum");
		is_near(res.iv_value[1], 3280486437.833545, 1e-3,
			"-P 2: the server's sum, interval 2");
		is_near(ser_v(&res, "cli", "engine.retransmits", 0), 7, 0,
			"-P 2: retransmits summed over streams");
		is_near(ser_v(&res, "cli", "engine.snd_cwnd", 0), 9298586, 0,
			"-P 2: snd_cwnd summed over streams");
		is_near(ser_v(&res, "cli", "engine.snd_wnd", 0), 65027072, 0,
			"-P 2: snd_wnd summed over streams");
		is_near(ser_v(&res, "cli", "engine.rtt", 0), 3732.5e-6, 1e-12,
			"-P 2: rtt averaged over streams");
		is_near(mval(&res, "rtt_mean"), 2996.5e-6, 1e-12,
			"-P 2 rtt_mean over streams");
		is_near(mval(&res, "rtt_min"), 962e-6, 1e-12, "-P 2 rtt_min");
		is_near(mval(&res, "rtt_max"), 6181e-6, 1e-12, "-P 2 rtt_max");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);

	if (load_srv("srv_bidir.json", &r, &res) == 0) {
		is_int(res.nintervals, 2, "--bidir: 2 intervals");
		is_near(res.iv_value[0],
			1480727557.8453476 + 1472383300.4147582, 1e-3,
			"--bidir: both receivers summed");
		is_near(res.iv_value[1], 1593545298.1541948 + 1466073037.536849,
			1e-3, "--bidir: both receivers summed, interval 2");
		is_near(res.iv_end[0], 1.020443, 1e-9, "--bidir: client times");
		is_str(res.iv_host, "cli", "--bidir: intervals on the client");
		is_near(ser_v(&res, "cli", "engine.sender_throughput", 0),
			1488948113.3365083, 1e-3, "--bidir: up sender");
		is_near(ser_v(&res, "srv", "engine.sender_throughput", 0),
			1514153039.4336166, 1e-3, "--bidir: down sender");
		is_near(ser_v(&res, "srv", "engine.retransmits", 1), 1, 0,
			"--bidir: server's retransmits");
		is_near(mval(&res, "rtt_mean"), 336e-6, 1e-12,
			"--bidir rtt_mean over both senders");
		is_near(mval(&res, "rtt_min"), 187e-6, 1e-12,
			"--bidir rtt_min");
		is_near(mval(&res, "rtt_max"), 589e-6, 1e-12,
			"--bidir rtt_max");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);

	/* no server JSON (an old or text-mode server): the client's own
	 * intervals, said to be the sender's */
	if (parse_file("tcp.json", &r, &err) == 0) {
		memset(&res, 0, sizeof res);
		iperf3_report_to_result(&r, &res);
		is_str(observed(&res, "interval_side"), "sender",
		       "no server JSON: interval_side sender");
		is_str(res.iv_host, "client", "no labels: role names");
	}
	iperf3_report_release(&r);
	engine_result_release(&res);
}

static void test_errors(void)
{
	struct iperf3_report r;
	struct xr_err err;
	static const char *const bad[] = {
	    "",
	    "   \n",
	    "iperf3: error - unable to connect to server",
	    "{\"start\": {\"version\": \"iperf 3.12\"}, \"end\": {",
	    "[1,2,3]",
	    "{\"end\": {\"sum_received\": {\"bits_per_second\": \"fast\"}}}",
	    "{\"end\": {\"sum_received\": []}, \"intervals\": 7}",
	    "{\"end\": 5, \"start\": \"x\", \"intervals\": [1, {\"sum\": 2}]}",
	};
	size_t i;
	int rc;

	xr_err_clear(&err);
	rc = parse_file("refused.json", &r, &err);
	is_int(rc, -XR_EENGINE, "refused connection is an engine error");
	is_str(err.msg, "unable to connect to server: Connection refused",
	       "refused: iperf3's own text");
	iperf3_report_release(&r);

	rc = parse_file("badcc.json", &r, &err);
	is_int(rc, -XR_EENGINE,
	       "unknown congestion control is an engine error");
	ok(strstr(err.msg, "TCP_CONGESTION") != NULL, "badcc reason: %s",
	   err.msg);
	iperf3_report_release(&r);

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		xr_err_clear(&err);
		ok(iperf3_json_parse(bad[i], strlen(bad[i]), &r, &err) ==
		       -XR_EPARSE,
		   "bad input %zu is a parse error", i);
		ok(err.msg[0] != '\0', "reason: %s", err.msg);
		iperf3_report_release(&r);
	}
	/* not NUL-terminated: only len bytes may be read */
	{
		char t[] = {'{', '}', 'x'};
		rc = iperf3_json_parse(t, 2, &r, &err);
		is_int(rc, -XR_EPARSE, "length respected");
		iperf3_report_release(&r);
	}
	{
		const char *e = "{\"error\": 42}";
		rc = iperf3_json_parse(e, strlen(e), &r, &err);
		is_int(rc, -XR_EENGINE, "non-string error still an error");
		iperf3_report_release(&r);
	}
}

static int has_word(char **argv, const char *a, const char *b)
{
	int i;
	for (i = 0; argv && argv[i]; i++)
		if (strcmp(argv[i], a) == 0 &&
		    (!b || (argv[i + 1] && strcmp(argv[i + 1], b) == 0)))
			return 1;
	return 0;
}

static void test_argv(void)
{
	struct engine_param ps[] = {
	    {"parallel", "2"},
	    {"reverse", "yes"},
	    {"udp", "false"},
	    {"bitrate", "500M"},
	    {"congestion", "reno"},
	    {"window", "4Mi"},
	    {"length", "128K"},
	    {"port", "5300"},
	    {"extra", " --get-server-output  -N "},
	    {"parallel", "8"}, /* a factor after the engine section wins */
	};
	struct engine_request rq = {0};
	struct xr_err err;
	struct buf js = BUF_INIT;
	char **argv;

	rq.params = ps;
	rq.nparams = (int)(sizeof ps / sizeof ps[0]);
	rq.target = "127.0.0.1";
	rq.duration = 3;
	rq.omit = 1;
	argv = iperf3_args_build(&rq, &err);
	ok(argv != NULL, "argv built");
	if (!argv)
		return;
	is_str(argv[0], "iperf3", "argv[0]");
	ok(has_word(argv, "-c", "127.0.0.1"), "-c target");
	ok(has_word(argv, "-t", "3"), "-t 3");
	ok(has_word(argv, "-O", "1"), "-O 1");
	ok(has_word(argv, "-J", NULL), "-J always");
	ok(has_word(argv, "-P", "8"), "-P from the later param");
	ok(!has_word(argv, "-P", "2"), "earlier parallel overridden");
	ok(has_word(argv, "-R", NULL), "-R");
	ok(!has_word(argv, "-u", NULL), "udp false: no -u");
	ok(has_word(argv, "-b", "500000000"), "-b as an integer");
	ok(has_word(argv, "-C", "reno"), "-C reno");
	ok(has_word(argv, "-w", "4194304"), "-w 4Mi");
	ok(has_word(argv, "-l", "128K"), "-l 128K verbatim: iperf3's K");
	ok(has_word(argv, "-p", "5300"), "-p");
	ok(has_word(argv, "--connect-timeout", "3000"), "--connect-timeout");
	ok(has_word(argv, "--get-server-output", NULL) &&
	       has_word(argv, "-N", NULL),
	   "extra words appended");
	engine_argv_json((const char *const *)argv, &js);
	ok(strncmp(js.s, "[\"iperf3\",\"-c\",\"127.0.0.1\"", 26) == 0,
	   "argv json: %s", js.s);
	buf_release(&js);
	engine_argv_free(argv);

	{
		struct engine_param bad[] = {{"parallel", "0"}};
		rq.params = bad;
		rq.nparams = 1;
		argv = iperf3_args_build(&rq, &err);
		ok(!argv && strstr(err.msg, "parallel"), "bad value: %s",
		   err.msg);
	}
	{
		struct engine_param bad[] = {{"congestion", "-s"}};
		rq.params = bad;
		rq.nparams = 1;
		argv = iperf3_args_build(&rq, &err);
		ok(!argv, "an option-looking value is refused");
	}
	rq.nparams = 0;
	rq.target = "-s";
	argv = iperf3_args_build(&rq, &err);
	ok(!argv, "an option-looking target is refused");
	ok(iperf3_args_has_param("bidir") && !iperf3_args_has_param("paralel"),
	   "has_param");
}

static int diag_has(const struct xr_diag *d, int line, const char *s)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if ((line == 0 || d->items[i].line == line) &&
		    strstr(d->items[i].msg, s))
			return 1;
	return 0;
}

static void test_check(void)
{
	struct plan p;
	struct plan_kv kv[] = {
	    {"paralel", "4", {3, 5}},	  {"bitrate", "fast", {4, 5}},
	    {"reverse", "maybe", {5, 5}}, {"congestion", "{{cc}}", {6, 5}},
	    {"port", "70000", {7, 5}},	  {"window", "4M", {8, 5}},
	};
	const char *lv_ok[] = {"1", "4"}, *lv_bad[] = {"1", "200"};
	struct plan_pos lp[] = {{12, 20}, {12, 23}};
	struct plan_factor f[3];
	struct xr_diag d;
	size_t i;

	memset(&p, 0, sizeof p);
	memset(f, 0, sizeof f);
	p.engine.type = "iperf3";
	p.engine.params = kv;
	p.engine.nparams = (int)(sizeof kv / sizeof kv[0]);
	p.engine.duration = 10;
	f[0].name = "streams";
	f[0].param = "parallel";
	f[0].levels = lv_ok;
	f[0].nlevels = 2;
	f[0].pos.line = 11;
	f[1].name = "many";
	f[1].param = "parallel";
	f[1].levels = lv_bad;
	f[1].level_pos = lp;
	f[1].nlevels = 2;
	f[1].pos.line = 12;
	f[2].name = "cc";
	f[2].param = "congestion_control";
	f[2].pos.line = 13;
	p.factors = f;
	p.nfactors = 3;
	xr_diag_init(&d, "plan.yaml");
	engine_iperf3.desc.check(&p, &d);
	for (i = 0; i < d.n; i++)
		printf("# %d:%d: %s\n", d.items[i].line, d.items[i].col,
		       d.items[i].msg);
	ok(diag_has(&d, 3,
		    "unknown iperf3 parameter 'paralel'; did you "
		    "mean 'parallel'"),
	   "unknown key with did-you-mean");
	ok(diag_has(&d, 3, "valid: parallel, reverse"), "valid list");
	ok(diag_has(&d, 4, "'fast'"), "bad bitrate");
	ok(diag_has(&d, 5, "'maybe'") && diag_has(&d, 5, "true or false"),
	   "bad boolean");
	ok(!diag_has(&d, 6, ""), "template value left for later");
	ok(diag_has(&d, 7, "1..65535"), "bad port");
	ok(!diag_has(&d, 8, ""), "window 4M fine");
	ok(!diag_has(&d, 11, ""), "good factor levels");
	ok(diag_has(&d, 12, "factor 'many'") && diag_has(&d, 12, "'200'"),
	   "bad factor level with its position");
	ok(diag_has(&d, 13,
		    "'congestion_control'; did you mean "
		    "'congestion'"),
	   "unknown factor param");
	is_int(d.nerr, 6, "error count");
	xr_diag_release(&d);
}

/* ---- real runs -------------------------------------------------------- */

/* pid of "iperf3 -s -p PORT" among our processes, found via /proc */
static long server_pid(int port)
{
	char want[64], path[300], cmd[256];
	struct dirent *de;
	DIR *d = opendir("/proc");
	long pid = -1;
	int n =
	    snprintf(want, sizeof want, "iperf3%c-s%c-p%c%d", 0, 0, 0, port);
	while (d && (de = readdir(d)) && pid < 0) {
		FILE *f;
		size_t got;
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		got = fread(cmd, 1, sizeof cmd, f);
		fclose(f);
		if (got > (size_t)n && memcmp(cmd, want, (size_t)n + 1) == 0)
			pid = atol(de->d_name);
	}
	if (d)
		closedir(d);
	return pid;
}

static void test_real(void)
{
	struct plan_host ph = {0};
	struct plan p;
	struct plan_kv kv[1];
	struct engine_param ps[3];
	struct engine_request rq = {0};
	struct engine_result res = {0};
	struct host *h = NULL;
	struct xr_err err;
	void *st = NULL;
	char port[16];
	int rc, lsock;
	long pid;

	if (!proc_which("iperf3")) {
		tap_skip("real runs: iperf3 not installed");
		return;
	}
	ph.name = "local";
	if (host_open(&ph, NULL, &h, &err) < 0) {
		ok(0, "host_open local: %s", err.msg);
		return;
	}
	snprintf(port, sizeof port, "%d", tap_free_port());
	memset(&p, 0, sizeof p);
	kv[0].key = "port";
	kv[0].value = port;
	p.engine.type = "iperf3";
	p.engine.server_start = 1;
	p.engine.params = kv;
	p.engine.nparams = 1;
	p.engine.duration = 1;

	rc = engine_iperf3.open(&p, h, h, &st, &err);
	is_int(rc, 0, "open starts the server");
	if (rc < 0) {
		printf("# %s\n", err.msg);
		host_close(h);
		return;
	}
	ps[0].key = "port";
	ps[0].value = port;
	ps[1].key = "parallel";
	ps[1].value = "2";
	ps[2].key = "congestion";
	ps[2].value = "reno";
	rq.params = ps;
	rq.nparams = 3;
	rq.target = host_address(h);
	rq.duration = 1;
	rq.timeout = 15;
	rc = engine_iperf3.run(st, &p, &rq, &res);
	is_int(rc, 0, "run returns 0");
	is_str(run_status_name(res.status), "ok", "run ok");
	printf("# reason: %s\n", res.reason);
	ok(res.nmetrics > 0 && res.metrics[0].value > 100e6,
	   "throughput plausible: %g bit/s",
	   res.nmetrics ? res.metrics[0].value : 0);
	is_str(observed(&res, "congestion"), "reno", "reno actually used");
	is_str(observed(&res, "parallel"), "2", "2 streams");
	ok(res.nintervals >= 1, "intervals present (%d)", res.nintervals);
	is_str(observed(&res, "interval_side"), "receiver",
	       "a -J server gives the receiver's intervals");
	is_str(res.iv_host, "local", "intervals on the server host");
	ok(ser(&res, "local", "engine.rtt") &&
	       ser(&res, "local", "engine.rtt")->n >= 1 &&
	       metric(&res, "rtt_mean"),
	   "rtt series and rtt_mean from a real run");
	ok(res.raw && strstr(res.raw, "\"end\""), "raw JSON kept");
	ok(res.argv_json && strstr(res.argv_json, "\"-C\",\"reno\""),
	   "argv_json: %s", res.argv_json ? res.argv_json : "");
	ok(res.elapsed > 0.9 && res.elapsed < 10, "elapsed %g", res.elapsed);
	engine_result_release(&res);

	/* a server killed mid-session is back before the next run */
	pid = server_pid(atoi(port));
	ok(pid > 0, "server pid found (%ld)", pid);
	if (pid > 0) {
		kill((pid_t)pid, SIGKILL);
		usleep(200000);
		rc = engine_iperf3.run(st, &p, &rq, &res);
		is_str(run_status_name(res.status), "ok",
		       "run after the server was killed");
		printf("# reason: %s\n", res.reason);
		ok(observed(&res, "server_restarted") != NULL,
		   "restart recorded: %s",
		   observed(&res, "server_restarted")
		       ? observed(&res, "server_restarted")
		       : "(none)");
		engine_result_release(&res);
	}

	/* a bad congestion control: exit 0 but "error" in the JSON */
	ps[2].value = "nosuchcc";
	rc = engine_iperf3.run(st, &p, &rq, &res);
	is_str(run_status_name(res.status), "failed", "unknown cc fails");
	ok(strstr(res.reason, "TCP_CONGESTION") != NULL, "reason: %s",
	   res.reason);
	engine_result_release(&res);
	engine_iperf3.close(st);
	st = NULL;

	/* no server (closed by close()): refused, reported from the JSON */
	ps[2].value = "reno";
	p.engine.server_start = 0;
	rc = engine_iperf3.open(&p, h, h, &st, &err);
	rc = engine_iperf3.run(st, &p, &rq, &res);
	is_str(run_status_name(res.status), "failed", "refused fails");
	ok(strstr(res.reason, "Connection refused") != NULL, "reason: %s",
	   res.reason);
	is_int(res.exit_code, 0, "iperf3 exited 0 nonetheless");
	engine_result_release(&res);
	engine_iperf3.close(st);
	st = NULL;

	/* the port is taken: a clear environment error */
	{
		struct sockaddr_in6 a;
		int one = 1;
		lsock = socket(AF_INET6, SOCK_STREAM, 0);
		memset(&a, 0, sizeof a);
		a.sin6_family = AF_INET6;
		a.sin6_port = htons((unsigned short)atoi(port));
		setsockopt(lsock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		ok(lsock >= 0 &&
		       bind(lsock, (struct sockaddr *)&a, sizeof a) == 0 &&
		       listen(lsock, 1) == 0,
		   "took the port");
		p.engine.server_start = 1;
		rc = engine_iperf3.open(&p, h, h, &st, &err);
		is_int(rc, -XR_EENV, "port taken: environment error");
		ok(strstr(err.msg, "already in use") && strstr(err.msg, port) &&
		       strstr(err.msg, "'local'"),
		   "port taken message: %s", err.msg);
		if (rc == 0)
			engine_iperf3.close(st);
		close(lsock);
	}
	host_close(h);
}

int main(void)
{
	tap_plan(193);
	test_fixtures();
	test_server_output();
	test_errors();
	test_argv();
	test_check();
	test_real();
	return tap_done();
}
