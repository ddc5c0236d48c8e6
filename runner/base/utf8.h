/*
 * The one UTF-8 decoder. Plans must be well-formed UTF-8 (the loader
 * refuses anything else with utf8_decode); text that may come from a
 * command's output (report cells, reasons) is walked with utf8_next,
 * which never gets stuck on a broken byte.
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

#endif
