/*
 * Windows hosts (PowerShell over the ssh transport). Each reading is one
 * script whose sections ("@@ adapter", "@@ hardware", ...) hold the
 * ConvertTo-Json output of documented cmdlets and CIM classes:
 * Get-NetAdapter, Get-NetAdapterHardwareInfo,
 * Get-NetAdapterAdvancedProperty, Get-NetAdapterStatistics,
 * Get-NetTCPSetting, Win32_OperatingSystem, Win32_Processor, the raw TCPv4,
 * TCPv6 and Processor performance classes, Get-Process and logman; for a
 * wireless adapter also `netsh wlan show interfaces`, text (localized
 * labels: nicrate.c), the only documented reader of its rates. The
 * script goes as -EncodedCommand (base64 of UTF-16LE), so neither the
 * remote PowerShell nor powershell.exe's own command-line parsing sees
 * anything but one base64 word, or, in the host's persistent session, as
 * the same base64 turned back into a script block by the session's own
 * PowerShell (oswin_session_command); the interface name is inside it as
 * a single-quoted literal (host_quote_powershell). Enumerations are cast
 * to [string] in the script: ConvertTo-Json would write their numbers.
 * What the scripts print is read in oswin_doc.c.
 *
 * Locale: on a Japanese Windows the adapter is "イーサネット 2" and the
 * advanced properties' DisplayName and DisplayValue are the driver's
 * localized strings. So an iface may also be the adapter's
 * InterfaceDescription (the driver's, not localized) or its
 * InterfaceIndex, and each property is read under its DisplayName and its
 * RegistryKeyword (NDIS keywords such as *ReceiveBuffers are the same in
 * every language), with RegistryValue (the number the driver stores)
 * beside DisplayValue: probes nic.property:NAME and nic.registry:NAME.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counter_group.h"
#include "host.h"
#include "oswin.h"
#include "strv.h"

#include "banned.h"

/*
 * Every cmdlet stops on error ($ErrorActionPreference = 'Stop') inside its
 * own try/catch; xe prints the error as one framed line "@@ xrun-error
 * SECTION: MESSAGE" that oswin_failure turns into the reading's failure
 * (oswin_out.c). "Not found" (CategoryInfo ObjectNotFound: an adapter
 * that is not there, a USB adapter without PCI hardware info) stays an
 * empty section, read as before. Without a console (ssh without a pty)
 * setting the encoding can throw: the code page in force is printed
 * either way, as ASCII, and the output converted from it here.
 */
static const char prologue[] =
    "$ErrorActionPreference = 'Stop'\n"
    "$ProgressPreference = 'SilentlyContinue'\n"
    "try { [Console]::OutputEncoding = [Text.Encoding]::UTF8 } catch { }\n"
    "try { $OutputEncoding = [Text.Encoding]::UTF8 } catch { }\n"
    "try { $cp = [Console]::OutputEncoding.CodePage } catch { "
    "$cp = [Globalization.CultureInfo]::CurrentCulture.TextInfo."
    "OEMCodePage }\n"
    "'@@ xrun-codepage ' + $cp\n"
    "function xe([string]$s, $e) {\n"
    "  if ($e.CategoryInfo.Category -ne 'ObjectNotFound') {\n"
    "    '@@ xrun-error ' + $s + ': ' + "
    "($e.Exception.Message -replace '\\s*[\\r\\n]+\\s*', ' ')\n"
    "  }\n"
    "}\n";

/* $n: the adapter by Name, else by InterfaceDescription or InterfaceIndex;
 * then its Name, which every other cmdlet takes. */
static const char resolve_script[] =
    "$a = $null\n"
    "if ($n) {\n"
    "  try { $a = @(Get-NetAdapter -Name $n) } catch { xe 'adapter' $_ }\n"
    "  if (-not $a) { try { $a = @(Get-NetAdapter | Where-Object { "
    "$_.InterfaceDescription -eq $n -or [string]$_.InterfaceIndex -eq $n }) "
    "} catch { xe 'adapter' $_ } }\n"
    "  if ($a) { $a = $a[0]; $n = $a.Name } else { $a = $null }\n"
    "}\n";

