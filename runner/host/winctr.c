/*
 * A Windows host's during-the-run sampler (winctr.h): one far-side
 * powershell.exe for the run, Get-Counter every S seconds, and the reader
 * of what it prints. Sources (tests/data/windows/README.md has the links):
 *
 * - Get-Counter (Microsoft Learn, Microsoft.PowerShell.Diagnostics):
 *   -SampleInterval is an Int32 of seconds, minimum 1; -MaxSamples an
 *   Int64; each sample set's CounterSamples carry Path, InstanceName,
 *   CookedValue, RawValue and Status. -MaxSamples, not -Continuous: the
 *   far side then ends by itself at the sampler's deadline even when the
 *   end of the ssh session does not reach it. Not typeperf (its CSV names
 *   columns by localized path in a header and has no per-sample status).
 * - Counter names are localized ("Performance counter names are
 *   localized ... use Get-Counter -ListSet to find the localized names",
 *   the same page), and Get-Counter takes the system's names only. The
 *   script tries the English set name first; when it is not there it
 *   looks each English name up in HKLM\...\Perflib\009's Counter value
 *   (index, name pairs: KB 287159 "Using PDH APIs correctly in a
 *   localized language") and the index in Perflib\CurrentLanguage's
 *   (the system's names), as Microsoft's own Exchange HealthChecker does
 *   (microsoft/CSS-Exchange, Diagnostics/HealthChecker/Helpers/
 *   PerformanceCountersFunctions.ps1): registry reads only, no Add-Type.
 *   PdhLookupPerfNameByIndex (pdh.h) gives the same from the index, and
 *   PdhAddEnglishCounter takes English paths, but only inside a PDH
 *   query of our own, which Get-Counter does not let us make. A name
 *   without an index stays English.
 * - "\Processor Information(*)": the processor-group aware set,
 *   instances "G,N", "G,_Total" and "_Total" (the older "\Processor(*)"
 *   with instances "N" when it is missing); % Processor Time, % DPC Time
 *   and % Interrupt Time are percentages of the interval ("Processor
 *   Object": DPC time is not part of interrupt time). The flat CPU index
 *   is the instance's rank in (group, number) order, as oswin_doc.c numbers
 *   the counters rows (one instance reader, oswin_cpu_instance), so
 *   cpu.3.busy and cpu3_busy_pct are one CPU.
 * - "\Network Interface(*)\Packets Received Discarded" and "Packets
 *   Received Errors" are PERF_COUNTER_RAWCOUNT (counts since the adapter
 *   started: "Network Interface Object"); the script keeps the plan's
 *   adapter's instance: its InterfaceDescription with ( ) # / \ written
 *   [ ] _ _ _ as PDH names instances (reconstructed, not verified on a
 *   host: docs/hosts.md).
 *
 * The far side prints, per sample set, one frame of plain lines in the
 * invariant culture (a Japanese or German Windows writes "0,5" for a
 * half in its own culture):
 *
 *   @@ xrun-winctr UP        UP: Stopwatch seconds (QueryPerformanceCounter)
 *   p VALUE INSTANCE         % Processor Time, VALUE CookedValue ("R")
 *   d VALUE INSTANCE         % DPC Time
 *   i VALUE INSTANCE         % Interrupt Time
 *   nd COUNT -               Packets Received Discarded, COUNT RawValue
 *   ne COUNT -               Packets Received Errors (the adapter's
 *                            instance is in the paths line before: frame
 *                            lines stay short, under a pty's 80 columns)
 *   @@ xrun-winctr-end
 *
 * keyed by a letter rather than the (localized) counter path. Samples
 * whose Status is not valid data (PDH_CSTATUS_VALID_DATA 0, NEW_DATA 1)
 * are left out on the far side.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host.h"
#include "oswin.h"
#include "winctr.h"
#include "xr_err.h"

#include "banned.h"

static const char script_names[] =
    "$ErrorActionPreference = 'Stop'\n"
    "$ProgressPreference = 'SilentlyContinue'\n"
    "try { [Console]::OutputEncoding = [Text.Encoding]::UTF8 } catch { }\n"
    "$ic = [Globalization.CultureInfo]::InvariantCulture\n"
    "$en = $true\n"
    "try { $null = Get-Counter -ListSet 'Processor Information' } "
    "catch { $en = $false }\n"
    "$ix = @{}; $loc = @{}\n"
    "if (-not $en) {\n"
    "  $pl = 'SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Perflib\\'\n"
    "  $t = [Microsoft.Win32.Registry]::LocalMachine.OpenSubKey($pl + "
    "'009').GetValue('Counter')\n"
    "  $cl = [Microsoft.Win32.Registry]::LocalMachine.OpenSubKey($pl + "
    "'CurrentLanguage').GetValue('Counter')\n"
    "  for ($j = 0; $j + 1 -lt $t.Count; $j += 2) { "
    "if (-not $ix.ContainsKey($t[$j + 1])) { $ix[$t[$j + 1]] = $t[$j] } }\n"
    "  for ($j = 0; $j + 1 -lt $cl.Count; $j += 2) { "
    "$loc[$cl[$j]] = $cl[$j + 1] }\n"
    "}\n"
    "function ln([string]$e) {\n"
    "  if ($en -or -not $ix.ContainsKey($e)) { return $e }\n"
    "  $l = $loc[$ix[$e]]\n"
    "  if ($l) { return $l }\n"
    "  return $e\n"
    "}\n";

static const char script_paths[] =
    "$o = ln 'Processor Information'\n"
    "if (-not $en) { try { $null = Get-Counter -ListSet $o } "
    "catch { $o = ln 'Processor' } }\n"
    "$k = @{}; $p = @()\n"
    "foreach ($c in @(@('p', '% Processor Time'), @('d', '% DPC Time'), "
    "@('i', '% Interrupt Time'))) {\n"
    "  $l = ln $c[1]; $k[$l] = $c[0]; $p += '\\' + $o + '(*)\\' + $l\n"
    "}\n"
    "$inst = $null\n"
    "if ($n) {\n"
    "  $a = $null\n"
    "  try { $a = @(Get-NetAdapter -Name $n) } catch { }\n"
    "  if (-not $a) { $a = @(Get-NetAdapter | Where-Object { "
    "$_.InterfaceDescription -eq $n -or [string]$_.InterfaceIndex -eq $n "
    "}) }\n"
    "  if ($a) {\n"
    "    $inst = $a[0].InterfaceDescription -replace '\\(', '[' "
    "-replace '\\)', ']' -replace '[#/\\\\]', '_'\n"
    "    $no = ln 'Network Interface'\n"
    "    foreach ($c in @(@('nd', 'Packets Received Discarded'), "
    "@('ne', 'Packets Received Errors'))) {\n"
    "      $l = ln $c[1]; $k[$l] = $c[0]; $p += '\\' + $no + '(*)\\' + $l\n"
    "    }\n"
    "  }\n"
    "}\n"
    "'@@ xrun-winctr-paths ' + ($p -join '|') + ' ' + $inst\n";

/* Hashtable keys are case-insensitive (about_Hash_Tables), as the
 * lowercase paths Get-Counter gives back need. */
