/*
 * The far side's counter scripts: the fixed sh text a host that is not
 * read in-process runs (an ssh host, a netns host the sampler cannot
 * enter), once around a run (counters_remote_script) or as the sampler's
 * long-lived loop (counters_sampler_script), whose frames also carry the
 * engine's processes on a Linux ssh host. Their documents are the ones
 * counters.c builds here, for the one parser (counters_parse.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "counter_group.h"
#include "counters_int.h"
#include "host.h"

#include "banned.h"

/*
 * The remote producer. $1 is the interface ("" for none), $2 a word of
 * section letters (n: netdev+ethtool, t: snmp+netstat, c: stat+softirqs,
 * p: procs). Neither is ever spliced into this text. ethtool lives in
 * /usr/sbin, which is not in a non-root ssh user's PATH on Debian. Files
 * are copied by the shell's own read and printf (xr_cat), not cat: the
 * sampler runs this every period, and a process per file was most of its
 * cost on the far side; ethtool and tc (with an interface) and the
 * sampler's sleep are the only processes left.
 */
#define COUNTERS_SCRIPT_PATH                                                   \
	"PATH=$PATH:/usr/sbin:/sbin\n"                                         \
	"xr_cat() { while IFS= read -r l || [ -n \"$l\" ]; do\n"               \
	"  printf '%s\\n' \"$l\"; done <\"$1\"; }\n"
/* Each counter group's section, SH_ID for each row of COUNTER_GROUP_MAP
 * (runner/desc/counter_group.h): run when the group's letter is in $2. */
#define SH_NIC                                                                 \
	"  if [ -n \"$1\" ]; then\n"                                           \
	"    if [ -d \"/sys/class/net/$1/statistics\" ]; then\n"               \
	"      echo '@@ netdev'\n"                                             \
	"      for f in \"/sys/class/net/$1/statistics/\"*; do\n"              \
	"        v=; { read -r v <\"$f\"; } 2>/dev/null\n"                     \
	"        printf '%s %s\\n' \"${f##*/}\" \"$v\"\n"                      \
	"      done\n"                                                         \
	"      if command -v ethtool >/dev/null 2>&1; then\n"                  \
	"        echo '@@ ethtool'; ethtool -S \"$1\" 2>/dev/null\n"           \
	"      fi\n"                                                           \
	"      if command -v tc >/dev/null 2>&1; then\n"                       \
	"        echo '@@ qdisc'; tc -s -j qdisc show dev \"$1\" "             \
	"2>/dev/null; echo\n"                                                  \
	"      fi\n"                                                           \
	"    else echo '@@ noiface'; fi\n"                                     \
	"  fi;;\n"
#define SH_TCP                                                                 \
	"  echo '@@ snmp'; xr_cat /proc/net/snmp\n"                            \
	"  echo '@@ netstat'; xr_cat /proc/net/netstat 2>/dev/null;;\n"
#define SH_CPU                                                                 \
	"  echo '@@ stat'; xr_cat /proc/stat\n"                                \
	"  echo '@@ softirqs'; xr_cat /proc/softirqs;;\n"
#define SH_CAPTURE                                                             \
	"  echo '@@ procs'\n"                                                  \
	"  for f in /proc/[0-9]*/comm; do\n"                                   \
	"    c=; { read -r c <\"$f\"; } 2>/dev/null\n"                         \
	"    case $c in " COUNTERS_CAPTURE_CASE ") printf '%s\\n' \"$c\";; "   \
	"esac\n"                                                               \
	"  done;;\n"
#define SH_GROUP(id, name, letter, os, doc)                                    \
	"case $2 in *" letter "*)\n" SH_##id "esac\n"
#define COUNTERS_SCRIPT_BODY                                                   \
	"echo '@@ xrun-counters 1'\n" COUNTER_GROUP_MAP(SH_GROUP)

static const char counters_script[] =
    COUNTERS_SCRIPT_PATH COUNTERS_SCRIPT_BODY "exit 0\n";