static const char nic_script[] =
    "if (-not $a) { '@@ noiface'; return }\n"
    "'@@ adapter'\n"
    "$a | Select-Object Name, InterfaceIndex, InterfaceDescription, "
    "DriverFileName, "
    "DriverVersion, DriverProvider, MtuSize, ReceiveLinkSpeed, "
    "TransmitLinkSpeed, FullDuplex, NdisPhysicalMedium, "
    "@{n='Status';e={[string]$_.Status}} | ConvertTo-Json -Compress\n"
    "'@@ hardware'\n"
    "try { Get-NetAdapterHardwareInfo -Name $n | Select-Object BusNumber, "
    "DeviceNumber, FunctionNumber, PciExpressCurrentLinkSpeedEncoded, "
    "PciExpressCurrentLinkWidth, PciExpressMaxLinkSpeedEncoded, "
    "PciExpressMaxLinkWidth | ConvertTo-Json -Compress } "
    "catch { xe 'hardware' $_ }\n"
    "'@@ advanced'\n"
    "try { Get-NetAdapterAdvancedProperty -Name $n | Select-Object "
    "DisplayName, DisplayValue, RegistryKeyword, "
    "@{n='RegistryValue';e={$_.RegistryValue -join ','}} "
    "| ConvertTo-Json -Compress } catch { xe 'advanced' $_ }\n"
    /* NdisPhysicalMedium 9 (Native802_11) or 1 (WirelessLan): netsh's
     * text for every WLAN interface, its failure (wlansvc stopped) no
     * error of the reading */
    "if ($a.NdisPhysicalMedium -eq 9 -or $a.NdisPhysicalMedium -eq 1) {\n"
    "  '@@ wlan'\n"
    "  try { netsh.exe wlan show interfaces } catch { }\n"
    "}\n";

static const char system_script[] =
    "'@@ os'\n"
    "try { Get-CimInstance Win32_OperatingSystem | Select-Object Caption, "
    "Version, BuildNumber, OSArchitecture, CSName, TotalVisibleMemorySize "
    "| ConvertTo-Json -Compress } catch { xe 'os' $_ }\n"
    "'@@ cpu'\n"
    "try { Get-CimInstance Win32_Processor | Select-Object Name, "
    "NumberOfCores, NumberOfLogicalProcessors | ConvertTo-Json -Compress } "
    "catch { xe 'cpu' $_ }\n"
    "'@@ tcpsetting'\n"
    "try { Get-NetTCPSetting | Select-Object SettingName, "
    "@{n='CongestionProvider';e={[string]$_.CongestionProvider}}, "
    "@{n='AutomaticUseCustom';e={[string]$_.AutomaticUseCustom}} "
    "| ConvertTo-Json -Compress } catch { xe 'tcpsetting' $_ }\n"
    "'@@ transportfilter'\n"
    "try { Get-NetTransportFilter | Select-Object SettingName, "
    "DestinationPrefix, LocalPortStart, LocalPortEnd, RemotePortStart, "
    "RemotePortEnd | ConvertTo-Json -Compress } "
    "catch { xe 'transportfilter' $_ }\n"
    "'@@ pktmon'\n"
    "try { [string](Get-Service -Name PktMon).Status } "
    "catch { xe 'pktmon' $_ }\n"
    "if ((logman query -ets) -match '\\bPktMon\\b') { 'session' }\n";

/* Each counter group's section, PS_ID(letter) for each row of
 * COUNTER_GROUP_MAP (runner/desc/counter_group.h), "" for a group that
 * has no reader here (its os column lacks COUNTER_OS_WINDOWS). */
#define PS_IF(letter, cond) "if ($w -match '" letter "'" cond ") {\n"
#define PS_NIC(l)                                                              \
	PS_IF(l, " -and $n")                                                   \
	"  $s = $null\n"                                                       \
	"  try { $s = Get-NetAdapterStatistics -Name $n } "                    \
	"catch { xe 'adapterstats' $_ }\n"                                     \
	"  if (-not $s) { '@@ noiface' } else {\n"                             \
	"    '@@ adapterstats'\n"                                              \
	"    $s | Select-Object ReceivedBytes, ReceivedUnicastPackets, "       \
	"ReceivedMulticastPackets, ReceivedBroadcastPackets, "                 \
	"ReceivedDiscardedPackets, ReceivedPacketErrors, SentBytes, "          \
	"SentUnicastPackets, SentMulticastPackets, SentBroadcastPackets, "     \
	"OutboundDiscardedPackets, OutboundPacketErrors "                      \
	"| ConvertTo-Json -Compress\n"                                         \
	"  }\n"                                                                \
	"}\n"
