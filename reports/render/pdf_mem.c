/*
 * libharu's memory, made safe to run out of (pdf.h, pdf_oom_guard): its
 * allocator, which jumps to the guard instead of handing libharu a NULL
 * it would not check, and its UTF-8 encoder redone on that allocator
 * (libharu 2.3.0's own mallocs unchecked). Split from pdf.c, which lays
 * pages out.
 *
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdlib.h>

#include <hpdf.h>
#include <hpdf_encoder.h>

#include "pdf.h"
#include "pdf_int.h"

#include "banned.h"

static _Thread_local jmp_buf *oom_jump;

void pdf_oom_guard(jmp_buf *oom)
{
	oom_jump = oom;
}

/* libharu's allocator (HPDF_NewEx): never hands it a NULL under a guard. */
static void *hpdf_alloc(HPDF_UINT size)
{
	void *p = malloc(size ? size : 1);
	if (!p && oom_jump)
		longjmp(*oom_jump, 1);
	return p;
}

static void hpdf_free(void *p)
{
	free(p);
}

HPDF_Doc pdf_mem_doc(HPDF_Error_Handler on_error, void *user)
{
	return HPDF_NewEx(on_error, hpdf_alloc, hpdf_free, 0, user);
}

/* libharu 2.3.0's UTF-8 encoder turns text into the font's 2-byte codes
 * in a buffer of its own malloc, unchecked (src/hpdf_encoder_utf.c,
 * UTF8_Encoder_EncodeText_Func; the only direct malloc on the text path):
 * the same conversion, through its exported parser, into a buffer from
 * hpdf_alloc. libharu frees it with free(). Characters outside UCS-2 come
 * out as the encoder's space, as they did. */
static char *pdf_mem_utf8_encode(HPDF_Encoder enc, const char *text,
				 HPDF_UINT len, HPDF_UINT *length)
{
	unsigned char *out = hpdf_alloc(len * 2), *c = out;
	HPDF_ParseText_Rec st;

	if (!out) {
		*length = 0;
		return NULL;
	}
	HPDF_Encoder_SetParseText(enc, &st, (const HPDF_BYTE *)text, len);
	for (HPDF_UINT i = 0; i < len; i++)
		if (HPDF_Encoder_ByteType(enc, &st) != HPDF_BYTE_TYPE_TRIAL) {
			HPDF_UNICODE u = HPDF_Encoder_ToUnicode(enc, 0);
			*c++ = (unsigned char)(u >> 8);
			*c++ = (unsigned char)(u & 0xff);
		}
	*length = (HPDF_UINT)(c - out);
	return (char *)out;
}

void pdf_mem_utf8(HPDF_Doc doc)
{
	HPDF_Encoder enc = HPDF_GetEncoder(doc, "UTF-8");
	if (enc && enc->encode_text_fn)
		enc->encode_text_fn = pdf_mem_utf8_encode;
}