/*
 * The engine's processes a Linux ssh host's loop follows (host.h,
 * host_watch_token): $4 is the session's token ("" for none). The watch
 * files live in the directory HOST_WATCH_DIR_SH/.xrun-w that the loop
 * makes with mode 0700 (COUNTERS_WATCH_CD: used only when, entered with
 * cd -P, it is this user's and drwx------, so that no other user can
 * plant a link or a FIFO in it; issue 40). At its start the loop removes
 * the watch files there whose process is gone: regular files of this
 * user named TOKEN.PID, nothing else (a link, a FIFO, another user's
 * file or name stays); in each frame, right after the uptime it is timed
 * at, it gives "@@ engine PID", the process's stat text and its threads'
 * for each file of $4 whose process runs, and removes the others
 * (sampler_engine_frame): the threads' lines only when the process has
 * more than one (num_threads, field 20: xr_nth, in a function so that
 * the loop's own $1..$4 stay), a one-thread process's line standing for
 * its thread. A stat file is read whole, line by line (xr_stat): the
 * command name may hold any byte but NUL, a newline too, which is then a
 * space in the one line given; xr_nth shifts only as many words as there
 * are (a failed shift ends dash, a special builtin's error). No process
 * per file: the shell's own read; but dash reads a byte a system call,
 * about 0.4 ms of CPU a line (bench/RESULTS.md, "The engine's process
 * over ssh").
 */
/* Into the watch directory, or false: entered with cd -P (a link is
 * followed once, to what cd then checks), this user's (-O: dash, bash and
 * busybox sh have it) and drwx------ (ls -ld; an ACL's '+' or SELinux's
 * '.' may follow). The directory stays the current one, so that a rename
 * of it or of its parent after the check changes nothing. */
#define COUNTERS_WATCH_CD                                                      \
	"{ cd -P -- \"$d/.xrun-w\" 2>/dev/null && [ -O . ] && "                \
	"case $(ls -ld . 2>/dev/null) in drwx------*) true;; *) false;; "      \
	"esac; }"
#define COUNTERS_WATCH_FN                                                      \
	"xr_nth() { n=; [ $# -gt 17 ] || return 0; shift 17; n=${1:-1}; }\n"   \
	"xr_stat() { l=; x=; while IFS= read -r x || [ -n \"$x\" ]; do\n"      \
	"  l=\"$l${l:+ }$x\"; x=; done <\"$1\"; }\n"                           \
	"xr_own() { [ -f \"$1\" ] && [ ! -h \"$1\" ] && [ -O \"$1\" ]; }\n"
#define COUNTERS_WATCH_START                                                   \
	COUNTERS_WATCH_FN                                                      \
	"w=; d=" HOST_WATCH_DIR_SH "\n"                                        \
	"if [ -n \"$4\" ] && [ -n \"$d\" ]; then\n"                            \
	"  mkdir -m 700 -- \"$d/.xrun-w\" 2>/dev/null\n"                       \
	"  if " COUNTERS_WATCH_CD "; then w=./$4; fi\n"                        \
	"fi\n"                                                                 \
	"if [ -n \"$w\" ]; then for f in ./*.*; do\n"                          \
	"  p=${f##*.}; t=${f#./}; t=${t%.*}\n"                                 \
	"  case $p in ''|*[!0-9]*) continue;; esac\n"                          \
	"  [ ${#t} -eq 16 ] || continue\n"                                     \
	"  case $t in *[!0-9a-f]*) continue;; esac\n"                          \
	"  [ -d \"/proc/$p\" ] || ! xr_own \"$f\" || rm -f -- \"$f\"\n"        \
	"done 2>/dev/null; fi\n"
#define COUNTERS_WATCH_BODY                                                    \
	"if [ -n \"$w\" ]; then for f in \"$w\".*; do\n"                       \
	"  p=${f##*.}; case $p in ''|*[!0-9]*) continue;; esac\n"              \
	"  xr_stat \"/proc/$p/stat\" 2>/dev/null\n"                            \
	"  if [ -z \"$l\" ]; then ! xr_own \"$f\" || rm -f -- \"$f\"; "        \
	"continue; fi\n"                                                       \
	"  echo \"@@ engine $p\"; printf '%s\\n' \"$l\"; xr_nth ${l##*) }\n"   \
	"  [ \"$n\" -gt 1 ] 2>/dev/null || continue\n"                         \
	"  for t in \"/proc/$p/task/\"*/stat; do\n"                            \
	"    xr_stat \"$t\" 2>/dev/null\n"                                     \
	"    [ -z \"$l\" ] || printf '%s\\n' \"$l\"\n"                         \
	"  done\n"                                                             \
	"done 2>/dev/null; fi\n"

/*
 * The long-lived sampler of a remote host (sampler.c): the same document
 * at its start, $5 seconds later (the lead-in's first interval; $3 when
 * $5 is empty), then every $3 seconds, framed by "@@ xrun-sample UPTIME"
 * (the far side's monotonic clock, so that transport delays do not move
 * the points) and
 * "@@ xrun-sample-end". It ends when its output is closed (SIGPIPE) or
 * at its deadline.
 */
