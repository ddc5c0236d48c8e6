/* Unit tests for proc: exit codes, capture, deadlines that kill whole
 * process groups, exec failures, interrupts and background children.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pthread.h> /* not C11 threads: TSan does not follow them */
#include <unistd.h>

#include "proc.h"
#include "tap.h"

/* Gone, or a zombie nobody reaps (some container inits never reap). */
static int pid_gone(long pid)
{
	char path[64], st[512];
	FILE *f;
	char *rp;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (!fgets(st, sizeof st, f))
		st[0] = 0;
	fclose(f);
	rp = strrchr(st, ')');
	return rp && rp[1] == ' ' && rp[2] == 'Z';
}

static void run(const char *const *argv, double timeout, struct proc_result *r)
{
	struct proc_opts o = {0};
	struct xr_err e = {0};
	o.argv = argv;
	o.timeout = timeout;
	o.grace = 0.5;
	if (proc_run(&o, r, &e) < 0)
		fprintf(stderr, "proc_run: %s\n", e.msg);
}

static void *fire_later(void *arg)
{
	proc_sleep(0.2);
	proc_latch_fire(arg);
	return NULL;
}

/* The latch: a fire from another thread wakes the wait at once; without
 * one the wait ends at until; an interrupt ends it with -XR_EINTR. */
static void test_latch(void)
{
	struct proc_latch l = {-1, -1};
	pthread_t th;
	double t;
	ok(proc_latch_open(&l) == 0, "latch open");
	t = proc_now_mono();
	is_int(proc_latch_wait(&l, t + 0.1), 0, "not fired: 0 at until");
	ok(proc_now_mono() - t >= 0.09, "waited until");
	pthread_create(&th, NULL, fire_later, &l);
	t = proc_now_mono();
	is_int(proc_latch_wait(&l, t + 10), 1, "fired by another thread: 1");
	t = proc_now_mono() - t;
	ok(t >= 0.15 && t < 2, "woken by the fire (%.2f s)", t);
	pthread_join(th, NULL);
	proc_latch_fire(&l);
	is_int(proc_latch_wait(&l, proc_now_mono() + 10), 1,
	       "fired twice: still fired, at once");
	proc_latch_close(&l);
	ok(proc_latch_open(&l) == 0, "latch open again");
	proc_interrupted = 1;
	is_int(proc_latch_wait(&l, proc_now_mono() + 10), -XR_EINTR,
	       "an interrupt: -XR_EINTR");
	proc_interrupted = 0;
	proc_latch_close(&l);
}

