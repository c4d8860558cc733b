// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the SACK block decoder on arbitrary bytes. A block it
 * accepts has exactly one encoding, the one it was read from, and every
 * hole it reports lies inside the bitmap it describes.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/rxwin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[RMP_SACK_WIRE_MAX];
	struct rmp_sack s;
	int len, off, last = -1;

	len = rmp_sack_decode(&s, data, size);
	if (len < 0)
		return 0;
	FUZZ_CHECK((size_t)len <= size && len >= (int)RMP_SACK_WIRE_MIN);
	FUZZ_CHECK(rmp_sack_encode(&s, again, sizeof(again)) == len);
	FUZZ_CHECK(!memcmp(again, data, len));

	rmp_sack_for_each_hole(&s, off) {
		FUZZ_CHECK(off > last);
		FUZZ_CHECK((uint32_t)off <= s.nbits);
		FUZZ_CHECK(!rmp_sack_has(&s, rmp_psn_add(s.cum_ack, 1 + off)));
		last = off;
	}
	return 0;
}
