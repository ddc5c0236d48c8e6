/*
 * Windows output whatever the code page (issue 20 item 2): the prologue's
 * code-page marker, CP932 (Shift_JIS) output converted with iconv, pages
 * refused with the reason, and framed cmdlet errors found. The CP932 and
 * UTF-8 bytes of "イーサネット 2" were computed with python3:
 * 'イーサネット 2'.encode('cp932').hex() == "8343815b8354836c836283672032",
 * .encode('utf-8').hex() == "e382a4e383bce382b5e3838de38383e383882032".
 * The error message is PowerShell's "Access is denied." as the CIM
 * cmdlets print it without elevation (Microsoft Learn, Get-NetAdapter
 * "Notes" / about_CommonParameters); the framing is oswin.c's xe.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "buf.h"
#include "oswin.h"
#include "tap.h"

#define JA_CP932 "\x83\x43\x81\x5b\x83\x54\x83\x6c\x83\x62\x83\x67\x20\x32"
#define JA_UTF8                                                                \
	"\xe3\x82\xa4\xe3\x83\xbc\xe3\x82\xb5\xe3\x83\x8d\xe3\x83\x83\xe3\x83" \
	"\x88\x20\x32"

static int decode(const char *in, struct buf *out, char *why, size_t n)
{
	buf_reset(out);
	why[0] = '\0';
	return oswin_decode(in, strlen(in), out, why, n);
}

static void test_decode(void)
{
	struct buf o = BUF_INIT;
	char why[160];
	const char *cp932 = "@@ xrun-codepage 932\r\n@@ adapter\r\n"
			    "{\"Name\":\"" JA_CP932 "\"}\r\n";
	const char *utf8 =
	    "@@ xrun-codepage 65001\n{\"Name\":\"" JA_UTF8 "\"}\n";

	ok(decode(cp932, &o, why, sizeof why) == 0 &&
	       strstr(o.s, "{\"Name\":\"" JA_UTF8 "\"}"),
	   "cp932 output converted to utf-8 (%s)", why);
	ok(decode(utf8, &o, why, sizeof why) == 0 && strcmp(o.s, utf8) == 0,
	   "code page 65001 output kept as it is");
	ok(decode("{\"Name\":\"" JA_UTF8 "\"}", &o, why, sizeof why) == 0,
	   "unmarked valid utf-8 accepted");
	ok(decode("{\"Name\":\"" JA_CP932 "\"}", &o, why, sizeof why) < 0 &&
	       strstr(why, "no code page marker"),
	   "unmarked non-utf-8 refused: %s", why);
	ok(decode("@@ xrun-codepage 65001\n" JA_CP932, &o, why, sizeof why) <
		   0 &&
	       strstr(why, "not valid UTF-8"),
	   "marked utf-8 that is not refused: %s", why);
	ok(decode("@@ xrun-codepage 99999\n" JA_CP932, &o, why, sizeof why) <
		   0 &&
	       strstr(why, "'CP99999'"),
	   "unknown code page refused with its name: %s", why);
	/* 0x81 0x20: a lead byte without its trail byte in CP932 */
	ok(decode("@@ xrun-codepage 932\n\x81\x20x", &o, why, sizeof why) < 0 &&
	       strstr(why, "not valid in code page 'CP932'"),
	   "bytes invalid in the page refused: %s", why);
	buf_release(&o);
}

static void test_failure(void)
{
	size_t n = 0;
	const char *t = "@@ xrun-codepage 65001\r\n@@ advanced\r\n"
			"@@ xrun-error advanced: Access is denied. \r\n"
			"@@ tcpsetting\r\n";
	const char *f = oswin_failure(t, &n);
	ok(f && n == strlen("advanced: Access is denied.") &&
	       strncmp(f, "advanced: Access is denied.", n) == 0,
	   "framed error found, section and message, line end trimmed");
	ok(oswin_failure("@@ adapter\n{}\n", &n) == NULL,
	   "no framed error: no failure");
}

static void test_script(void)
{
	struct buf s = BUF_INIT;
	oswin_script(HOSTOS_NIC, "Ethernet", NULL, &s);
	ok(strstr(s.s, "$ErrorActionPreference = 'Stop'") &&
	       !strstr(s.s, "ErrorActionPreference = 'SilentlyContinue'"),
	   "cmdlet errors stop into a catch, not silence");
	ok(strstr(s.s, "$OutputEncoding = [Text.Encoding]::UTF8") &&
	       strstr(s.s, "[Console]::OutputEncoding = [Text.Encoding]::UTF8"),
	   "both encodings forced to utf-8");
	ok(strstr(s.s, "'@@ xrun-codepage ' + $cp"),
	   "the code page in force is printed");
	ok(strstr(s.s, "catch { xe 'advanced' $_ }") &&
	       strstr(s.s, "catch { xe 'hardware' $_ }"),
	   "each cmdlet in its own try/catch naming its section");
	ok(strstr(s.s, "-ne 'ObjectNotFound'"),
	   "not-found stays an empty section");
	buf_release(&s);
}

int main(void)
{
	tap_plan(14);
	test_decode();
	test_failure();
	test_script();
	return tap_done();
}
