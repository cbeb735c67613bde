/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <string.h>

#include "diag.h"
#include "sys.h"

void diag_put(struct diag *d, const char *s, size_t n)
{
	size_t room = sizeof(d->buf) - d->len;

	/* Keep the last byte for a newline, so a long line still ends. */
	if (room <= 1)
		return;
	if (n > room - 1)
		n = room - 1;
	memcpy(d->buf + d->len, s, n);
	d->len += n;
}

void diag_put_line(struct diag *d, const char *s, size_t n)
{
	if (d->spill_fd > 0 && n > sizeof(d->buf) - 1 - d->len)
		diag_flush(d, d->spill_fd);
	if (n <= sizeof(d->buf) - 1 - d->len)
		diag_put(d, s, n);
}

void diag_puts(struct diag *d, const char *s)
{
	diag_put(d, s, strlen(s));
}

void diag_flush(struct diag *d, int fd)
{
	if (!d->len)
		return;
	if (d->buf[d->len - 1] != '\n')
		d->buf[d->len++] = '\n';
	sys_write(fd, d->buf, d->len);
	d->len = 0;
}