static const char script_loop[] =
    "$f = [Diagnostics.Stopwatch]::Frequency\n"
    "Get-Counter -Counter $p -SampleInterval $si -MaxSamples $ns | "
    "ForEach-Object {\n"
    "  $u = [Diagnostics.Stopwatch]::GetTimestamp() / $f\n"
    "  $w = New-Object Text.StringBuilder\n"
    "  [void]$w.Append('@@ xrun-winctr ').Append($u.ToString('F3', $ic))"
    ".Append(\"`n\")\n"
    "  foreach ($c in $_.CounterSamples) {\n"
    "    if ($c.Status -gt 1) { continue }\n"
    "    $y = $k[$c.Path.Substring($c.Path.LastIndexOf('\\') + 1)]\n"
    "    if (-not $y) { continue }\n"
    "    $x = $c.InstanceName\n"
    "    if ($y -like 'n*') {\n"
    "      if ($x -ne $inst) { continue }\n"
    "      $v = $c.RawValue.ToString($ic); $x = '-'\n"
    "    } else { $v = $c.CookedValue.ToString('R', $ic) }\n"
    "    [void]$w.Append($y).Append(' ').Append($v).Append(' ')"
    ".Append($x).Append(\"`n\")\n"
    "  }\n"
    "  [void]$w.Append('@@ xrun-winctr-end')\n"
    "  [Console]::Out.WriteLine($w.ToString()); [Console]::Out.Flush()\n"
    "}\n"
    "exit 0\n";