#define PS_TCP(l)                                                              \
	PS_IF(l, "")                                                           \
	"  '@@ tcpperf'\n"                                                     \
	"  try { @(Get-CimInstance Win32_PerfRawData_Tcpip_TCPv4; "            \
	"Get-CimInstance Win32_PerfRawData_Tcpip_TCPv6) | Select-Object "      \
	"SegmentsRetransmittedPersec, SegmentsSentPersec, "                    \
	"SegmentsReceivedPersec, ConnectionsActive, ConnectionsPassive, "      \
	"ConnectionFailures, ConnectionsReset | ConvertTo-Json -Compress } "   \
	"catch { xe 'tcpperf' $_ }\n"                                          \
	"}\n"
#define PS_CPU(l)                                                              \
	PS_IF(l, "")                                                           \
	"  $pf = 'Name, PercentProcessorTime, PercentDPCTime, "                \
	"PercentInterruptTime, Timestamp_Sys100NS' -split ', '\n"              \
	"  '@@ cpuinfo'\n"                                                     \
	"  try { Get-CimInstance "                                             \
	"Win32_PerfRawData_Counters_ProcessorInformation "                     \
	"| Select-Object $pf | ConvertTo-Json -Compress } catch {\n"           \
	"    '@@ cpuperf'\n"                                                   \
	"    try { Get-CimInstance Win32_PerfRawData_PerfOS_Processor | "      \
	"Select-Object $pf | ConvertTo-Json -Compress } catch { xe 'cpuperf' " \
	"$_ }"                                                                 \
	"\n  }\n"                                                              \
	"}\n"
#define PS_CAPTURE(l)                                                          \
	PS_IF(l, "")                                                           \
	"  '@@ procs'\n"                                                       \
	"  try { Get-Process | ForEach-Object { $_.ProcessName } } "           \
	"catch { xe 'procs' $_ }\n"                                            \
	"  if ((logman query -ets) -match '\\bPktMon\\b') { 'pktmon' }\n"      \
	"}\n"
#define PS_GROUP(id, name, letter, os, doc) PS_##id(letter)

static const char counters_script[] = COUNTER_GROUP_MAP(PS_GROUP);

/*
 * The same text runs as powershell.exe -EncodedCommand (a process) and as
 * a script block inside the host's persistent session (host_session.c,
 * oswin_session_command), so it may neither end nor alter that session:
 * - the body is one script block run with the call operator, `& { ... }`:
 *   unless dot-sourced a script block gets a new scope (PowerShell
 *   Language Specification 3.5.1, "Scopes"; about_Scopes), so $n, $w, $a,
 *   the function xe and the preference variables set in the prologue
 *   ($ErrorActionPreference, $ProgressPreference, $OutputEncoding) are the
 *   block's own and are gone when it returns;
 * - it leaves early with `return`, which "exits the current scope, which
 *   can be a function, script, or script block" (about_Return), never
 *   with `exit`, which "causes PowerShell to exit a script or a
 *   PowerShell instance" (about_Language_Keywords): in the session that
 *   instance is the session's shell;
 * - an error no section's try/catch takes (a terminating error outside
 *   them) is caught around the whole body and printed as the framed line
 *   "@@ xrun-error script: MESSAGE", the reading's failure either way
 *   (oswin_failure), rather than left to end the block;
 * - the status is set through $LASTEXITCODE after the block (what
 *   `exit 0` did before): as a process, powershell.exe -Command (and so
 *   -EncodedCommand, its encoded form) exits 0 when the last command's $?
 *   is true (about_PowerShell_exe, 5.1, -Command), which an assignment's
 *   is; in the session the framing reads $LASTEXITCODE
 *   (host_session_script). Native commands inside (netsh, logman) set
 *   $LASTEXITCODE too: the last line resets it.
 * [Console]::OutputEncoding is process-wide: the session sets it once at
 * its start (host_session_start_script) to the same UTF-8 as here, so the
 * prologue's setting is a no-op there and the code-page line still says
 * what is in force.
 */
static const char script_end[] =
    "} catch { '@@ xrun-error script: ' + "
    "($_.Exception.Message -replace '\\s*[\\r\\n]+\\s*', ' ') }\n"
    "}\n" OSWIN_STATUS_LINE "\n";

