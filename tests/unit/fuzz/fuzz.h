/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets: reading the fuzzer's input as a stream
 * of small integers, and a check that aborts (a finding) when an engine
 * invariant breaks.
 */
#ifndef RMP_FUZZ_H
#define RMP_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* An engine invariant broke: report it as a crash. */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, \
				#cond);					\
			abort();					\
		}							\
	} while (0)

/* The input, consumed from the front; zeros once it runs out. */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline uint32_t fuzz_take(struct fuzz_in *in, unsigned int bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v = v << 8 | (in->left ? *in->p : 0);
		if (in->left) {
			in->p++;
			in->left--;
		}
	}
	return v;
}

#endif /* RMP_FUZZ_H */