int main(void)
{
	tap_plan(59);
	test_latch();
	struct proc_result r;
	char d[256];
	double t;

	{
		const char *a[] = {"sh", "-c", "echo out; echo err >&2; exit 3",
				   NULL};
		run(a, 5, &r);
		is_int(r.status, PROC_EXITED, "exit status kind");
		is_int(r.exit_code, 3, "exit code kept");
		is_str(r.out, "out\n", "stdout captured on failure");
		is_str(r.err, "err\n", "stderr captured separately");
		is_str(proc_describe(&r, d, sizeof d), "exited with status 3",
		       "describe exit");
		proc_result_release(&r);
	}
	{
		/* 4 MiB on stdout and stderr at once: no deadlock. */
		const char *a[] = {"sh", "-c",
				   "head -c 4194304 /dev/zero; "
				   "head -c 4194304 /dev/zero >&2",
				   NULL};
		run(a, 20, &r);
		is_int(r.status, PROC_EXITED, "large output exits");
		is_int(r.out_len, 4194304, "all stdout captured");
		is_int(r.err_len, 4194304, "all stderr captured");
		proc_result_release(&r);
	}
	{
		const char *a[] = {"head", "-c", "100000", "/dev/zero", NULL};
		struct proc_opts o = {0};
		struct xr_err e = {0};
		o.argv = a;
		o.max_output = 1000;
		proc_run(&o, &r, &e);
		is_int(r.out_len, 1000, "output capped at max_output");
		is_int(r.exit_code, 0, "capped child still exits cleanly");
		proc_result_release(&r);
	}
	{
		const char *a[] = {"cat", NULL};
		struct proc_opts o = {0};
		struct xr_err e = {0};
		o.argv = a;
		o.stdin_data = "hello\nworld";
		o.timeout = 5;
		proc_run(&o, &r, &e);
		is_str(r.out, "hello\nworld", "stdin_data reaches the child");
		proc_result_release(&r);
	}
	{
		const char *a[] = {"sh", "-c", "printf %s \"$XR_T\"", NULL};
		const char *env[] = {"XR_T=a b;c", NULL};
		struct proc_opts o = {0};
		struct xr_err e = {0};
		o.argv = a;
		o.env = env;
		proc_run(&o, &r, &e);
		is_str(r.out, "a b;c", "extra environment passed");
		proc_result_release(&r);
	}
	{
		const char *a[] = {"xr-no-such-command-really", "x", NULL};
		run(a, 5, &r);
		is_int(r.status, PROC_EXEC_FAILED, "missing command");
		is_int(r.exec_errno, ENOENT, "ENOENT");
		is_str(proc_describe(&r, d, sizeof d),
		       "cannot execute 'xr-no-such-command-really': No such "
		       "file or directory",
		       "exec failure message names the command");
		proc_result_release(&r);
	}
	{
		/* Not executable: the failure comes back through the pipe. */
		char nx[] = "/tmp/xr-test-proc-nx-XXXXXX";
		int fd = mkstemp(nx);
		const char *a[] = {nx, NULL};
		close(fd);
		chmod(nx, 0644);
		run(a, 5, &r);
		is_int(r.status, PROC_EXEC_FAILED, "non-executable file");
		is_int(r.exec_errno, EACCES, "EACCES from execve");
		proc_result_release(&r);
		unlink(nx);
	}
	{
		const char *a[] = {"sh", "-c", "kill -SEGV $$", NULL};
		run(a, 5, &r);
		is_int(r.status, PROC_SIGNALED, "signal death");
		is_str(proc_describe(&r, d, sizeof d), "killed by SIGSEGV",
		       "describe signal");
		proc_result_release(&r);
	}
	{
		/* A grandchild that ignores SIGTERM, in the same group: the
		 * deadline must take it too (SIGKILL after grace). */
		const char *a[] = {"sh", "-c",
				   "sh -c 'trap \"\" TERM; echo $$; "
				   "exec sleep 30' & wait",
				   NULL};
		long gc;
		t = proc_now_mono();
		run(a, 0.5, &r);
		t = proc_now_mono() - t;
		is_int(r.status, PROC_TIMEOUT, "deadline hit");
		ok(t >= 0.5 && t < 3.0, "killed near the deadline (%.2f s)", t);
		gc = atol(r.out);
		ok(gc > 0, "grandchild pid reported (%ld)", gc);
		ok(gc > 0 && pid_gone(gc), "no survivor of the group");
		ok(strstr(proc_describe(&r, d, sizeof d), "timed out after") !=
		       NULL,
		   "describe timeout: %s", d);
		proc_result_release(&r);
	}
	{
		/* The leader exits, a background grandchild keeps the pipe
		 * open: we return promptly, and proc_kill_all cleans up. */
		const char *a[] = {"sh", "-c", "sleep 30 & echo $!", NULL};
		long gc;
		t = proc_now_mono();
		run(a, 10, &r);
		t = proc_now_mono() - t;
		is_int(r.status, PROC_EXITED, "leader exit with bg child");
		ok(t < 2.0, "not held by the grandchild's pipe (%.2f s)", t);
		gc = atol(r.out);
		ok(gc > 0 && !pid_gone(gc), "background child still running");
		proc_kill_all();
		ok(gc > 0 && pid_gone(gc), "proc_kill_all leaves nothing");
		proc_result_release(&r);
	}
	{
		/* Interrupt: a signal during a long command returns at once. */
		const char *a[] = {"sh", "-c",
				   "(sleep 0.3; kill -INT $PPID_XR) & sleep 30",
				   NULL};
		char envv[64];
		const char *env[] = {envv, NULL};
		struct proc_opts o = {0};
		struct xr_err e = {0};
		snprintf(envv, sizeof envv, "PPID_XR=%ld", (long)getpid());
		proc_install_signal_handlers();
		o.argv = a;
		o.env = env;
		o.timeout = 20;
		o.grace = 0.5;
		t = proc_now_mono();
		proc_run(&o, &r, &e);
		t = proc_now_mono() - t;
		is_int(r.status, PROC_INTERRUPTED, "interrupted status");
		ok(t < 3.0, "interrupt wakes poll at once (%.2f s)", t);
		ok(proc_interrupted && proc_interrupt_signo == SIGINT,
		   "flag and signo set");
		{
			long rv_ = proc_sleep(1.0);
			is_int(rv_, -XR_EINTR,
			       "proc_sleep returns -XR_EINTR when "
			       "interrupted");
		}
		proc_result_release(&r);
		proc_interrupted = 0;
		proc_interrupt_signo = 0;
	}
	{
		const char *a[] = {"sleep", "30", NULL};
		struct proc_opts o = {0};
		struct xr_err e = {0};
		char log[] = "/tmp/xr-test-proc-XXXXXX";
		int fd = mkstemp(log);
		struct proc *p;
		long pid;
		o.argv = a;
		o.grace = 0.5;
		close(fd);
		p = proc_spawn(&o, log, &e);
		ok(p != NULL, "spawn");
		pid = proc_pid(p);
		{
			long rv_ = proc_alive(p);
			is_int(rv_, 1, "alive");
		}
		{
			long rv_ = proc_exit_status(p);
			is_int(rv_, -1, "no status while running");
		}
		proc_stop(p);
		ok(pid_gone(pid), "stopped and reaped");
		{
			const char *b[] = {"sh", "-c",
					   "echo logged; echo e >&2", NULL};
			FILE *f;
			char line[64] = "";
			o.argv = b;
			p = proc_spawn(&o, log, &e);
			while (proc_alive(p))
				proc_sleep(0.02);
			{
				long rv_ = proc_exit_status(p);
				is_int(rv_, 0, "exit status of bg");
			}
			proc_stop(p);
			f = fopen(log, "r");
			if (f) {
				if (!fgets(line, sizeof line, f))
					line[0] = 0;
				fclose(f);
			}
			ok(!strcmp(line, "logged\n"),
			   "background output logged (%s)", line);
		}
		{
			const char *b[] = {"xr-no-such-command-really", NULL};
			o.argv = b;
			p = proc_spawn(&o, NULL, &e);
			ok(p == NULL && strstr(e.msg, "cannot execute"),
			   "spawn failure: %s", e.msg);
		}
		unlink(log);
	}
	{
		/* Children start with default signal dispositions (our SIGPIPE
		 * ignore during proc_run is not inherited), except a SIGHUP
		 * that nohup ignored. */
		const char *a[] = {"grep", "^SigIgn:", "/proc/self/status",
				   NULL};
		unsigned long long ign;
		signal(SIGHUP, SIG_IGN);
		run(a, 5, &r);
		ign = strtoull(r.out + 7, NULL, 16);
		ok(ign & 1ULL, "ignored SIGHUP stays ignored (%s)", r.out);
		ok(!(ign & (1ULL << 12)), "SIGPIPE is default in the child");
		proc_result_release(&r);
		signal(SIGHUP, SIG_DFL);
		run(a, 5, &r);
		ign = strtoull(r.out + 7, NULL, 16);
		ok(!(ign & 1ULL), "default SIGHUP stays default (%s)", r.out);
		proc_result_release(&r);
	}
	{
		/* A SIGKILLed xrun runs no cleanup, yet its children must not
		 * outlive it (an ssh client left behind keeps a remote
		 * iperf3 server up for good): a helper process spawns a
		 * background child, runs a foreground one and dies by
		 * SIGKILL; both children follow it. */
		char pidf[] = "/tmp/xr-test-proc-XXXXXX", cmd[128];
		long kids[2] = {0, 0};
		int pp[2], fd = mkstemp(pidf), i;
		pid_t helper;
		double end;
		FILE *f;
		ok(fd >= 0 && pipe(pp) == 0, "pipe and pid file");
		close(fd);
		snprintf(cmd, sizeof cmd, "echo $$ > %s; exec sleep 30", pidf);
		helper = fork();
		if (helper == 0) {
			const char *a[] = {"sleep", "30", NULL};
			const char *b[] = {"sh", "-c", cmd, NULL};
			struct proc_opts o = {0};
			struct proc_result rr;
			struct xr_err e = {0};
			long bg;
			o.argv = a;
			bg = proc_pid(proc_spawn(&o, NULL, &e));
			if (write(pp[1], &bg, sizeof bg) < 0)
				_exit(1);
			o.argv = b;
			o.timeout = 60;
			proc_run(&o, &rr, &e);
			_exit(0);
		}
		close(pp[1]);
		ok(read(pp[0], &kids[0], sizeof kids[0]) ==
			   (ssize_t)sizeof kids[0] &&
		       kids[0] > 0,
		   "helper spawned a background child");
		close(pp[0]);
		end = proc_now_mono() + 5;
		while (!kids[1] && proc_now_mono() < end) {
			f = fopen(pidf, "r");
			if (f) {
				if (fscanf(f, "%ld", &kids[1]) != 1)
					kids[1] = 0;
				fclose(f);
			}
			proc_sleep(0.02);
		}
		ok(kids[1] > 0, "helper runs a foreground child");
		kill(helper, SIGKILL);
		waitpid(helper, NULL, 0);
		for (i = 0; i < 2; i++) {
			end = proc_now_mono() + 2;
			while (kids[i] > 0 && !pid_gone(kids[i]) &&
			       proc_now_mono() < end)
				proc_sleep(0.02);
			ok(kids[i] > 0 && pid_gone(kids[i]),
			   "%s child dies with a SIGKILLed parent",
			   i ? "foreground" : "background");
			if (kids[i] > 0 && !pid_gone(kids[i]))
				kill((pid_t)kids[i], SIGKILL);
		}
		unlink(pidf);
	}
	ok(proc_which("sh"), "which sh");
	ok(!proc_which("xr-no-such-command-really"), "which missing");
	ok(proc_sleep(0.05) == 0, "sleep");
	ok(proc_now_wall() > 1.6e9, "wall clock");
	return tap_done();
}