int oswin_script(enum hostos_what what, const char *iface, const char *letters,
		 struct buf *out)
{
	buf_adds(out, "& {\n");
	buf_adds(out, prologue);
	buf_adds(out, "$n = ");
	host_quote_powershell(iface ? iface : "", out);
	buf_adds(out, "\n$w = ");
	host_quote_powershell(letters ? letters : "", out);
	buf_adds(out, "\ntry {\n");
	if (what != HOSTOS_SYSTEM)
		buf_adds(out, resolve_script);
	if (what == HOSTOS_NIC)
		buf_adds(out, nic_script);
	else if (what == HOSTOS_SYSTEM)
		buf_adds(out, system_script);
	else
		buf_adds(out, counters_script);
	buf_adds(out, script_end);
	return out->truncated ? -XR_ENOMEM : 0;
}

int oswin_encode(const char *script, struct buf *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				  "qrstuvwxyz0123456789+/";
	struct buf u = BUF_INIT;
	const unsigned char *p = (const unsigned char *)script;
	int rc = 0;

	/* UTF-8 to UTF-16LE; a malformed byte becomes U+FFFD. */
	while (*p) {
		uint32_t c = *p++;
		int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (c >= 0x80 && c < 0xc0)
			c = 0xfffd;
		else if (more)
			c &= 0x3fu >> more;
		for (; more > 0; more--) {
			if ((*p & 0xc0) != 0x80) {
				c = 0xfffd;
				break;
			}
			c = (c << 6) | (*p++ & 0x3fu);
		}
		if (c > 0xffff) {
			uint32_t v = c - 0x10000;
			uint16_t hi = (uint16_t)(0xd800 + (v >> 10));
			uint16_t lo = (uint16_t)(0xdc00 + (v & 0x3ff));
			buf_addc(&u, (char)(hi & 0xff));
			buf_addc(&u, (char)(hi >> 8));
			c = lo;
		}
		buf_addc(&u, (char)(c & 0xff));
		buf_addc(&u, (char)(c >> 8));
	}
	for (size_t i = 0; i < u.len; i += 3) {
		const unsigned char *s = (const unsigned char *)u.s + i;
		size_t n = u.len - i < 3 ? u.len - i : 3;
		uint32_t v = (uint32_t)s[0] << 16;
		if (n > 1)
			v |= (uint32_t)s[1] << 8;
		if (n > 2)
			v |= s[2];
		buf_addc(out, tab[(v >> 18) & 63]);
		buf_addc(out, tab[(v >> 12) & 63]);
		buf_addc(out, n > 1 ? tab[(v >> 6) & 63] : '=');
		buf_addc(out, n > 2 ? tab[v & 63] : '=');
	}
	if (u.truncated || out->truncated)
		rc = -XR_ENOMEM;
	buf_release(&u);
	return rc;
}

int oswin_encoded_argv(const char *script, struct strv *out)
{
	static const char *const head[] = {"powershell.exe", "-NoProfile",
					   "-NonInteractive", "-EncodedCommand",
					   NULL};
	struct buf b = BUF_INIT;
	int rc = oswin_encode(script, &b);
	for (int i = 0; rc == 0 && head[i]; i++)
		rc = strv_push(out, head[i]);
	if (rc == 0)
		rc = strv_push(out, b.s);
	buf_release(&b);
	return rc;
}

int oswin_argv(enum hostos_what what, const char *iface, const char *letters,
	       struct strv *out)
{
	struct buf s = BUF_INIT;
	int rc = oswin_script(what, iface, letters, &s);
	if (rc == 0)
		rc = oswin_encoded_argv(s.s, out);
	buf_release(&s);
	return rc;
}

int oswin_session_command(const char *script, struct buf *out)
{
	struct buf b = BUF_INIT;
	int rc = oswin_encode(script, &b);
	/*
	 * One line: the session's -Command - runs a statement when its line
	 * is complete, and one over several lines would need an empty line
	 * after it (PowerShell/PowerShell #3223, #21644). The script goes as
	 * the same base64 of UTF-16LE as -EncodedCommand (about_PowerShell_exe
	 * shows the encoding side: [Text.Encoding]::Unicode, [Convert]), so no
	 * quoting layer sees its text; ScriptBlock.Create parses it whole and
	 * & runs it in a new scope. Its output is written line by line
	 * through [Console]::Out, the writer the session's end line uses
	 * (host_session_script), rather than through the host's formatter.
	 */
	if (rc == 0)
		buf_addf(
		    out,
		    "& ([scriptblock]::Create([Text.Encoding]::Unicode."
		    "GetString([Convert]::FromBase64String('%s')))) | "
		    "ForEach-Object { [Console]::Out.WriteLine([string]$_) "
		    "}",
		    b.s);
	buf_release(&b);
	return rc == 0 && out->truncated ? -XR_ENOMEM : rc;
}
