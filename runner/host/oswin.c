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
 *
 * Locale: on a Japanese Windows the adapter is "イーサネット 2" and the
 * advanced properties' DisplayName and DisplayValue are the driver's
 * localized strings. So an iface may also be the adapter's
 * InterfaceDescription (the driver's, not localized) or its
 * InterfaceIndex, and each property is read under its DisplayName and its
 * RegistryKeyword (NDIS keywords such as *ReceiveBuffers are the same in
 * every language), with RegistryValue (the number the driver stores)
 * beside DisplayValue: probes nic.property:NAME and nic.registry:NAME.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters_int.h"
#include "host.h"
#include "nicrate.h"
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

static const char counters_script[] =
    "if ($w -match 'n' -and $n) {\n"
    "  $s = $null\n"
    "  try { $s = Get-NetAdapterStatistics -Name $n } "
    "catch { xe 'adapterstats' $_ }\n"
    "  if (-not $s) { '@@ noiface' } else {\n"
    "    '@@ adapterstats'\n"
    "    $s | Select-Object ReceivedBytes, ReceivedUnicastPackets, "
    "ReceivedMulticastPackets, ReceivedBroadcastPackets, "
    "ReceivedDiscardedPackets, ReceivedPacketErrors, SentBytes, "
    "SentUnicastPackets, SentMulticastPackets, SentBroadcastPackets, "
    "OutboundDiscardedPackets, OutboundPacketErrors "
    "| ConvertTo-Json -Compress\n"
    "  }\n"
    "}\n"
    "if ($w -match 't') {\n"
    "  '@@ tcpperf'\n"
    "  try { @(Get-CimInstance Win32_PerfRawData_Tcpip_TCPv4; "
    "Get-CimInstance Win32_PerfRawData_Tcpip_TCPv6) | Select-Object "
    "SegmentsRetransmittedPersec, SegmentsSentPersec, "
    "SegmentsReceivedPersec, ConnectionsActive, ConnectionsPassive, "
    "ConnectionFailures, ConnectionsReset | ConvertTo-Json -Compress } "
    "catch { xe 'tcpperf' $_ }\n"
    "}\n"
    "if ($w -match 'c') {\n"
    "  $pf = 'Name, PercentProcessorTime, PercentDPCTime, "
    "PercentInterruptTime, Timestamp_Sys100NS' -split ', '\n"
    "  '@@ cpuinfo'\n"
    "  try { Get-CimInstance Win32_PerfRawData_Counters_ProcessorInformation "
    "| Select-Object $pf | ConvertTo-Json -Compress } catch {\n"
    "    '@@ cpuperf'\n"
    "    try { Get-CimInstance Win32_PerfRawData_PerfOS_Processor | "
    "Select-Object $pf | ConvertTo-Json -Compress } catch { xe 'cpuperf' $_ }"
    "\n  }\n"
    "}\n"
    "if ($w -match 'p') {\n"
    "  '@@ procs'\n"
    "  try { Get-Process | ForEach-Object { $_.ProcessName } } "
    "catch { xe 'procs' $_ }\n"
    "  if ((logman query -ets) -match '\\bPktMon\\b') { 'pktmon' }\n"
    "}\n";

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

/* ---- reading the JSON sections ---------------------------------------- */

/* The JSON value of a section (object or array), or NULL. */
static json_t *section_json(const char *text, const char *name)
{
	size_t len;
	const char *s = hostos_section(text, name, &len);
	if (!s)
		return NULL;
	return json_loadb(s, len, JSON_DECODE_ANY, NULL);
}

/* ConvertTo-Json writes one object bare and several as an array. */
static json_t *item(json_t *v, size_t i)
{
	if (json_is_array(v))
		return json_array_get(v, i);
	return i == 0 && json_is_object(v) ? v : NULL;
}

/* A number given as a JSON number or as a numeric string. */
static int get_u64(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 1;
	}
	/* A real past 2^64 (or a counter printed as 1e300) is not a count:
	 * casting it would be undefined. */
	if (json_is_real(v) && json_real_value(v) >= 0 &&
	    json_real_value(v) < 18446744073709551616.0) {
		*out = (uint64_t)json_real_value(v);
		return 1;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		unsigned long long x = strtoull(s, &end, 10);
		if (end != s && *end == '\0') {
			*out = x;
			return 1;
		}
	}
	return 0;
}

