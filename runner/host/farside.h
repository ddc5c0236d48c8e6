/*
 * Far-side deadlines for hosts without GNU coreutils (issue 20 item 3): a
 * POSIX sh watchdog for macOS (macOS ships no `timeout`) and a
 * PowerShell wrapper for Windows that kills the process tree at the
 * deadline. Each appends the command string the remote shell parses; the
 * far side exits 124 when its deadline fired, as coreutils timeout does.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_FARSIDE_H
#define XR_FARSIDE_H

#include "buf.h"

/* The line a deadline-bound far command writes on stderr first: the pid
 * to kill when the local deadline fires (host_ssh.c); on Windows followed
 * by the process's start time. */
#define FARSIDE_PID_MARK "@@xrun-far-pid "

/* The POSIX sh program of the watchdog: sh -c PROG sh SECONDS ARGV...;
 * it uses only sh, sleep, kill and ps (macOS's base system). */
extern const char farside_sh_prog[];

/* "sh -c 'PROG' sh SECONDS " (sh-quoted), to be followed by the argv. */
int farside_sh_prefix(double timeout, struct buf *cmd);
/* A prefix that uses coreutils timeout where there is one and the sh
 * watchdog elsewhere (an ssh host whose OS is not known yet). */
int farside_any_prefix(double timeout, struct buf *cmd);
/* The whole PowerShell command for argv (and NAME=VALUE env) under a
 * deadline of timeout seconds; with say_pid it first writes the child's
 * FARSIDE_PID_MARK line (id and start time) on stderr. */
int farside_powershell(const char *const *argv, const char *const *env,
		       double timeout, int say_pid, struct buf *cmd);
/* The PowerShell script that kills the far child pid (started at start, a
 * FILETIME) and its process tree with taskkill /T /F, from a second
 * connection after the local deadline fired. */
int farside_win_kill(long pid, unsigned long long start, struct buf *script);
/* argv as one Windows command line (CommandLineToArgvW quoting). */
void farside_win_cmdline(const char *const *argv, struct buf *out);
/* The FARSIDE_PID_MARK line taken out of err (NUL-terminated, *err_len
 * bytes; both updated): the pid, and in *start the start time when the
 * line has one (else 0); 0 when there is no well-formed line. */
long farside_take_pid(char *err, size_t *err_len, unsigned long long *start);

#endif