static const char sampler_script[] = COUNTERS_SCRIPT_PATH COUNTERS_WATCH_START
    "xl=$5\n"
    "while :; do\n"
    "up=; { read -r up _ </proc/uptime; } 2>/dev/null\n"
    "echo \"@@ xrun-sample $up\"\n" COUNTERS_WATCH_BODY COUNTERS_SCRIPT_BODY
    "echo '@@ xrun-sample-end' || exit 1\n"
    "sleep \"${xl:-$3}\" || exit 1\n"
    "xl=\n"
    "done\n";

const char *counters_remote_script(void)
{
	return counters_script;
}

const char *counters_sampler_script(void)
{
	return sampler_script;
}

/* The engine's processes alone, now: "@@ engine PID" sections as in the
 * sampler's frames (the last, partial interval at its stop). */
static const char watch_script[] = COUNTERS_SCRIPT_PATH COUNTERS_WATCH_FN
    "d=" HOST_WATCH_DIR_SH "; w=\n"
    "[ -n \"$1\" ] && [ -n \"$d\" ] || exit 0\n"
    "if " COUNTERS_WATCH_CD "; then w=./$1; fi\n" COUNTERS_WATCH_BODY
    "exit 0\n";

/* The engine command's far wrapper (host_ssh.c): $0 is the token. It
 * makes the watch directory too (a session without a sampler loop still
 * knows its engine's processes: host_reap_token). The file is made in a
 * subshell (its $$ is still this shell's, the pid the command keeps by exec)
 * with noclobber (O_EXCL: no link followed) and only where nothing is
 * (noclobber alone opens an existing FIFO or device: dash's and bash's
 * redirection). */
static const char watch_wrapper[] =
    "d=" HOST_WATCH_DIR_SH "; [ -n \"$d\" ] && ( mkdir -m 700 -- "
    "\"$d/.xrun-w\" 2>/dev/null; " COUNTERS_WATCH_CD
    " && f=./$0.$$ && [ ! -e \"$f\" ] && [ ! -h \"$f\" ] && set -C && "
    "true >\"$f\" ) 2>/dev/null; exec \"$@\"";

const char *counters_watch_wrapper(void)
{
	return watch_wrapper;
}

/* At the session's end (host_ssh.c): its own watch files, regular files
 * of this user named $1.PID in the watch directory; nothing else. */
static const char watch_cleanup[] =
    "xr_own() { [ -f \"$1\" ] && [ ! -h \"$1\" ] && [ -O \"$1\" ]; }\n"
    "d=" HOST_WATCH_DIR_SH "\n"
    "[ -n \"$1\" ] && [ -n \"$d\" ] && " COUNTERS_WATCH_CD " || exit 0\n"
    "for f in \"./$1\".*; do p=${f##*.}\n"
    "  case $p in ''|*[!0-9]*) continue;; esac\n"
    "  ! xr_own \"$f\" || rm -f -- \"$f\"\n"
    "done; exit 0\n";

const char *counters_watch_cleanup(void)
{
	return watch_cleanup;
}

/* After a lost connection (host_reap_token): the processes of the watch
 * files of $1 still running as this user (an engine's server the frozen
 * connection's sshd still holds, with its port) get SIGTERM, then
 * SIGKILL a second later; their files go. */
static const char watch_reap[] =
    "xr_own() { [ -f \"$1\" ] && [ ! -h \"$1\" ] && [ -O \"$1\" ]; }\n"
    "d=" HOST_WATCH_DIR_SH "; n=\n"
    "[ -n \"$1\" ] && [ -n \"$d\" ] && " COUNTERS_WATCH_CD " || exit 0\n"
    "for f in \"./$1\".*; do p=${f##*.}\n"
    "  case $p in ''|*[!0-9]*) continue;; esac\n"
    "  xr_own \"$f\" || continue\n"
    "  [ -O \"/proc/$p\" ] && kill -TERM \"$p\" 2>/dev/null && n=\"$n $p\"\n"
    "  rm -f -- \"$f\"\n"
    "done\n"
    "[ -n \"$n\" ] || exit 0\n"
    "echo \"ended:$n\"; sleep 1\n"
    "for p in $n; do kill -KILL \"$p\" 2>/dev/null; done; exit 0\n";

const char *counters_watch_reap(void)
{
	return watch_reap;
}

const char *counters_watch_script(void)
{
	return watch_script;
}
