// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the SACK block decoder on arbitrary bytes, and the ECN
 * echo block decoder on what follows a SACK that says one does. A block
 * either accepts has exactly one encoding, the one it was read from; every
 * hole a SACK reports lies inside the bitmap it describes, and every PSN
 * an echo reports within %RMP_ECN_ECHO_BITS of its base.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/rxwin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[RMP_SACK_WIRE_MAX], echo_again[RMP_ECN_ECHO_WIRE_MAX];
	struct rmp_ecn_echo e;
	struct rmp_sack s;
	int len, ce_len, off, last = -1;

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

	if (!s.ecn)
		return 0;
	ce_len = rmp_ecn_echo_decode(&e, data + len, size - len);
	if (ce_len < 0)
		return 0;
	FUZZ_CHECK((size_t)(len + ce_len) <= size);
	FUZZ_CHECK(ce_len >= (int)RMP_ECN_ECHO_WIRE_MIN &&
		   ce_len <= (int)RMP_ECN_ECHO_WIRE_MAX);
	FUZZ_CHECK(!rmp_ecn_echo_empty(&e));
	FUZZ_CHECK(!(e.base & ~RMP_PSN_MASK));
	FUZZ_CHECK(rmp_ecn_echo_encode(&e, echo_again, sizeof(echo_again)) ==
		   ce_len);
	FUZZ_CHECK(!memcmp(echo_again, data + len, ce_len));
	return 0;
}