long winctr_interval(double period)
{
	long secs = (long)(period + 0.5);
	return secs < 1 ? 1 : secs;
}

int winctr_script(const char *iface, long secs, long samples, struct buf *out)
{
	buf_adds(out, script_names);
	buf_adds(out, "$n = ");
	host_quote_powershell(iface ? iface : "", out);
	buf_addf(out, "\n$si = %ld\n$ns = %ld\n", secs < 1 ? 1 : secs,
		 samples < 1 ? 1 : samples);
	buf_adds(out, script_paths);
	buf_adds(out, script_loop);
	return out->truncated ? -XR_ENOMEM : 0;
}

int winctr_argv(const char *iface, long secs, long samples, struct strv *out)
{
	struct buf s = BUF_INIT;
	int rc = winctr_script(iface, secs, samples, &s);
	if (rc == 0)
		rc = oswin_encoded_argv(s.s, out);
	buf_release(&s);
	return rc;
}

/* ---- the reader -------------------------------------------------------- */

/* A token [p, e) as a finite double: digits, '.', an exponent, a sign
 * (the invariant culture's "R" form); 0 when it is not one. strtod reads
 * the C locale's '.', which xrun never changes (no setlocale). */
static int num(const char *p, const char *e, double *v)
{
	char tmp[48], *end;
	size_t n = (size_t)(e - p);
	if (n == 0 || n >= sizeof tmp)
		return 0;
	for (const char *q = p; q < e; q++)
		if (!isdigit((unsigned char)*q) && !strchr(".eE+-", *q))
			return 0;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	*v = strtod(tmp, &end);
	return *end == '\0' && isfinite(*v);
}

