/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A terminal obeys what it is sent: ESC starts a control sequence (erase,
 * move the cursor, set the window title), CR and LF start a line that can
 * pass for the command's own, C1 bytes are controls to some, and the
 * Unicode bidirectional controls reorder what is shown.  A name from
 * another process gets none of that through.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "escape.h"

/* The length of the valid UTF-8 character at s (2-4), or 0. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return len;
}

/* C1 controls, and the characters that reorder or hide text. */
static bool unsafe_char(uint32_t c)
{
	return c < 0xa0 || c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0xfeff;
}

/*
 * The next piece of s as it is printed: n bytes of s as they are, or an
 * escape in esc.  Returns how many bytes of s it stands for.
 */
static size_t next_piece(const char *s, char esc[5], size_t *n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len;

	if (u[0] == '\\') {
		strcpy(esc, "\\\\");
		*n = 0;
		return 1;
	}
	if (u[0] >= 0x20 && u[0] < 0x7f) {
		*n = 1;
		return 1;
	}
	len = u[0] >= 0x80 ? utf8_char(u, &cp) : 0;
	if (len && !unsafe_char(cp)) {
		*n = len;
		return len;
	}
	esc[0] = '\\';
	esc[1] = 'x';
	esc[2] = "0123456789abcdef"[u[0] >> 4];
	esc[3] = "0123456789abcdef"[u[0] & 15];
	esc[4] = '\0';
	*n = 0;
	return 1;
}

int fputs_escaped(const char *s, FILE *out)
{
	char esc[5];
	size_t n, used;

	while (*s) {
		used = next_piece(s, esc, &n);
		if (n ? fwrite(s, 1, n, out) != n : fputs(esc, out) == EOF)
			return EOF;
		s += used;
	}
	return 0;
}

void escape_into(char *buf, size_t size, const char *s)
{
	size_t len = 0, n, used, piece;
	char esc[5];

	while (*s) {
		used = next_piece(s, esc, &n);
		piece = n ? n : strlen(esc);
		if (len + piece >= size)
			break;
		memcpy(buf + len, n ? s : esc, piece);
		len += piece;
		s += used;
	}
	buf[len] = '\0';
}
