// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the transport header parser on arbitrary packets. What
 * it accepts must describe the packet exactly: headers, payload, pad and
 * ICRC add up to the packet's length, and building the parsed fields and
 * parsing them again gives the same fields.
 */
#include <string.h>

#include "fuzz.h"
#include "../../../drivers/infiniband/sw/rmp/engine/hdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rmp_hdr_fields f, g;
	enum rmp_hdr_err why;
	uint8_t buf[64];
	int len;

	if (rmp_hdr_parse(&f, data, size, size, &why)) {
		FUZZ_CHECK(why != RMP_HDR_OK);
		return 0;
	}
	FUZZ_CHECK(why == RMP_HDR_OK);
	FUZZ_CHECK((size_t)f.hdr_len + f.payload_len + f.bth.pad +
		   RMP_ICRC_SIZE == size);

	len = rmp_hdr_build(&f, buf, sizeof(buf));
	FUZZ_CHECK(len == f.hdr_len);
	FUZZ_CHECK(!rmp_hdr_parse(&g, buf, len, size, &why));
	FUZZ_CHECK(!memcmp(&f, &g, sizeof(f)));
	return 0;
}
