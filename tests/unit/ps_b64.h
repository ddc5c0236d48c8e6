/*
 * The host unit tests' reader of what xrun sends a Windows host
 * (test_host_win.c, test_host_session_ps.c, test_winctr.c): the base64 of
 * UTF-16LE that powershell.exe -EncodedCommand takes, back to the UTF-8
 * script (BMP only; the input is xrun's own, so no checks beyond it).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PS_B64_H
#define XR_PS_B64_H

#include <string.h>

#include "buf.h"

/* b64 up to its first character outside the base64 alphabet ('=', a
 * quote, a newline), decoded; the caller frees it. */
static inline char *ps_b64_decode(const char *b64)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				  "qrstuvwxyz0123456789+/";
	struct buf raw = BUF_INIT, out = BUF_INIT;
	unsigned v = 0;
	int bits = 0;
	for (const char *p = b64; *p && *p != '='; p++) {
		const char *k = strchr(tab, *p);
		if (!k)
			break;
		v = (v << 6) | (unsigned)(k - tab);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_addc(&raw, (char)((v >> bits) & 0xff));
		}
	}
	for (size_t i = 0; i + 1 < raw.len; i += 2) {
		unsigned c = (unsigned char)raw.s[i] |
			     ((unsigned)(unsigned char)raw.s[i + 1] << 8);
		if (c < 0x80) {
			buf_addc(&out, (char)c);
		} else if (c < 0x800) {
			buf_addc(&out, (char)(0xc0 | (c >> 6)));
			buf_addc(&out, (char)(0x80 | (c & 0x3f)));
		} else {
			buf_addc(&out, (char)(0xe0 | (c >> 12)));
			buf_addc(&out, (char)(0x80 | ((c >> 6) & 0x3f)));
			buf_addc(&out, (char)(0x80 | (c & 0x3f)));
		}
	}
	buf_release(&raw);
	return buf_detach(&out, NULL);
}

#endif
