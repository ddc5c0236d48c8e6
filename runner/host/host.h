/*
 * Host transports: where a command runs. Behind one table of operations:
 * local (fork/exec), ssh (the system OpenSSH client with a ControlMaster
 * connection reused for the session, every argument quoted for the remote
 * shell: POSIX sh or PowerShell) and netns (`ip netns exec NAME`). Engines,
 * hooks, probes and counters all go through here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HOST_H
#define XR_HOST_H

#include "plan.h"
#include "proc.h"
#include "xr_err.h"

struct plan_host;
struct buf;
struct host;

/* Open a transport for h. For ssh this starts the master connection
 * (fails with -XR_EHOST and a clear message when unreachable). */
int host_open(const struct plan_host *h, const char *control_dir,
	      struct host **out, struct xr_err *err);
void host_close(struct host *h); /* stops the ssh master; NULL ok */

/* The address host_open would give h (host_address), found the same way
 * without opening it (no connection: `ssh -G`, `ip -n NS addr`), for the
 * dry run. OUT: caller frees; 127.0.0.1 when nothing is found. */
char *host_plan_address(const struct plan_host *h);
/* Would host_open give a host of our own namespace (host_is_local)? */
int host_plan_is_local(const struct plan_host *h);

const char *host_name(const struct host *h);
/* Address engines use to reach this host (plan `address:`, else 127.0.0.1
 * for local, a namespace's first global IPv4, the HostName `ssh -G` gives
 * an ssh host); never NULL. */
const char *host_address(const struct host *h);
const char *host_iface(const struct host *h); /* plan iface: or NULL */
int host_is_local(const struct host *h);      /* our own namespace */
const char *host_kind(const struct host *h);  /* "local" "ssh" "netns" */
/* The network namespace of a netns host (plan netns:), else NULL. */
const char *host_netns(const struct host *h);
/* The host's OS (plan os:, or windows for shell: powershell; an ssh host
 * without either is asked once with `uname -s`); NULL is this machine,
 * Linux. It chooses the commands of probes, counters and facts. */
enum plan_os host_os(struct host *h);
/*
 * Following an engine's process on an ssh host (proc_opts.watch): on a
 * Linux sh host the command is exec'd by a far sh that first leaves an
 * empty file TOKEN.PID (PID its own, which the command keeps) in the
 * watch directory HOST_WATCH_DIR_SH/.xrun-w, and the host's far sampler
 * loop reads the processes of the files of TOKEN (counters_script.c,
 * sampler_engine.c). The base is the far user's runtime directory (a
 * private tmpfs that ends with the login session), else the home
 * directory; the loop makes .xrun-w with mode 0700 and every script uses
 * it only when it is the user's own drwx------ directory: no other user
 * can plant a link or a FIFO there, so that the token, visible in the
 * far argv, is a name and no secret (issue 40). TOKEN: 16 random hex
 * digits a session; NULL when the host is not such a host.
 */
#define HOST_WATCH_DIR_SH "${XDG_RUNTIME_DIR:-$HOME}"
const char *host_watch_token(struct host *h);
/* One text a host keeps for as long as it is open, under a key (hostos.c:
 * macOS's system_profiler lines under the adapter's MAC address, read
 * again when the address differs); NULL when key is not the one kept. */
const char *host_cache_get(struct host *h, const char *key);
const char *host_cache_key(struct host *h); /* NULL when none kept */
void host_cache_set(struct host *h, const char *key, const char *text);

/*
 * Run argv on the host and wait. o->argv is the command as it should run
 * on the far side; the transport wraps it (ssh ... 'quoted', ip netns exec
 * ...). With a timeout, a remote command also gets a deadline on the far
 * side (coreutils timeout), so killing the local ssh leaves nothing there.
 */
int host_run(struct host *h, const struct proc_opts *o, struct proc_result *res,
	     struct xr_err *err);
/*
 * host_run for the host readings (probes, counters, facts: sysread_run,
 * host_read_file): on an ssh host, through the host's persistent shell
 * (host_session.c; plan `session: false` opts out), started on first
 * use. Same result as host_run: the output, stderr and status of the
 * command; a deadline past which the session is killed (PROC_TIMEOUT);
 * a shell that died is restarted once, then the command runs as a
 * process of its own. Other hosts, and commands with stdin data, a tty or
 * stderr merged into stdout: host_run.
 */