static const char *get_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s && *s ? s : NULL;
}

static void kv_str(struct buf *doc, const char *key, json_t *o,
		   const char *prop)
{
	const char *s = get_str(o, prop);
	if (s)
		buf_addf(doc, "%s: %s\n", key, s);
}

/* PCIe Link Status encoding, as Get-NetAdapterHardwareInfo shows it. */
static const char *pcie_speed(uint64_t enc)
{
	static const char *const gts[] = {NULL,	      "2.5 GT/s",  "5.0 GT/s",
					  "8.0 GT/s", "16.0 GT/s", "32.0 GT/s",
					  "64.0 GT/s"};
	return enc < sizeof gts / sizeof gts[0] ? gts[enc] : NULL;
}

static void nic_hardware(json_t *hw, struct buf *doc)
{
	uint64_t cs, cw, ms, mw;
	if (!hw)
		return;
	buf_adds(doc, "device: 1\n");
	if (get_u64(hw, "PciExpressCurrentLinkSpeedEncoded", &cs) &&
	    get_u64(hw, "PciExpressCurrentLinkWidth", &cw) && pcie_speed(cs) &&
	    cw > 0) {
		buf_addf(doc, "current_link_speed: %s\n", pcie_speed(cs));
		buf_addf(doc, "current_link_width: %llu\n",
			 (unsigned long long)cw);
		if (get_u64(hw, "PciExpressMaxLinkSpeedEncoded", &ms) &&
		    get_u64(hw, "PciExpressMaxLinkWidth", &mw) &&
		    pcie_speed(ms) && mw > 0) {
			buf_addf(doc, "max_link_speed: %s\n", pcie_speed(ms));
			buf_addf(doc, "max_link_width: %llu\n",
				 (unsigned long long)mw);
		}
	}
}

/* One advanced property under its DisplayName and its RegistryKeyword:
 * property.K: DisplayValue, registry.K: RegistryValue. */
static void nic_property(json_t *p, struct buf *doc)
{
	const char *val = get_str(p, "DisplayValue");
	const char *reg = get_str(p, "RegistryValue");
	const char *names[2];
	names[0] = get_str(p, "DisplayName");
	names[1] = get_str(p, "RegistryKeyword");
	for (int k = 0; k < 2; k++) {
		if (!names[k] ||
		    (k == 1 && names[0] && strcmp(names[0], names[1]) == 0))
			continue;
		if (val)
			buf_addf(doc, "property.%s: %s\n", names[k], val);
		if (reg)
			buf_addf(doc, "registry.%s: %s\n", names[k], reg);
	}
}

/* A wireless adapter's rates from netsh (nicrate.c reads the labels):
 * wifi_rate, the fact nic_wifi_rate. */
static void nic_wlan(const char *text, const char *name, struct buf *doc)
{
	size_t len;
	const char *s = hostos_section(text, "wlan", &len);
	struct buf t = BUF_INIT, v = BUF_INIT;
	if (s && name) {
		buf_add(&t, s, len);
		if (nicrate_netsh_wlan(t.s ? t.s : "", name, &v) == 0)
			buf_addf(doc, "wifi_rate: %s\n", v.s);
	}
	buf_release(&t);
	buf_release(&v);
}

