/*
 * Far-side deadlines for hosts without GNU coreutils (issue 20 item 3): a
 * perl watchdog for macOS (macOS ships perl, not `timeout`) and a
 * PowerShell wrapper for Windows that kills the process tree at the
 * deadline. Each appends the command string the remote shell parses; the
 * far side exits 124 when its deadline fired, as coreutils timeout does.
 */
#ifndef XR_FARSIDE_H
#define XR_FARSIDE_H

#include "buf.h"

/* The perl program of the watchdog: perl -e PROG SECONDS ARGV... */
extern const char farside_perl_prog[];

/* "perl -e 'PROG' SECONDS " (sh-quoted), to be followed by the argv. */
int farside_perl_prefix(double timeout, struct buf *cmd);
/* A prefix that uses coreutils timeout where there is one and the perl
 * watchdog elsewhere (an ssh host whose OS is not known yet). */
int farside_any_prefix(double timeout, struct buf *cmd);
/* The whole PowerShell command for argv (and NAME=VALUE env) under a
 * deadline of timeout seconds. */
int farside_powershell(const char *const *argv, const char *const *env,
		       double timeout, struct buf *cmd);
/* argv as one Windows command line (CommandLineToArgvW quoting). */
void farside_win_cmdline(const char *const *argv, struct buf *out);

#endif
