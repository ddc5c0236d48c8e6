/*
 * Functions that must not be used in xrun (after git's banned.h): unbounded
 * copies and non-reentrant time or tokenizer functions. Include last.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_BANNED_H
#define XR_BANNED_H

#define XR_BANNED(func) sorry_##func##_is_banned_in_xrun

#undef strcpy
#define strcpy(x, y) XR_BANNED(strcpy)
#undef strcat
#define strcat(x, y) XR_BANNED(strcat)
#undef sprintf
#define sprintf(...) XR_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) XR_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) XR_BANNED(strtok)
#undef localtime
#define localtime(t) XR_BANNED(localtime)
#undef gmtime
#define gmtime(t) XR_BANNED(gmtime)
#undef gets
#define gets(x) XR_BANNED(gets)

#endif