int oswin_nic_doc(const char *text, struct buf *doc)
{
	json_t *ad, *hw, *adv, *a, *p;
	uint64_t v;

	buf_adds(doc, "source: Get-NetAdapterHardwareInfo\n");
	if (hostos_section(text, "noiface", NULL))
		return buf_adds(doc, "noiface: 1\nnames: Get-NetAdapter\n");
	ad = section_json(text, "adapter");
	hw = section_json(text, "hardware");
	adv = section_json(text, "advanced");
	a = item(ad, 0);
	if (a) {
		kv_str(doc, "name", a, "Name");
		if (get_u64(a, "InterfaceIndex", &v))
			buf_addf(doc, "index: %llu\n", (unsigned long long)v);
		kv_str(doc, "driver", a, "DriverFileName");
		kv_str(doc, "version", a, "DriverVersion");
		kv_str(doc, "description", a, "InterfaceDescription");
		kv_str(doc, "status", a, "Status");
		if (get_u64(a, "MtuSize", &v))
			buf_addf(doc, "mtu: %llu\n", (unsigned long long)v);
		/* bits per second; 0 when the media is disconnected */
		if (get_u64(a, "ReceiveLinkSpeed", &v) && v >= 1000000)
			buf_addf(doc, "speed: %llu\n",
				 (unsigned long long)(v / 1000000));
		if (get_u64(a, "NdisPhysicalMedium", &v) && (v == 9 || v == 1))
			buf_adds(doc, "wireless: 1\n");
		if (json_is_boolean(json_object_get(a, "FullDuplex")))
			buf_addf(doc, "duplex: %s\n",
				 json_is_true(json_object_get(a, "FullDuplex"))
				     ? "full"
				     : "half");
	}
	nic_hardware(item(hw, 0), doc);
	for (size_t i = 0; (p = item(adv, i)) != NULL; i++)
		nic_property(p, doc);
	nic_wlan(text, get_str(a, "Name"), doc);
	json_decref(ad);
	json_decref(hw);
	json_decref(adv);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* A template's provider and AutomaticUseCustom by SettingName. */
static const char *tcp_template(json_t *ts, const char *name, int *custom)
{
	json_t *t;
	for (size_t i = 0; (t = item(ts, i)) != NULL; i++) {
		const char *n = get_str(t, "SettingName");
		if (!n || strcmp(n, name) != 0)
			continue;
		if (custom) {
			const char *c = get_str(t, "AutomaticUseCustom");
			*custom = c && strcmp(c, "Enabled") == 0;
		}
		return get_str(t, "CongestionProvider");
	}
	return NULL;
}

/*
 * The congestion provider a connection gets, and the template it comes
 * from. The transport filter of DestinationPrefix "*" (Get-NetTransportFilter;
 * New-NetTransportFilter maps other prefixes and ports to other templates)
 * names the template of every connection no other filter takes; its
 * default is Automatic, which picks Datacenter for an RTT of 10 ms or less
 * and Internet above (Microsoft Networking blog, "TCP Templates for Windows
 * Server 2019", 2018-10-03), or DatacenterCustom and InternetCustom when
 * the Automatic template's AutomaticUseCustom is Enabled (MSFT_NetTCPSetting).
 * xrun's links are LANs, so tcp_cc is the low-RTT one and tcp_cc_template
 * says both. Without the filter section (an older script): Internet.
 */
static void tcp_effective(json_t *ts, json_t *tf, struct buf *doc)
{
	const char *def = NULL, *cp, *wcp;
	const char *lan = "Datacenter", *wan = "Internet";
	size_t others = 0, i;
	int custom = 0;
	json_t *f;
	if (!tf) {
		if ((cp = tcp_template(ts, "Internet", NULL)) != NULL)
			buf_addf(doc, "tcp_cc: %s\ntcp_cc_template: Internet\n",
				 cp);
		return;
	}
	for (i = 0; (f = item(tf, i)) != NULL; i++) {
		const char *pfx = get_str(f, "DestinationPrefix");
		if (!def && pfx && strcmp(pfx, "*") == 0)
			def = get_str(f, "SettingName");
		else
			others++;
	}
	if (!def)
		def = "Automatic";
	if (strcmp(def, "Automatic") != 0) {
		if ((cp = tcp_template(ts, def, NULL)) != NULL)
			buf_addf(doc,
				 "tcp_cc: %s\ntcp_cc_template: %s (transport "
				 "filter *)",
				 cp, def);
	} else {
		tcp_template(ts, "Automatic", &custom);
		if (custom) {
			lan = "DatacenterCustom";
			wan = "InternetCustom";
		}
		cp = tcp_template(ts, lan, NULL);
		wcp = tcp_template(ts, wan, NULL);
		if (!cp)
			return;
		buf_addf(doc,
			 "tcp_cc: %s\ntcp_cc_template: %s (Automatic, RTT <= "
			 "10 ms; %s above: %s)",
			 cp, lan, wan, wcp ? wcp : "?");
	}
	if (doc->len && doc->s[doc->len - 1] != '\n' && others)
		buf_addf(doc, "; %zu more transport filter%s", others,
			 others == 1 ? "" : "s");
	if (doc->len && doc->s[doc->len - 1] != '\n')
		buf_addc(doc, '\n');
}

/* The PktMon driver service (pktmon unload: "Stop the PktMon driver
 * service and unload PktMon.sys") and a PktMon ETW session (a capture). */
static void pktmon_fact(const char *text, struct buf *doc)
{
	size_t len;
	const char *s = hostos_section(text, "pktmon", &len);
	int running = 0, session = 0;
	for (const char *p = s, *end = s ? s + len : NULL; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 7 && memcmp(p, "Running", 7) == 0)
			running = 1;
		if (n == 7 && memcmp(p, "session", 7) == 0)
			session = 1;
		p = nl ? nl + 1 : end;
	}
	if (!s || (!len && !session))
		return;
	if (session)
		buf_adds(doc, "pktmon: running (a pktmon capture perturbs "
			      "throughput: pktmon stop)\n");
	else if (running)
		buf_adds(doc,
			 "pktmon: loaded (no capture, but the PktMon driver "
			 "stays loaded until pktmon unload)\n");
	else
		buf_adds(doc, "pktmon: unloaded\n");
}

