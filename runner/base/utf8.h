/*
 * The one UTF-8 decoder. Plans must be well-formed UTF-8 (the loader
 * refuses anything else with utf8_decode); text that may come from a
 * command's output (report cells, reasons) is walked with utf8_next,
 * which never gets stuck on a broken byte.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_UTF8_H
#define XR_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the character that starts s (at most n bytes). Returns its
 * length (1..4) and sets *cp; returns 0 (and sets *cp to the first byte)
 * when s does not start a well-formed sequence: a stray continuation
 * byte, an overlong form, a surrogate, a value past U+10FFFF, or a
 * sequence cut short by n or by a byte that is no continuation byte.
 * n is 0: returns 0 and *cp is 0.
 *
 * A NUL-terminated string may pass SIZE_MAX for n: a NUL is no
 * continuation byte, so decoding never reads past it.
 */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/*
 * Like utf8_decode, but an ill-formed byte is one character of its own,
 * with *cp its byte value (0x80..0xFF, read as Latin-1). Returns 0 only
 * when n is 0.
 */
size_t utf8_next(const char *s, size_t n, uint32_t *cp);

/*
 * Append s[n] to out for a terminal: text from a command (an engine's
 * stderr in a reason, a hook's output) may hold escape sequences that
 * set the window title, clear the screen or move the cursor. Every C0
 * control but TAB (and LF with UTF8_TERM_KEEP_LF), DEL, every C1 control
 * (U+0080..U+009F) and every byte of an ill-formed sequence is written
 * as \xHH (ESC as \x1b, CR as \x0d, BEL as \x07, U+009B as \x9b); a
 * backslash stays as it is; well-formed UTF-8 is kept. out is a valid
 * string after the call, "" for nothing. 0 or -XR_ENOMEM.
 */
#define UTF8_TERM_KEEP_LF 1u
struct buf;
int utf8_term_escape(struct buf *out, const char *s, size_t n, unsigned flags);
/* One line for a terminal: b reset, then s escaped (LF too) into it;
 * returns b's text (valid until b changes; "" for NULL s or no memory). */
const char *utf8_term(struct buf *b, const char *s);

#endif