/* A RawValue: 1 to 20 digits. */
static int count(const char *p, const char *e, uint64_t *v)
{
	*v = 0;
	if (p == e || e - p > 20)
		return 0;
	for (; p < e; p++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return 1;
}

static struct winctr_cpu *cpu_slot(struct winctr_frame *f, size_t *cap,
				   unsigned long g, unsigned long n)
{
	for (size_t i = 0; i < f->ncpu; i++)
		if (f->cpu[i].group == g && f->cpu[i].number == n)
			return &f->cpu[i];
	if (f->ncpu == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct winctr_cpu *v = realloc(f->cpu, nc * sizeof *v);
		if (!v)
			return NULL;
		f->cpu = v;
		*cap = nc;
	}
	memset(&f->cpu[f->ncpu], 0, sizeof f->cpu[0]);
	f->cpu[f->ncpu].group = g;
	f->cpu[f->ncpu].number = n;
	return &f->cpu[f->ncpu++];
}

/* A percentage, clamped into [0, 100]: PDH's cooked value of a 100 ns
 * timer can pass 100 by a rounding (the counters are read at slightly
 * different times), never by more than a point. */
static double pct(double v)
{
	return v < 0 ? 0 : v > 100 ? 100 : v;
}

/* One "KEY VALUE INSTANCE" line [p, e) into f. 0, -1 not the format,
 * -XR_ENOMEM. */
static int frame_line(struct winctr_frame *f, size_t *cap, const char *p,
		      const char *e)
{
	const char *s1 = memchr(p, ' ', (size_t)(e - p)), *s2;
	struct winctr_cpu *c = NULL;
	unsigned long g = 0, n = 0;
	unsigned bit;
	double v;
	int r;
	if (!s1 || !(s2 = memchr(s1 + 1, ' ', (size_t)(e - s1 - 1))))
		return -1;
	if (s1 - p == 2 && p[0] == 'n' && (p[1] == 'd' || p[1] == 'e')) {
		uint64_t *dst = p[1] == 'd' ? &f->rx_discarded : &f->rx_errors;
		if (!count(s1 + 1, s2, dst))
			return -1;
		f->nic |= p[1] == 'd' ? WINCTR_DISC : WINCTR_RXERR;
		return 0;
	}
	if (s1 - p != 1 || !strchr("pdi", p[0]) || !num(s1 + 1, s2, &v))
		return -1;
	bit = p[0] == 'p' ? WINCTR_BUSY : p[0] == 'd' ? WINCTR_DPC : WINCTR_IRQ;
	if ((r = oswin_cpu_instance(s2 + 1, e, &g, &n)) < 0)
		return -1;
	if (r == 0)
		return 0;
	if (r == 2)
		c = &f->all;
	else if (!(c = cpu_slot(f, cap, g, n)))
		return -XR_ENOMEM;
	if (bit == WINCTR_BUSY)
		c->busy = pct(v);
	else if (bit == WINCTR_DPC)
		c->dpc = pct(v);
	else
		c->irq = pct(v);
	c->have |= bit;
	return 0;
}

static int cpu_cmp(const void *a, const void *b)
{
	const struct winctr_cpu *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* The lines of a frame's body [p, e): 0, -1 or -XR_ENOMEM. */
static int frame_parse(struct winctr_frame *f, const char *p, const char *e)
{
	size_t cap = 0;
	int rc = 0;
	while (rc == 0 && p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		if (le > p && le[-1] == '\r')
			le--;
		if (le > p)
			rc = frame_line(f, &cap, p, le);
		p = nl ? nl + 1 : e;
	}
	if (rc == 0 && f->ncpu) /* qsort's base must not be NULL (C11) */
		qsort(f->cpu, f->ncpu, sizeof *f->cpu, cpu_cmp);
	return rc;
}

/* The length of the escape sequence at p (p[0] is ESC), n bytes left:
 * CSI (ESC [ parameters intermediates final, ECMA-48 5.4), OSC (ESC ]
 * ... BEL or ESC \\), else ESC and one byte; 0 when it is not complete
 * yet. */
static size_t vt_len(const char *p, size_t n)
{
	size_t i = 2;
	if (n < 2)
		return 0;
	if (p[1] == '[') {
		while (i < n && (unsigned char)p[i] >= 0x20 &&
		       (unsigned char)p[i] <= 0x3f)
			i++;
		if (i == n)
			return 0;
		/* a final byte 0x40-0x7e, else not a CSI: ESC [ alone */
		return (unsigned char)p[i] >= 0x40 &&
			       (unsigned char)p[i] <= 0x7e
			   ? i + 1
			   : 2;
	}
	if (p[1] == ']') {
		for (; i < n; i++)
			if (p[i] == '\a')
				return i + 1;
			else if (p[i] == 0x1b && i + 1 < n && p[i + 1] == '\\')
				return i + 2;
		return 0;
	}
	return 2;
}

/*
 * Terminal escape sequences out of acc, in place (an incomplete one at
 * the end stays for the next read). A stream that runs in a pty (ssh -tt,
 * as every background command: host_ssh.c) gets ConPTY's sequences from
 * Win32-OpenSSH in its output (PowerShell/Win32-OpenSSH issues #1528 and
 * #871: window title, cursor hide and show, erase to the line's end);
 * none is part of a frame.
 */
static void strip_vt(struct buf *acc)
{
	size_t r = 0, w = 0;
	while (r < acc->len) {
		size_t k;
		if (acc->s[r] != 0x1b) {
			acc->s[w++] = acc->s[r++];
			continue;
		}
		if ((k = vt_len(acc->s + r, acc->len - r)) == 0)
			break;
		r += k;
	}
	while (r < acc->len)
		acc->s[w++] = acc->s[r++];
	acc->len = w;
	acc->s[w] = '\0';
}

int winctr_take(struct buf *acc,
		int (*fn)(void *arg, const struct winctr_frame *f), void *arg)
{
	static const char hd[] = "@@ xrun-winctr ", tl[] = "@@ xrun-winctr-end";
	size_t used = 0;
	int rc = 0;

	if (!acc->len)
		return 0;
	strip_vt(acc);

	while (rc == 0) {
		char *b = strstr(acc->s + used, hd), *nl, *e, *end;
		struct winctr_frame f = {0};
		if (!b || !(nl = strchr(b, '\n')) || !(e = strstr(nl, tl)))
			break;
		f.up = strtod(b + sizeof hd - 1, &end);
		if (end == b + sizeof hd - 1 || !isfinite(f.up) ||
		    (*end != '\r' && *end != '\n'))
			rc = -XR_EPARSE;
		else if ((rc = frame_parse(&f, nl + 1, e)) == -1)
			rc = -XR_EPARSE;
		if (rc == 0)
			rc = fn(arg, &f);
		free(f.cpu);
		used = (size_t)(e - acc->s) + sizeof tl - 1;
	}
	if (used) {
		memmove(acc->s, acc->s + used, acc->len - used + 1);
		acc->len -= used;
	}
	return rc;
}