int oswin_system_doc(const char *text, struct buf *doc)
{
	json_t *os = section_json(text, "os"), *cpu = section_json(text, "cpu");
	json_t *ts = section_json(text, "tcpsetting"), *o, *c;
	json_t *tf = section_json(text, "transportfilter");
	uint64_t v, logical = 0;

	if ((o = item(os, 0)) != NULL) {
		kv_str(doc, "hostname", o, "CSName");
		kv_str(doc, "os_release", o, "Caption");
		kv_str(doc, "kernel", o, "Version");
		if (get_u64(o, "TotalVisibleMemorySize", &v) && v)
			buf_addf(doc, "mem_bytes: %llu\n",
				 (unsigned long long)v * 1024ULL);
	}
	if ((c = item(cpu, 0)) != NULL)
		kv_str(doc, "cpu_model", c, "Name");
	for (size_t i = 0; (c = item(cpu, i)) != NULL; i++)
		if (get_u64(c, "NumberOfLogicalProcessors", &v))
			logical += v;
	if (logical)
		buf_addf(doc, "cpu_count: %llu\n", (unsigned long long)logical);
	tcp_effective(ts, tf, doc);
	pktmon_fact(text, doc);
	json_decref(tf);
	json_decref(os);
	json_decref(cpu);
	json_decref(ts);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* ---- counters --------------------------------------------------------- */

/* Linux's interface statistics from Get-NetAdapterStatistics, so that a
 * report compares rx_dropped with rx_dropped across the two OSes. */
static const struct {
	const char *linux_name;
	const char *win[3]; /* summed */
} stat_map[] = {
    {"rx_bytes", {"ReceivedBytes"}},
    {"rx_packets",
     {"ReceivedUnicastPackets", "ReceivedMulticastPackets",
      "ReceivedBroadcastPackets"}},
    {"multicast", {"ReceivedMulticastPackets"}},
    {"rx_dropped", {"ReceivedDiscardedPackets"}},
    {"rx_errors", {"ReceivedPacketErrors"}},
    {"tx_bytes", {"SentBytes"}},
    {"tx_packets",
     {"SentUnicastPackets", "SentMulticastPackets", "SentBroadcastPackets"}},
    {"tx_dropped", {"OutboundDiscardedPackets"}},
    {"tx_errors", {"OutboundPacketErrors"}},
};

/* /proc/net/snmp's Tcp counters from the raw TCPv4 + TCPv6 classes (their
 * "Persec" counters are cumulative counts in raw form). */
static const struct {
	const char *linux_name, *win;
} tcp_map[] = {
    {"RetransSegs", "SegmentsRetransmittedPersec"},
    {"OutSegs", "SegmentsSentPersec"},
    {"InSegs", "SegmentsReceivedPersec"},
    {"ActiveOpens", "ConnectionsActive"},
    {"PassiveOpens", "ConnectionsPassive"},
    {"AttemptFails", "ConnectionFailures"},
    {"EstabResets", "ConnectionsReset"},
};

static void counters_nic(json_t *st, struct buf *doc)
{
	json_t *s = item(st, 0);
	if (!s)
		return;
	buf_adds(doc, "@@ netdev\n");
	for (size_t i = 0; i < sizeof stat_map / sizeof stat_map[0]; i++) {
		uint64_t sum = 0, v;
		int any = 0;
		for (int k = 0; k < 3 && stat_map[i].win[k]; k++)
			if (get_u64(s, stat_map[i].win[k], &v)) {
				sum += v;
				any = 1;
			}
		if (any)
			buf_addf(doc, "%s %llu\n", stat_map[i].linux_name,
				 (unsigned long long)sum);
	}
}

static void counters_tcp(json_t *tp, struct buf *doc)
{
	size_t n = sizeof tcp_map / sizeof tcp_map[0];
	json_t *t;
	if (!item(tp, 0))
		return;
	buf_adds(doc, "@@ snmp\nTcp:");
	for (size_t i = 0; i < n; i++)
		buf_addf(doc, " %s", tcp_map[i].linux_name);
	buf_adds(doc, "\nTcp:");
	for (size_t i = 0; i < n; i++) {
		uint64_t sum = 0, v;
		for (size_t k = 0; (t = item(tp, k)) != NULL; k++)
			if (get_u64(t, tcp_map[i].win, &v))
				sum += v;
		buf_addf(doc, " %llu", (unsigned long long)sum);
	}
	buf_addc(doc, '\n');
}

/*
 * Per-CPU time from the Processor Information counter set (processor-group
 * aware: instances "G,N", group G, number N within it, plus "G,_Total" and
 * "_Total"), or from the older Processor set (instances "N") when the
 * first is missing. % Processor Time is a PERF_100NSEC_TIMER_INV counter:
 * its raw value is the time the CPU ran the idle thread, in 100 ns, and
 * busy % over an interval is 100 * (1 - dRaw / dTimestamp_Sys100NS);
 * % DPC Time and % Interrupt Time are PERF_100NSEC_TIMER counters (time in
 * deferred procedure calls and in interrupt service routines; DPC time is
 * not part of the interrupt time). Written as /proc/stat lines "cpuI other
 * 0 0 idle 0 irq dpc" whose total is the timestamp, so that the DPC share
 * is read where Linux's softirq share is (where NIC receive work runs on
 * both). I numbers the CPUs in (group, number) order, 0 up, as Linux's do.
 * Sources: learn.microsoft.com "Processor Object" (counter types) and
 * "Processor Information" (per group), see tests/data/windows/README.md.
 */
struct wcpu {
	unsigned long group, number;
	uint64_t idle, dpc, irq, ts;
};

static int wcpu_cmp(const void *a, const void *b)
{
	const struct wcpu *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* "3" or "1,3" -> group and number; 0 for "_Total", "0,_Total", junk. */
static int wcpu_name(const char *name, unsigned long *group,
		     unsigned long *number)
{
	char *end;
	*group = 0;
	if (!name || name[0] < '0' || name[0] > '9')
		return 0;
	*number = strtoul(name, &end, 10);
	if (*end == ',') {
		*group = *number;
		if (end[1] < '0' || end[1] > '9')
			return 0;
		*number = strtoul(end + 1, &end, 10);
	}
	return *end == '\0';
}

static void counters_cpu(json_t *cp, struct buf *doc)
{
	struct wcpu *v;
	size_t n = 0, cap = json_is_array(cp) ? json_array_size(cp) : 1;
	json_t *c;
	if (!item(cp, 0) || !(v = calloc(cap ? cap : 1, sizeof *v)))
		return;
	for (size_t i = 0; (c = item(cp, i)) != NULL && n < cap; i++) {
		struct wcpu *w = &v[n];
		if (!wcpu_name(get_str(c, "Name"), &w->group, &w->number) ||
		    !get_u64(c, "PercentProcessorTime", &w->idle) ||
		    !get_u64(c, "Timestamp_Sys100NS", &w->ts))
			continue;
		if (!get_u64(c, "PercentDPCTime", &w->dpc))
			w->dpc = 0;
		if (!get_u64(c, "PercentInterruptTime", &w->irq))
			w->irq = 0;
		n++;
	}
	qsort(v, n, sizeof *v, wcpu_cmp);
	buf_adds(doc, "@@ stat\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t busy = v[i].ts > v[i].idle ? v[i].ts - v[i].idle : 0;
		uint64_t sys = v[i].dpc + v[i].irq, other;
		if (sys > busy) /* counters read at slightly different times */
			sys = busy;
		other = busy - sys;
		buf_addf(doc, "cpu%zu %llu 0 0 %llu 0 %llu %llu\n", i,
			 (unsigned long long)other,
			 (unsigned long long)(v[i].ts - busy),
			 (unsigned long long)(v[i].irq < sys ? v[i].irq : sys),
			 (unsigned long long)(sys - (v[i].irq < sys ? v[i].irq
								    : sys)));
	}
	free(v);
}

/* Process names as Get-Process gives them ("Wireshark", "dumpcap"),
 * matched without case; WinDump is tcpdump's Windows port. */
static void counters_procs(const char *s, size_t len, struct buf *doc)
{
	const char *end = s + len;
	buf_adds(doc, "@@ procs\n");
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		char name[32];
		size_t n = 0;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		for (; s < e && n + 1 < sizeof name && *s != '\r'; s++)
			name[n++] =
			    (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
		name[n] = '\0';
		if (strcmp(name, "windump") == 0)
			buf_adds(doc, "tcpdump\n");
		else if (n && counters_is_capture_tool(name))
			buf_addf(doc, "%s\n", name);
		s = nl ? nl + 1 : end;
	}
}

int oswin_counters_doc(const char *text, struct buf *doc)
{
	json_t *st, *tp, *cp;
	const char *procs;
	size_t plen;

	buf_adds(doc, "@@ xrun-counters 1\n");
	if (hostos_section(text, "noiface", NULL))
		buf_adds(doc, "@@ noiface\n");
	st = section_json(text, "adapterstats");
	tp = section_json(text, "tcpperf");
	cp = section_json(text, "cpuinfo");
	if (!item(cp, 0)) { /* no Processor Information set: the older one */
		json_decref(cp);
		cp = section_json(text, "cpuperf");
	}
	counters_nic(st, doc);
	counters_tcp(tp, doc);
	counters_cpu(cp, doc);
	procs = hostos_section(text, "procs", &plen);
	if (procs)
		counters_procs(procs, plen, doc);
	json_decref(st);
	json_decref(tp);
	json_decref(cp);
	return doc->truncated ? -XR_ENOMEM : 0;
}
