/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON writer: objects, arrays, strings and unsigned numbers,
 * commas and escapes taken care of.
 */
#ifndef RMPCTL_JSON_H
#define RMPCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_DEPTH_MAX 16

struct json {
	FILE *f;
	int depth;
	bool more[JSON_DEPTH_MAX];	/* a member came before, per level */
};

void json_init(struct json *j, FILE *f);
/* key is NULL for a member of an array or for the outermost value. */
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_string(struct json *j, const char *key, const char *s);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_double(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);

#endif /* RMPCTL_JSON_H */