int host_read_run(struct host *h, const struct proc_opts *o,
		  struct proc_result *res, struct xr_err *err);
/* Start argv in the background on the host. */
struct proc *host_spawn(struct host *h, const struct proc_opts *o,
			const char *log_path, struct xr_err *err);
/*
 * Start a server on the host (host_spawn) with its output in a fresh log
 * in /tmp, and wait up to `wait` seconds until ready(ctx, the log's text
 * so far) says it serves, while it runs. The log is unlinked once read
 * (the server keeps its fd: even a SIGKILLed xrun leaves nothing in /tmp).
 * 1: ready, *out the running server. 0: it ended, did not say so in time,
 * or an interrupt came (proc_interrupted): it is stopped, *out is NULL
 * and log holds what it printed. Negative -XR_E* with err when it cannot
 * be started. name says whose log it is in messages ("iperf3").
 */
int host_spawn_ready(struct host *h, const struct proc_opts *o,
		     const char *name, double wait,
		     int (*ready)(void *ctx, const char *log_text), void *ctx,
		     struct proc **out, struct buf *log, struct xr_err *err);
/* Start argv in the background with its stdout and stderr on pipes
 * (proc_spawn_stream); o->timeout > 0 gives it a far-side deadline. */
struct proc *host_spawn_stream(struct host *h, const struct proc_opts *o,
			       int *out_fd, int *err_fd, struct xr_err *err);
/* The most commands host_run_many starts together. */
#define HOST_MANY_MAX 16
/*
 * Start the n commands o[0..n) on h together and wait for all of them
 * (host_many.c): each has its own deadline (o[k].timeout, its group
 * stopped there) and its result in res[k] as host_run gives it (release
 * each). Returns 0 when all were run (each may have failed: see its
 * status), negative when one could not be started (none then runs on).
 */
int host_run_many(struct host *h, const struct proc_opts *o, int n,
		  struct proc_result *res, struct xr_err *err);
/*
 * Transport failures, which are not measurements (issue 24): an ssh host
 * is marked down when a command's ssh exited 255 with one of ssh's own
 * connection errors on stderr ("Connection refused", "Connection closed
 * by", "Connection timed out" ...), or when host_check fails. The mark
 * stays until host_check finds the host answering again. Local and netns
 * hosts are never down.
 */
int host_is_down(const struct host *h);
/* When h was first found down (wall clock, seconds) and what ssh said;
 * 0 and "" while it is up. */
double host_down_since(const struct host *h);
const char *host_down_reason(const struct host *h);
/* A cheap connection check, `ssh ... true` with a deadline of
 * HOST_CHECK_TIMEOUT: 0 when the host answers (the mark is cleared);
 * -XR_EHOST when not (marked down; why, if given, says what ssh said).
 * Tells a lost connection from a command's own exit 255. */
#define HOST_CHECK_TIMEOUT 8.0
int host_check(struct host *h, struct buf *why);

/*
 * An ssh host's connection, its ControlMaster, ended or was replaced
 * since the last call: 1; else 0 (the first call only notes it; other
 * hosts: 0). One local `ssh -O check`, no round trip: a connection that
 * stops answering is ended by ssh's keepalive (ServerAliveInterval 5 s,
 * ServerAliveCountMax 3), so a run it carried can be told (issue 40).
 */
int host_conn_changed(struct host *h);
/*
 * The engine processes an earlier session of this plan host left on it
 * (token: that session's host_watch_token), ended through h: a server
 * the stopped connection's sshd still holds with its port. The number
 * ended, 0 when none or not such a host.
 */
int host_reap_token(struct host *h, const char *token);

/* Read a small file on the host (local: directly; else via cat). */
int host_read_file(struct host *h, const char *path, struct buf *out,
		   struct xr_err *err);

/* Quote one word for a POSIX shell ('...' with '\'' for quotes) or for
 * PowerShell ('...' with '' for quotes), appending to out. */
void host_quote_sh(const char *word, struct buf *out);
void host_quote_powershell(const char *word, struct buf *out);

/* The argv actually executed locally for a command on h (for `xrun plan`
 * and logs). OUT: caller frees with host_argv_free. */
char **host_wrap_argv(struct host *h, const char *const *argv, double timeout);
void host_argv_free(char **argv);

#endif
