// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>

#include "json.h"

/**
 * json_init() - start a writer
 * @j: the writer
 * @f: where the text goes; written as the values come, never flushed here
 */
void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->more[0] = false;
}

static void json_quoted(struct json *j, const char *s)
{
	const unsigned char *p;

	fputc('"', j->f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", j->f);
		else if (*p == '\t')
			fputs("\\t", j->f);
		else if (*p < 0x20)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
	}
	fputc('"', j->f);
}

/* The comma before a member and its key, if it has one. */
static void json_member(struct json *j, const char *key)
{
	if (j->more[j->depth])
		fputc(',', j->f);
	j->more[j->depth] = true;
	if (key) {
		json_quoted(j, key);
		fputc(':', j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_DEPTH_MAX)
		j->depth++;
	j->more[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
	/* A value at the top ends a line; the next one starts afresh. */
	if (j->depth == 0) {
		fputc('\n', j->f);
		j->more[0] = false;
	}
}

/**
 * json_begin_object() - open an object
 * @j: the writer
 * @key: its name in the enclosing object; NULL in an array or at the top
 *
 * Up to %JSON_DEPTH_MAX - 1 objects and arrays may be open at once; the
 * output goes wrong beyond that.
 */
void json_begin_object(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

/**
 * json_end_object() - close the innermost object
 * @j: the writer
 *
 * Closing the outermost value ends its line; the next value at the top
 * starts a new one, without a comma.
 */
void json_end_object(struct json *j)
{
	json_close(j, '}');
}

/**
 * json_begin_array() - open an array
 * @j: the writer
 * @key: as for json_begin_object()
 */
void json_begin_array(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

/**
 * json_end_array() - close the innermost array
 * @j: the writer
 *
 * As json_end_object().
 */
void json_end_array(struct json *j)
{
	json_close(j, ']');
}

/**
 * json_string() - write a string
 * @j: the writer
 * @key: as for json_begin_object()
 * @s: the text; quotes, backslashes and control characters are escaped
 */
void json_string(struct json *j, const char *key, const char *s)
{
	json_member(j, key);
	json_quoted(j, s);
}

/**
 * json_u64() - write an unsigned integer
 * @j: the writer
 * @key: as for json_begin_object()
 * @v: the value, in decimal
 */
void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

/**
 * json_double() - write a number with three decimals
 * @j: the writer
 * @key: as for json_begin_object()
 * @v: the value; NaN and the infinities, which JSON lacks, become null
 */
void json_double(struct json *j, const char *key, double v)
{
	json_member(j, key);
	/* JSON has no NaN or infinity. */
	if (isfinite(v))
		fprintf(j->f, "%.3f", v);
	else
		fputs("null", j->f);
}

/**
 * json_bool() - write true or false
 * @j: the writer
 * @key: as for json_begin_object()
 * @v: the value
 */
void json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}
