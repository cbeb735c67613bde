/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <string.h>
#include <time.h>

#include "line.h"

_Static_assert(CAP_ALL + 512 <= REPORT_LINE_MAX, "a line holds every field");

void line_put(struct line *l, const char *s, size_t n)
{
	if (n > l->size - l->len) {
		l->overflow = true;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

void line_put_raw(struct line *l, const char *s)
{
	line_put(l, s, strlen(s));
}

/*
 * The length of the UTF-8 sequence at s, or 0 where it is not one (a
 * stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
 * or cut short by the end of the string).
 */
static size_t utf8_length(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * A JSON string of at most cap bytes, quotes included; null for NULL.
 * UTF-8 is copied; a control byte, DEL or a byte that is not part of
 * UTF-8 becomes \u00XX.  A long value stops before the first character
 * or escape that would not fit, so no escape is ever cut in two.
 */
void line_put_string(struct line *l, const char *str, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t end = l->len + cap - 1; /* the closing quote's place */
	char esc[6] = { '\\', 'u', '0', '0' };

	if (!s) {
		line_put(l, "null", 4);
		return;
	}
	line_put(l, "\"", 1);
	while (*s) {
		size_t n = utf8_length(s);
		const char *out = (const char *)s;
		size_t out_len = n;

		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			esc[4] = hex[*s >> 4];
			esc[5] = hex[*s & 15];
			out = esc;
			out_len = 6;
			n = 1;
		} else if (*s == '"' || *s == '\\') {
			esc[1] = (char)*s;
			out = esc;
			out_len = 2;
		}
		if (l->len + out_len > end) {
			l->cut = true;
			break;
		}
		line_put(l, out, out_len);
		esc[1] = 'u';
		s += n;
	}
	line_put(l, "\"", 1);
}

/* Decimal, without stdio. */
void line_put_decimal(struct line *l, long long n)
{
	char tmp[24];
	unsigned long long u = (unsigned long long)n;
	size_t i = sizeof(tmp);

	if (n < 0)
		u = -u;
	do
		tmp[--i] = (char)('0' + u % 10);
	while (u /= 10);
	if (n < 0)
		tmp[--i] = '-';
	line_put(l, tmp + i, sizeof(tmp) - i);
}

void line_put_key(struct line *l, const char *name)
{
	line_put(l, ",\"", 2);
	line_put_raw(l, name);
	line_put(l, "\":", 2);
}

void line_put_field(struct line *l, const char *name, const char *value,
		    size_t cap)
{
	line_put_key(l, name);
	line_put_string(l, value, cap);
}

/*
 * argv as an array of strings, in at most cap bytes: what does not fit
 * is left out (the line then says "truncated"), so that a long command
 * line costs no other field its room.
 */
void line_put_argv(struct line *l, char *const argv[], size_t cap)
{
	size_t end = l->len + cap - 1; /* the closing bracket's place */
	size_t i;

	line_put(l, "[", 1);
	for (i = 0; argv[i]; i++) {
		/* A comma, two quotes and a byte: else nothing of it. */
		if (l->len + 4 > end) {
			l->cut = true;
			break;
		}
		if (i)
			line_put(l, ",", 1);
		line_put_string(l, argv[i], end - l->len);
	}
	line_put(l, "]", 1);
}

/*
 * The head every line shares, whatever its event: the mark, the schema,
 * the event, when, and who (pid, ppid, uid, the program's path).
 */
void line_put_head_fields(struct line *l, const char *event, const char *time,
			  long long pid, long long ppid, long long uid,
			  const char *program)
{
	line_put_raw(l, "{\"libcloexec\":1");
	line_put_key(l, "schema");
	line_put_decimal(l, LINE_SCHEMA);
	line_put_field(l, "event", event, CAP_WORD);
	line_put_field(l, "time", time, CAP_WORD);
	line_put_key(l, "pid");
	line_put_decimal(l, pid);
	line_put_key(l, "ppid");
	line_put_decimal(l, ppid);
	line_put_key(l, "uid");
	line_put_decimal(l, uid);
	line_put_field(l, "program", program, CAP_PATH);
}

size_t line_end(struct line *l)
{
	if (l->cut)
		line_put_raw(l, ",\"truncated\":true");
	line_put(l, "}\n", 2);
	return l->overflow ? 0 : l->len;
}

const char *line_kind_of(const char *target)
{
	if (!strncmp(target, "socket:", 7))
		return "socket";
	if (!strncmp(target, "pipe:", 5))
		return "pipe";
	if (!strncmp(target, "anon_inode:", 11))
		return "anon";
	return target[0] == '/' ? "file" : "other";
}

size_t line_format_record(const struct line_record *r, char *buf, size_t size)
{
	struct line l = { .buf = buf, .size = size };

	line_put_head_fields(&l, "inherit", r->time, r->pid, r->ppid, r->uid,
			     r->program);
	line_put_field(&l, "exec", r->exec, CAP_PATH);
	line_put_field(&l, "argv0", r->argv0, CAP_NAME);
	if (r->argv) {
		line_put_key(&l, "argv");
		line_put_argv(&l, r->argv, CAP_ARGV);
	}
	line_put_key(&l, "fd");
	line_put_decimal(&l, r->fd);
	line_put_field(&l, "kind", r->kind, CAP_WORD);
	line_put_field(&l, "target", r->target, CAP_PATH);
	if (r->family)
		line_put_field(&l, "family", r->family, CAP_WORD);
	if (r->socktype)
		line_put_field(&l, "socktype", r->socktype, CAP_WORD);
	if (r->local)
		line_put_field(&l, "local", r->local, CAP_ADDRESS);
	if (r->peer)
		line_put_field(&l, "peer", r->peer, CAP_ADDRESS);
	line_put_field(&l, "created_by", r->created_by, CAP_WORD);
	if (r->caller) {
		line_put_field(&l, "caller", r->caller, CAP_WORD);
		if (r->caller_object) {
			line_put_field(&l, "caller_symbol", r->caller_symbol,
				       CAP_SYMBOL);
			line_put_field(&l, "caller_object", r->caller_object,
				       CAP_PATH);
			line_put_field(&l, "caller_offset", r->caller_offset,
				       CAP_WORD);
		}
	}
	line_put_raw(&l, r->deliberate ? ",\"deliberate\":true" :
					 ",\"deliberate\":false");
	line_put_field(&l, "why", r->why, CAP_WORD);
	line_put_field(&l, "reason", r->reason, CAP_REASON);
	return line_end(&l);
}

/* A UTC time, taken apart without localtime (no locks, no files). */
struct utc {
	long long year, month, day, secs; /* month 0-11, secs of the day */
	long usec;
};

static void utc_now(struct utc *u)
{
	struct timespec ts = { 0, 0 };
	long long days, z, era, doe, yoe, doy, mp;

	clock_gettime(CLOCK_REALTIME, &ts);
	days = (long long)ts.tv_sec / 86400;
	u->secs = (long long)ts.tv_sec % 86400;
	u->usec = ts.tv_nsec / 1000;
	/* Days to a civil date (the proleptic Gregorian calendar). */
	z = days + 719468;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	u->day = doy - (153 * mp + 2) / 5 + 1;
	u->month = mp < 10 ? mp + 2 : mp - 10;
	u->year = yoe + era * 400 + (u->month < 2);
}

/* n as digits decimal digits at out. */
static void digits(char *out, long long n, int width)
{
	while (width--) {
		out[width] = (char)('0' + n % 10);
		n /= 10;
	}
}

/* "hh:mm:ss" at out. */
static void put_clock(char *out, long long secs)
{
	digits(out, secs / 3600, 2);
	out[2] = ':';
	digits(out + 3, secs % 3600 / 60, 2);
	out[5] = ':';
	digits(out + 6, secs % 60, 2);
}

void line_time(char out[LINE_TIME_MAX])
{
	struct utc u;

	utc_now(&u);
	digits(out, u.year, 4);
	out[4] = '-';
	digits(out + 5, u.month + 1, 2);
	out[7] = '-';
	digits(out + 8, u.day, 2);
	out[10] = 'T';
	put_clock(out + 11, u.secs);
	out[19] = '.';
	digits(out + 20, u.usec, 6);
	out[26] = 'Z';
	out[27] = '\0';
}

/* "Mmm dd hh:mm:ss", RFC 3164's time stamp, in UTC. */
void line_syslog_time(char out[16])
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	struct utc u;

	utc_now(&u);
	memcpy(out, months + 3 * u.month, 3);
	out[3] = ' ';
	out[4] = u.day < 10 ? ' ' : (char)('0' + u.day / 10);
	out[5] = (char)('0' + u.day % 10);
	out[6] = ' ';
	put_clock(out + 7, u.secs);
	out[15] = '\0';
}
