// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the RoCEv2 transport header table, builder and parser.
 */
#include <kunit/test.h>

#include "../engine/hdr.h"
#include "icrc_vectors.h"

/* Every field set to a distinctive value; the opcode decides which count. */
static const struct rmp_hdr_fields hdr_template = {
	.bth = {
		.se = true,
		.mig = true,
		.pkey = 0xa55a,
		.becn = true,
		.qpn = 0xfedcba,
		.ackreq = true,
		.psn = 0x13579b,
	},
	.reth = { .va = 0x0011223344556677ULL, .rkey = 0x8899aabb,
		  .len = 0x00012345 },
	.aeth = { .syndrome = 0x1f, .msn = 0xabcdef },
	.ieth = { .rkey = 0x10203040 },
	.deth = { .qkey = 0x80010002, .sqpn = 0x0a0b0c },
	.atmeth = { .va = 0xf0e0d0c0b0a09080ULL, .rkey = 0x01010101,
		    .swap_add = 0x1111222233334444ULL,
		    .compare = 0x5555666677778888ULL },
	.atmack = { .orig = 0x99aabbccddeeff00ULL },
};

#define HDR_IMM 0xc0ffee11U

static void expect_fields(struct kunit *test, const struct rmp_hdr_fields *got,
			  const struct rmp_hdr_fields *want, u32 flags)
{
	static const struct rmp_hdr_fields zero;
	const struct rmp_hdr_fields *w;

	KUNIT_EXPECT_EQ(test, got->bth.opcode, want->bth.opcode);
	KUNIT_EXPECT_EQ(test, got->bth.se, want->bth.se);
	KUNIT_EXPECT_EQ(test, got->bth.mig, want->bth.mig);
	KUNIT_EXPECT_EQ(test, got->bth.pad, want->bth.pad);
	KUNIT_EXPECT_EQ(test, got->bth.tver, want->bth.tver);
	KUNIT_EXPECT_EQ(test, got->bth.pkey, want->bth.pkey);
	KUNIT_EXPECT_EQ(test, got->bth.fecn, want->bth.fecn);
	KUNIT_EXPECT_EQ(test, got->bth.becn, want->bth.becn);
	KUNIT_EXPECT_EQ(test, got->bth.qpn, want->bth.qpn);
	KUNIT_EXPECT_EQ(test, got->bth.ackreq, want->bth.ackreq);
	KUNIT_EXPECT_EQ(test, got->bth.psn, want->bth.psn);

	w = flags & RMP_OPF_RETH ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->reth.va, w->reth.va);
	KUNIT_EXPECT_EQ(test, got->reth.rkey, w->reth.rkey);
	KUNIT_EXPECT_EQ(test, got->reth.len, w->reth.len);

	w = flags & RMP_OPF_AETH ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->aeth.syndrome, w->aeth.syndrome);
	KUNIT_EXPECT_EQ(test, got->aeth.msn, w->aeth.msn);

	w = flags & RMP_OPF_IMMDT ? want : &zero;
	KUNIT_EXPECT_EQ(test, be32_to_cpu(got->imm), be32_to_cpu(w->imm));

	w = flags & RMP_OPF_IETH ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->ieth.rkey, w->ieth.rkey);

	w = flags & RMP_OPF_DETH ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->deth.qkey, w->deth.qkey);
	KUNIT_EXPECT_EQ(test, got->deth.sqpn, w->deth.sqpn);

	w = flags & RMP_OPF_ATMETH ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->atmeth.va, w->atmeth.va);
	KUNIT_EXPECT_EQ(test, got->atmeth.rkey, w->atmeth.rkey);
	KUNIT_EXPECT_EQ(test, got->atmeth.swap_add, w->atmeth.swap_add);
	KUNIT_EXPECT_EQ(test, got->atmeth.compare, w->atmeth.compare);

	w = flags & RMP_OPF_ATMACK ? want : &zero;
	KUNIT_EXPECT_EQ(test, got->atmack.orig, w->atmack.orig);
}

struct hdr_rt_case {
	const char *desc;
	u8 opcode;
	u8 hdr_len;
	u16 payload;
};

static void hdr_rt_desc(const struct hdr_rt_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

/* Together these use every extended header and every transport family. */
static const struct hdr_rt_case hdr_rt_cases[] = {
	{ "RC send only", RMP_OP_RC_SEND_ONLY, 12, 33 },
	{ "RC send middle", RMP_OP_RC_SEND_MIDDLE, 12, 64 },
	{ "RC send last with ImmDt", RMP_OP_RC_SEND_LAST_IMM, 16, 2 },
	{ "RC send only with IETH", RMP_OP_RC_SEND_ONLY_INV, 16, 7 },
	{ "RC write first (RETH)", RMP_OP_RC_WRITE_FIRST, 28, 64 },
	{ "RC write only with RETH+ImmDt", RMP_OP_RC_WRITE_ONLY_IMM, 32, 1 },
	{ "RC read request", RMP_OP_RC_READ_REQUEST, 28, 0 },
	{ "RC read response first (AETH)", RMP_OP_RC_READ_RESPONSE_FIRST,
	  16, 64 },
	{ "RC read response middle", RMP_OP_RC_READ_RESPONSE_MIDDLE, 12, 64 },
	{ "RC acknowledge", RMP_OP_RC_ACKNOWLEDGE, 16, 0 },
	{ "RC atomic acknowledge", RMP_OP_RC_ATOMIC_ACKNOWLEDGE, 24, 0 },
	{ "RC compare & swap (AtomicETH)", RMP_OP_RC_COMPARE_SWAP, 40, 0 },
	{ "RC fetch & add", RMP_OP_RC_FETCH_ADD, 40, 0 },
	{ "RC atomic write (RETH + 8 bytes)", RMP_OP_RC_ATOMIC_WRITE, 28, 8 },
	{ "UC send only with ImmDt", RMP_OP_UC_SEND_ONLY_IMM, 16, 5 },
	{ "UC write only", RMP_OP_UC_WRITE_ONLY, 28, 9 },
	{ "UD send only (DETH)", RMP_OP_UD_SEND_ONLY, 20, 3 },
	{ "UD send only with ImmDt", RMP_OP_UD_SEND_ONLY_IMM, 24, 0 },
	{ "CNP", RMP_OP_CNP, 28, 0 },
};

KUNIT_ARRAY_PARAM(hdr_rt, hdr_rt_cases, hdr_rt_desc);

static void rmp_hdr_build__parse_roundtrip(struct kunit *test)
{
	const struct hdr_rt_case *c = test->param_value;
	const struct rmp_opcode_info *info = rmp_opcode_info(c->opcode);
	struct rmp_hdr_fields f = hdr_template, got;
	enum rmp_hdr_err why = RMP_HDR_ERR_MAX;
	u8 pkt[128];
	size_t pkt_len;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, info);
	f.bth.opcode = c->opcode;
	f.imm = cpu_to_be32(HDR_IMM);
	if (info->flags & RMP_OPF_PAYLOAD)
		f.bth.pad = rmp_hdr_pad(c->payload);

	memset(pkt, 0x5a, sizeof(pkt));
	len = rmp_hdr_build(&f, pkt, sizeof(pkt));
	KUNIT_ASSERT_EQ(test, len, (int)c->hdr_len);
	KUNIT_EXPECT_EQ(test, len, (int)info->hdr_len);

	pkt_len = len + c->payload + f.bth.pad + RMP_ICRC_SIZE;
	KUNIT_ASSERT_LE(test, pkt_len, sizeof(pkt));
	memset(&got, 0xff, sizeof(got));
	KUNIT_EXPECT_EQ(test, rmp_hdr_parse(&got, pkt, len, pkt_len, &why), 0);
	KUNIT_EXPECT_EQ(test, why, RMP_HDR_OK);
	KUNIT_EXPECT_EQ(test, got.hdr_len, (u16)len);
	KUNIT_EXPECT_EQ(test, got.payload_len, (u32)c->payload);
	expect_fields(test, &got, &f, info->flags);
}

struct hdr_wire_case {
	const char *desc;
	struct rmp_hdr_fields f;
	u32 imm;
	u8 len;
	u8 bytes[48];
};

static void hdr_wire_desc(const struct hdr_wire_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

/* Byte images written out by hand from the IBTA header diagrams. */
static const struct hdr_wire_case hdr_wire_cases[] = {
	{
		.desc = "RC write only: BTH+RETH",
		.f = {
			.bth = { .opcode = RMP_OP_RC_WRITE_ONLY, .mig = true,
				 .pad = 2, .pkey = 0xffff, .becn = true,
				 .qpn = 0x11, .ackreq = true, .psn = 0x102 },
			.reth = { .va = 0x0123456789abcdefULL,
				  .rkey = 0xdeadbeef, .len = 0x1002 },
		},
		.len = 28,
		.bytes = { 0x0a, 0x60, 0xff, 0xff, 0x40, 0x00, 0x00, 0x11,
			   0x80, 0x00, 0x01, 0x02,
			   0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
			   0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x10, 0x02 },
	},
	{
		.desc = "RC atomic ack: BTH+AETH+AtomicAckETH",
		.f = {
			.bth = { .opcode = RMP_OP_RC_ATOMIC_ACKNOWLEDGE,
				 .pkey = 0x8000, .qpn = 0xabcdef,
				 .psn = 0x654321 },
			.aeth = { .syndrome = 0x1f, .msn = 7 },
			.atmack = { .orig = 0x1122334455667788ULL },
		},
		.len = 24,
		.bytes = { 0x12, 0x00, 0x80, 0x00, 0x00, 0xab, 0xcd, 0xef,
			   0x00, 0x65, 0x43, 0x21, 0x1f, 0x00, 0x00, 0x07,
			   0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 },
	},
	{
		.desc = "UD send only imm: BTH+DETH+ImmDt",
		.f = {
			.bth = { .opcode = RMP_OP_UD_SEND_ONLY_IMM, .se = true,
				 .pad = 1, .pkey = 0xffff, .qpn = 1 },
			.deth = { .qkey = 0x80010000, .sqpn = 2 },
		},
		.imm = 0xcafef00d,
		.len = 24,
		.bytes = { 0x65, 0x90, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
			   0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00,
			   0x00, 0x00, 0x00, 0x02, 0xca, 0xfe, 0xf0, 0x0d },
	},
	{
		.desc = "RC compare swap: BTH+AtomicETH",
		.f = {
			.bth = { .opcode = RMP_OP_RC_COMPARE_SWAP,
				 .pkey = 0xffff, .qpn = 0x12, .ackreq = true,
				 .psn = 5 },
			.atmeth = { .va = 0x1000, .rkey = 0x55,
				    .swap_add = 0xaaaaaaaabbbbbbbbULL,
				    .compare = 0x0102030405060708ULL },
		},
		.len = 40,
		.bytes = { 0x13, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
			   0x80, 0x00, 0x00, 0x05,
			   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
			   0x00, 0x00, 0x00, 0x55,
			   0xaa, 0xaa, 0xaa, 0xaa, 0xbb, 0xbb, 0xbb, 0xbb,
			   0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 },
	},
	{
		.desc = "RC atomic write: BTH+RETH",
		.f = {
			.bth = { .opcode = RMP_OP_RC_ATOMIC_WRITE,
				 .pkey = 0xffff, .qpn = 0x12, .ackreq = true,
				 .psn = 6 },
			.reth = { .va = 0x2008, .rkey = 0x56, .len = 8 },
		},
		.len = 28,
		.bytes = { 0x1d, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
			   0x80, 0x00, 0x00, 0x06,
			   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x08,
			   0x00, 0x00, 0x00, 0x56, 0x00, 0x00, 0x00, 0x08 },
	},
	{
		.desc = "RC send only inv: BTH+IETH",
		.f = {
			.bth = { .opcode = RMP_OP_RC_SEND_ONLY_INV,
				 .pkey = 0xffff, .qpn = 3, .psn = 9 },
			.ieth = { .rkey = 0x01020304 },
		},
		.len = 16,
		.bytes = { 0x17, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x03,
			   0x00, 0x00, 0x00, 0x09, 0x01, 0x02, 0x03, 0x04 },
	},
	{
		.desc = "SEND piece last inv: BTH+SPETH+IETH",
		.f = {
			.bth = { .opcode = RMP_OP_EXT_SEND_PIECE_LAST_INV,
				 .pkey = 0xffff, .qpn = 3, .psn = 9 },
			.speth = { .ssn = 0xabcdef, .offset = 0x00012000 },
			.ieth = { .rkey = 0x11223344 },
		},
		.len = 24,
		.bytes = { 0xc7, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x03,
			   0x00, 0x00, 0x00, 0x09, 0x00, 0xab, 0xcd, 0xef,
			   0x00, 0x01, 0x20, 0x00, 0x11, 0x22, 0x33, 0x44 },
	},
	{
		.desc = "WRITE piece last imm: BTH+SPETH+RETH+ImmDt",
		.f = {
			.bth = { .opcode = RMP_OP_EXT_WRITE_PIECE_LAST_IMM,
				 .se = true, .pad = 3, .pkey = 0xffff,
				 .qpn = 0x12, .ackreq = true,
				 .psn = 0x010203 },
			.speth = { .ssn = 0x800102, .offset = 0x00003000 },
			.reth = { .va = 0x00007f0012345000ULL,
				  .rkey = 0x0000abcd, .len = 0x1d },
		},
		.imm = 0xfeedface,
		.len = 40,
		.bytes = { 0xc8, 0xb0, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
			   0x80, 0x01, 0x02, 0x03, 0x00, 0x80, 0x01, 0x02,
			   0x00, 0x00, 0x30, 0x00,
			   0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x50, 0x00,
			   0x00, 0x00, 0xab, 0xcd, 0x00, 0x00, 0x00, 0x1d,
			   0xfe, 0xed, 0xfa, 0xce },
	},
	{
		/* Same bytes as a CNP captured from a ConnectX-4 Lx. */
		.desc = "CNP: BTH+16 reserved",
		.f = {
			.bth = { .opcode = RMP_OP_CNP, .pkey = 0xffff,
				 .becn = true, .qpn = 0x118 },
		},
		.len = 28,
		.bytes = { 0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18 },
	},
};

KUNIT_ARRAY_PARAM(hdr_wire, hdr_wire_cases, hdr_wire_desc);

static void rmp_hdr_build__wire_bytes(struct kunit *test)
{
	const struct hdr_wire_case *c = test->param_value;
	struct rmp_hdr_fields f = c->f;
	u8 buf[64];
	int len, i;

	f.imm = cpu_to_be32(c->imm);
	memset(buf, 0xee, sizeof(buf));
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, (int)c->len);
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], c->bytes[i], "byte %d", i);
	KUNIT_EXPECT_EQ_MSG(test, buf[len], 0xee, "wrote past headers");
}

/*
 * The last piece of a sprayed WRITE with immediate data parsed from its
 * bytes (the wire case above, with 29 bytes of payload): its SPETH comes
 * first after the BTH, then the RETH, then the immediate data.
 */
static void rmp_hdr_parse__write_piece_bytes(struct kunit *test)
{
	const struct hdr_wire_case *c = NULL;
	enum rmp_hdr_err why = RMP_HDR_ERR_MAX;
	struct rmp_hdr_fields got;
	u8 pkt[96] = {};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hdr_wire_cases); i++)
		if (hdr_wire_cases[i].f.bth.opcode ==
		    RMP_OP_EXT_WRITE_PIECE_LAST_IMM)
			c = &hdr_wire_cases[i];
	KUNIT_ASSERT_NOT_NULL(test, c);
	memcpy(pkt, c->bytes, c->len);

	memset(&got, 0xff, sizeof(got));
	KUNIT_ASSERT_EQ(test, rmp_hdr_parse(&got, pkt, sizeof(pkt),
					    c->len + 29 + 3 + RMP_ICRC_SIZE,
					    &why), 0);
	KUNIT_EXPECT_EQ(test, why, RMP_HDR_OK);
	KUNIT_EXPECT_EQ(test, got.hdr_len, (u16)40);
	KUNIT_EXPECT_EQ(test, got.payload_len, 29U);
	KUNIT_EXPECT_EQ(test, got.bth.opcode,
			(u8)RMP_OP_EXT_WRITE_PIECE_LAST_IMM);
	KUNIT_EXPECT_TRUE(test, got.bth.se);
	KUNIT_EXPECT_EQ(test, got.bth.pad, (u8)3);
	KUNIT_EXPECT_EQ(test, got.bth.qpn, 0x12U);
	KUNIT_EXPECT_TRUE(test, got.bth.ackreq);
	KUNIT_EXPECT_EQ(test, got.bth.psn, 0x010203U);
	KUNIT_EXPECT_EQ(test, got.speth.ssn, 0x800102U);
	KUNIT_EXPECT_EQ(test, got.speth.offset, 0x3000U);
	KUNIT_EXPECT_EQ(test, got.reth.va, 0x00007f0012345000ULL);
	KUNIT_EXPECT_EQ(test, got.reth.rkey, 0xabcdU);
	KUNIT_EXPECT_EQ(test, got.reth.len, 0x1dU);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(got.imm), 0xfeedfaceU);

	/* One byte short of the immediate data. */
	KUNIT_EXPECT_EQ(test, rmp_hdr_parse(&got, pkt, c->len - 1, 0, &why),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, why, RMP_HDR_ERR_SHORT);
}

static void rmp_hdr_build__length_matches_table(struct kunit *test)
{
	struct rmp_hdr_fields f = hdr_template;
	unsigned int op, known = 0;
	u8 buf[64];

	for (op = 0; op < 256; op++) {
		const struct rmp_opcode_info *info = rmp_opcode_info(op);
		int len;

		f.bth.opcode = op;
		len = rmp_hdr_build(&f, buf, sizeof(buf));
		if (!info) {
			KUNIT_EXPECT_EQ_MSG(test, len, -EOPNOTSUPP,
					    "opcode %#x", op);
			continue;
		}
		known++;
		KUNIT_EXPECT_EQ_MSG(test, len, (int)info->hdr_len,
				    "opcode %#x", op);
	}
	/*
	 * 24 RC + 12 UC + 2 UD + CNP + SACK, GRANT, CREDIT_REQUEST,
	 * READ_REPORT, the four SEND pieces and the WRITE-with-immediate one
	 */
	KUNIT_EXPECT_EQ(test, known, 48U);
}

static void rmp_opcode_table__family_matches_opcode(struct kunit *test)
{
	static const u8 family_qpt[8] = {
		RMP_QPT_RC, RMP_QPT_UC, RMP_QPT_RD, RMP_QPT_UD,
		RMP_QPT_CNP, RMP_QPT_NONE, RMP_QPT_EXT, RMP_QPT_EXT,
	};
	unsigned int op;

	for (op = 0; op < 256; op++) {
		const struct rmp_opcode_info *info = rmp_opcode_info(op);
		bool both, one_pos;
		u32 pos;

		if (!info)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, info->qpt, family_qpt[op >> 5],
				    "opcode %#x (%s)", op, info->name);
		/* REQ and RESP are exclusive; CNP is neither. */
		both = (info->flags & RMP_OPF_REQ) &&
		       (info->flags & RMP_OPF_RESP);
		KUNIT_EXPECT_FALSE_MSG(test, both, "opcode %#x", op);
		pos = info->flags & (RMP_OPF_FIRST | RMP_OPF_MIDDLE |
				     RMP_OPF_LAST);
		one_pos = pos == RMP_OPF_FIRST || pos == RMP_OPF_MIDDLE ||
			  pos == RMP_OPF_LAST || pos == RMP_OPF_ONLY;
		if (info->qpt != RMP_QPT_CNP)
			KUNIT_EXPECT_TRUE_MSG(test, one_pos, "opcode %#x", op);
		/* The SEND pieces are RC requests of rmp's own. */
		KUNIT_EXPECT_EQ_MSG(test, !!(info->flags & RMP_OPF_NEEDS_ACK),
				    (info->qpt == RMP_QPT_RC ||
				     info->qpt == RMP_QPT_EXT) &&
				    !!(info->flags & RMP_OPF_REQ),
				    "opcode %#x", op);
	}
}

struct opcode_flags_case {
	const char *desc;
	u8 opcode;
	u32 flags;
};

static void opcode_flags_desc(const struct opcode_flags_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct opcode_flags_case opcode_flags_cases[] = {
	{ "RC_SEND_FIRST", RMP_OP_RC_SEND_FIRST,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_SEND | RMP_OPF_PAYLOAD |
	  RMP_OPF_FIRST },
	{ "RC_WRITE_LAST_IMM", RMP_OP_RC_WRITE_LAST_IMM,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_WRITE | RMP_OPF_PAYLOAD |
	  RMP_OPF_LAST | RMP_OPF_IMMDT },
	{ "RC_READ_REQUEST", RMP_OP_RC_READ_REQUEST,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_READ | RMP_OPF_ONLY |
	  RMP_OPF_RETH },
	{ "RC_READ_RESPONSE_MIDDLE", RMP_OP_RC_READ_RESPONSE_MIDDLE,
	  RMP_OPF_RESP | RMP_OPF_READ | RMP_OPF_PAYLOAD | RMP_OPF_MIDDLE },
	{ "RC_READ_RESPONSE_LAST", RMP_OP_RC_READ_RESPONSE_LAST,
	  RMP_OPF_RESP | RMP_OPF_READ | RMP_OPF_PAYLOAD | RMP_OPF_LAST |
	  RMP_OPF_AETH },
	{ "RC_ACKNOWLEDGE", RMP_OP_RC_ACKNOWLEDGE,
	  RMP_OPF_RESP | RMP_OPF_ACK | RMP_OPF_ONLY | RMP_OPF_AETH },
	{ "RC_FETCH_ADD", RMP_OP_RC_FETCH_ADD,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_ATOMIC | RMP_OPF_ONLY |
	  RMP_OPF_ATMETH },
	{ "RC_ATOMIC_WRITE", RMP_OP_RC_ATOMIC_WRITE,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_ATOMIC_WRITE |
	  RMP_OPF_PAYLOAD | RMP_OPF_ONLY | RMP_OPF_RETH },
	{ "RC_SEND_LAST_INV", RMP_OP_RC_SEND_LAST_INV,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_SEND | RMP_OPF_PAYLOAD |
	  RMP_OPF_LAST | RMP_OPF_IETH },
	{ "UC_WRITE_FIRST", RMP_OP_UC_WRITE_FIRST,
	  RMP_OPF_REQ | RMP_OPF_WRITE | RMP_OPF_PAYLOAD | RMP_OPF_FIRST |
	  RMP_OPF_RETH },
	{ "UD_SEND_ONLY", RMP_OP_UD_SEND_ONLY,
	  RMP_OPF_REQ | RMP_OPF_SEND | RMP_OPF_PAYLOAD | RMP_OPF_ONLY |
	  RMP_OPF_DETH },
	{ "EXT_WRITE_PIECE_LAST_IMM", RMP_OP_EXT_WRITE_PIECE_LAST_IMM,
	  RMP_OPF_REQ | RMP_OPF_NEEDS_ACK | RMP_OPF_WRITE | RMP_OPF_PAYLOAD |
	  RMP_OPF_ONLY | RMP_OPF_SPETH | RMP_OPF_RETH | RMP_OPF_IMMDT },
	{ "CNP", RMP_OP_CNP, RMP_OPF_CNPRSV },
};

KUNIT_ARRAY_PARAM(opcode_flags, opcode_flags_cases, opcode_flags_desc);

static void rmp_opcode_info__flags(struct kunit *test)
{
	const struct opcode_flags_case *c = test->param_value;
	const struct rmp_opcode_info *info = rmp_opcode_info(c->opcode);

	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_EXPECT_EQ(test, info->flags, c->flags);
	KUNIT_EXPECT_STREQ(test, info->name, c->desc);
}

struct hdr_bad_case {
	const char *desc;
	u8 opcode;
	u8 pad;
	u8 tver;
	u8 syndrome;
	int raw_opcode;		/* >= 0: overwrite the opcode after build */
	int buf_len;		/* < 0: exactly the built headers */
	size_t pkt_len;
	enum rmp_hdr_err why;
	int err;
};

static void hdr_bad_desc(const struct hdr_bad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

#define BAD(_desc, _op, _pad, _tver, _syn, _raw, _buf, _pkt, _why, _err) \
	{ _desc, RMP_OP_##_op, _pad, _tver, _syn, _raw, _buf, _pkt,	\
	  RMP_HDR_ERR_##_why, _err }

static const struct hdr_bad_case hdr_bad_cases[] = {
	BAD("empty buffer", RC_SEND_ONLY, 0, 0, 0, -1, 0, 0, SHORT, -EMSGSIZE),
	BAD("BTH cut short", RC_SEND_ONLY, 0, 0, 0, -1, 11, 0, SHORT,
	    -EMSGSIZE),
	BAD("RETH cut short", RC_WRITE_ONLY, 0, 0, 0, -1, 27, 0, SHORT,
	    -EMSGSIZE),
	BAD("AtomicAckETH cut short", RC_ATOMIC_ACKNOWLEDGE, 0, 0, 0, -1, 23,
	    0, SHORT, -EMSGSIZE),
	BAD("DETH cut short", UD_SEND_ONLY, 0, 0, 0, -1, 19, 0, SHORT,
	    -EMSGSIZE),
	BAD("reserved RC opcode 0x15", RC_SEND_ONLY, 0, 0, 0, 0x15, -1, 0,
	    OPCODE, -EOPNOTSUPP),
	BAD("reserved RC opcode 0x1f", RC_SEND_ONLY, 0, 0, 0, 0x1f, -1, 0,
	    OPCODE, -EOPNOTSUPP),
	BAD("reserved UC opcode 0x2c", RC_SEND_ONLY, 0, 0, 0, 0x2c, -1, 0,
	    OPCODE, -EOPNOTSUPP),
	BAD("RD send only 0x44", RC_SEND_ONLY, 0, 0, 0, 0x44, -1, 0, OPCODE,
	    -EOPNOTSUPP),
	BAD("UD send first 0x60", RC_SEND_ONLY, 0, 0, 0, 0x60, -1, 0, OPCODE,
	    -EOPNOTSUPP),
	BAD("CNP family 0x80", RC_SEND_ONLY, 0, 0, 0, 0x80, -1, 0, OPCODE,
	    -EOPNOTSUPP),
	BAD("vendor opcode 0xc9", RC_SEND_ONLY, 0, 0, 0, 0xc9, -1, 0, OPCODE,
	    -EOPNOTSUPP),
	BAD("vendor opcode 0xff", RC_SEND_ONLY, 0, 0, 0, 0xff, -1, 0, OPCODE,
	    -EOPNOTSUPP),
	BAD("tver 1", RC_SEND_ONLY, 0, 1, 0, -1, -1, 0, TVER,
	    -EPROTONOSUPPORT),
	BAD("tver 15", RC_ACKNOWLEDGE, 0, 15, 0, -1, -1, 0, TVER,
	    -EPROTONOSUPPORT),
	BAD("no room for ICRC", RC_WRITE_ONLY, 0, 0, 0, -1, -1, 28, LENGTH,
	    -EBADMSG),
	BAD("packet shorter than headers", RC_WRITE_ONLY, 0, 0, 0, -1, -1, 20,
	    LENGTH, -EBADMSG),
	BAD("payload not whole words", RC_SEND_ONLY, 0, 0, 0, -1, -1, 19,
	    LENGTH, -EBADMSG),
	BAD("payload on ACK", RC_ACKNOWLEDGE, 0, 0, 0, -1, -1, 24, PAYLOAD,
	    -EINVAL),
	BAD("payload on read request", RC_READ_REQUEST, 0, 0, 0, -1, -1, 36,
	    PAYLOAD, -EINVAL),
	BAD("empty send first", RC_SEND_FIRST, 0, 0, 0, -1, -1, 16, PAYLOAD,
	    -EINVAL),
	BAD("empty read response middle", RC_READ_RESPONSE_MIDDLE, 0, 0, 0,
	    -1, -1, 16, PAYLOAD, -EINVAL),
	BAD("pad on ACK", RC_ACKNOWLEDGE, 1, 0, 0, -1, -1, 0, PAD, -ERANGE),
	BAD("pad on send first", RC_SEND_FIRST, 2, 0, 0, -1, -1, 272, PAD,
	    -ERANGE),
	BAD("pad on write middle", RC_WRITE_MIDDLE, 1, 0, 0, -1, -1, 0, PAD,
	    -ERANGE),
	BAD("pad 3 with empty payload", RC_SEND_ONLY, 3, 0, 0, -1, -1, 16,
	    PAD, -ERANGE),
	BAD("reserved AETH class", RC_ACKNOWLEDGE, 0, 0, 0x40, -1, -1, 0,
	    SYNDROME, -EPROTO),
	BAD("reserved NAK code 5", RC_ACKNOWLEDGE, 0, 0, 0x65, -1, -1, 0,
	    SYNDROME, -EPROTO),
	BAD("reserved NAK code 31 in read response", RC_READ_RESPONSE_ONLY,
	    0, 0, 0x7f, -1, -1, 0, SYNDROME, -EPROTO),
};

KUNIT_ARRAY_PARAM(hdr_bad, hdr_bad_cases, hdr_bad_desc);

static void rmp_hdr_parse__rejects(struct kunit *test)
{
	const struct hdr_bad_case *c = test->param_value;
	struct rmp_hdr_fields f = hdr_template, got;
	enum rmp_hdr_err why = RMP_HDR_OK;
	u8 buf[64];
	int len, ret;

	f.bth.opcode = c->opcode;
	f.bth.pad = c->pad;
	f.bth.tver = c->tver;
	f.aeth.syndrome = c->syndrome;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, len, 0);
	if (c->raw_opcode >= 0)
		buf[0] = c->raw_opcode;
	if (c->buf_len >= 0)
		len = c->buf_len;

	ret = rmp_hdr_parse(&got, buf, len, c->pkt_len, &why);
	KUNIT_EXPECT_EQ(test, ret, c->err);
	KUNIT_EXPECT_EQ(test, why, c->why);
	KUNIT_EXPECT_EQ(test, ret, rmp_hdr_err_errno(why));
}

struct hdr_good_case {
	const char *desc;
	u8 opcode;
	u8 pad;
	u8 syndrome;
	size_t pkt_len;
	u32 payload_len;
};

static void hdr_good_desc(const struct hdr_good_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct hdr_good_case hdr_good_cases[] = {
	{ "send only, 1 byte + pad 3", RMP_OP_RC_SEND_ONLY, 3, 0, 20, 1 },
	{ "send only, empty", RMP_OP_RC_SEND_ONLY, 0, 0, 16, 0 },
	{ "read response only, empty", RMP_OP_RC_READ_RESPONSE_ONLY, 0, 0,
	  20, 0 },
	{ "send last, 6 bytes + pad 2", RMP_OP_RC_SEND_LAST, 2, 0, 24, 6 },
	{ "write first, 4096 bytes", RMP_OP_RC_WRITE_FIRST, 0, 0, 4128, 4096 },
	{ "NAK PSN sequence error", RMP_OP_RC_ACKNOWLEDGE, 0, 0x60, 20, 0 },
	{ "NAK invalid RD request", RMP_OP_RC_ACKNOWLEDGE, 0, 0x64, 20, 0 },
	{ "RNR NAK timer 31", RMP_OP_RC_ACKNOWLEDGE, 0, 0x3f, 20, 0 },
	{ "ACK credits invalid", RMP_OP_RC_ACKNOWLEDGE, 0, 0x1f, 20, 0 },
	{ "UD send only imm, pad 3", RMP_OP_UD_SEND_ONLY_IMM, 3, 0, 32, 1 },
	{ "CNP", RMP_OP_CNP, 0, 0, 32, 0 },
	{ "length unknown", RMP_OP_RC_SEND_LAST, 3, 0, 0, 0 },
};

KUNIT_ARRAY_PARAM(hdr_good, hdr_good_cases, hdr_good_desc);

static void rmp_hdr_parse__accepts_edges(struct kunit *test)
{
	const struct hdr_good_case *c = test->param_value;
	struct rmp_hdr_fields f = hdr_template, got;
	enum rmp_hdr_err why = RMP_HDR_ERR_MAX;
	u8 buf[64];
	int len;

	f.bth.opcode = c->opcode;
	f.bth.pad = c->pad;
	f.aeth.syndrome = c->syndrome;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, len, 0);

	KUNIT_EXPECT_EQ(test, rmp_hdr_parse(&got, buf, len, c->pkt_len, &why),
			0);
	KUNIT_EXPECT_EQ(test, why, RMP_HDR_OK);
	KUNIT_EXPECT_EQ(test, got.payload_len, c->payload_len);
	KUNIT_EXPECT_EQ(test, got.bth.pad, c->pad);
}

static void rmp_hdr_parse__why_is_optional(struct kunit *test)
{
	struct rmp_hdr_fields f = hdr_template, got;
	u8 buf[64];
	int len;

	f.bth.opcode = RMP_OP_RC_ACKNOWLEDGE;
	f.aeth.syndrome = 0x40;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, 16);
	KUNIT_EXPECT_EQ(test, rmp_hdr_parse(&got, buf, len, 0, NULL), -EPROTO);
	f.aeth.syndrome = 0;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rmp_hdr_parse(&got, buf, len, 0, NULL), 0);
}

static void rmp_hdr_err_str__every_reason(struct kunit *test)
{
	int i, j;

	for (i = 0; i < RMP_HDR_ERR_MAX; i++) {
		const char *s = rmp_hdr_err_str(i);

		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_STRNEQ(test, s, "unknown");
		if (i == RMP_HDR_OK)
			KUNIT_EXPECT_EQ(test, rmp_hdr_err_errno(i), 0);
		else
			KUNIT_EXPECT_LT(test, rmp_hdr_err_errno(i), 0);
		for (j = 0; j < i; j++) {
			KUNIT_EXPECT_STRNEQ(test, s, rmp_hdr_err_str(j));
			KUNIT_EXPECT_NE(test, rmp_hdr_err_errno(i),
					rmp_hdr_err_errno(j));
		}
	}
	KUNIT_EXPECT_STREQ(test, rmp_hdr_err_str(RMP_HDR_ERR_MAX), "unknown");
	KUNIT_EXPECT_EQ(test, rmp_hdr_err_errno(RMP_HDR_ERR_MAX), -EINVAL);
}

static void rmp_hdr_build__rejects(struct kunit *test)
{
	struct rmp_hdr_fields f = hdr_template;
	u8 buf[64];
	int i;

	f.bth.opcode = 0x15;
	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rmp_hdr_build(&f, buf, sizeof(buf)),
			-EOPNOTSUPP);

	f.bth.opcode = RMP_OP_RC_COMPARE_SWAP;
	KUNIT_EXPECT_EQ(test, rmp_hdr_build(&f, buf, 39), -EMSGSIZE);
	for (i = 0; i < (int)sizeof(buf); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], 0xa5, "byte %d written", i);
	KUNIT_EXPECT_EQ(test, rmp_hdr_build(&f, buf, 40), 40);
}

static void rmp_hdr_build__truncates_wide_values(struct kunit *test)
{
	struct rmp_hdr_fields f = { }, got;
	u8 buf[64];
	int len;

	f.bth.opcode = RMP_OP_UD_SEND_ONLY;
	f.bth.pad = 4 + 1;
	f.bth.tver = 0x10;
	f.bth.qpn = 0x1123456;
	f.bth.psn = 0xff654321;
	f.deth.sqpn = 0xff000001;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_EQ(test, len, 20);
	KUNIT_ASSERT_EQ(test, rmp_hdr_parse(&got, buf, len, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, got.bth.pad, 1);
	KUNIT_EXPECT_EQ(test, got.bth.tver, 0);
	KUNIT_EXPECT_EQ(test, got.bth.qpn, 0x123456U);
	KUNIT_EXPECT_FALSE(test, got.bth.fecn);
	KUNIT_EXPECT_FALSE(test, got.bth.becn);
	KUNIT_EXPECT_EQ(test, got.bth.psn, 0x654321U);
	KUNIT_EXPECT_FALSE(test, got.bth.ackreq);
	KUNIT_EXPECT_EQ(test, got.deth.sqpn, 1U);
	KUNIT_EXPECT_EQ(test, buf[12 + 4], 0);
}

struct bth_acc_case {
	const char *desc;
	u8 raw[12];
	u8 opcode;
	bool se, mig;
	u8 pad, tver;
	u16 pkey;
	bool fecn, becn;
	u32 qpn;
	bool ackreq;
	u32 psn;
};

static void bth_acc_desc(const struct bth_acc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct bth_acc_case bth_acc_cases[] = {
	{ "all ones",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff },
	  0xff, true, true, 3, 15, 0xffff, true, true, 0xffffff, true,
	  0xffffff },
	{ "all zeros", { 0 }, 0, false, false, 0, 0, 0, false, false, 0,
	  false, 0 },
	{ "pad 3 only", { 0x04, 0x30 }, 0x04, false, false, 3, 0, 0, false,
	  false, 0, false, 0 },
	{ "reserved bits do not leak",
	  { 0x11, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00,
	    0x7f, 0x00, 0x00, 0x00 },
	  0x11, false, false, 0, 0, 0, false, false, 0, false, 0 },
	{ "max QPN and PSN, flags clear",
	  { 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
	    0x00, 0xff, 0xff, 0xff },
	  0, false, false, 0, 0, 0, false, false, 0xffffff, false, 0xffffff },
	{ "FECN only", { 0, 0, 0, 0, 0x80, 0, 0, 1 }, 0, false, false, 0, 0,
	  0, true, false, 1, false, 0 },
	{ "BECN only", { 0, 0, 0, 0, 0x40, 0, 0, 1 }, 0, false, false, 0, 0,
	  0, false, true, 1, false, 0 },
	{ "mixed",
	  { 0x0a, 0xb1, 0x80, 0x01, 0x80, 0x12, 0x34, 0x56,
	    0x80, 0xab, 0xcd, 0xef },
	  0x0a, true, false, 3, 1, 0x8001, true, false, 0x123456, true,
	  0xabcdef },
};

KUNIT_ARRAY_PARAM(bth_acc, bth_acc_cases, bth_acc_desc);

static void rmp_bth_accessors__boundaries(struct kunit *test)
{
	const struct bth_acc_case *c = test->param_value;
	const struct rmp_bth *bth = (const struct rmp_bth *)c->raw;

	KUNIT_EXPECT_EQ(test, rmp_bth_opcode(bth), c->opcode);
	KUNIT_EXPECT_EQ(test, rmp_bth_se(bth), c->se);
	KUNIT_EXPECT_EQ(test, rmp_bth_mig(bth), c->mig);
	KUNIT_EXPECT_EQ(test, rmp_bth_pad(bth), c->pad);
	KUNIT_EXPECT_EQ(test, rmp_bth_tver(bth), c->tver);
	KUNIT_EXPECT_EQ(test, rmp_bth_pkey(bth), c->pkey);
	KUNIT_EXPECT_EQ(test, rmp_bth_fecn(bth), c->fecn);
	KUNIT_EXPECT_EQ(test, rmp_bth_becn(bth), c->becn);
	KUNIT_EXPECT_EQ(test, rmp_bth_qpn(bth), c->qpn);
	KUNIT_EXPECT_EQ(test, rmp_bth_ackreq(bth), c->ackreq);
	KUNIT_EXPECT_EQ(test, rmp_bth_psn(bth), c->psn);
}

static void rmp_bth_setters__keep_neighbours(struct kunit *test)
{
	struct rmp_bth bth;

	memset(&bth, 0, sizeof(bth));
	rmp_bth_set_qpn(&bth, 0xffffff, false, true);
	rmp_bth_set_psn(&bth, 0xffffff, false);
	KUNIT_EXPECT_EQ(test, rmp_bth_qpn(&bth), 0xffffffU);
	KUNIT_EXPECT_FALSE(test, rmp_bth_fecn(&bth));
	KUNIT_EXPECT_TRUE(test, rmp_bth_becn(&bth));
	KUNIT_EXPECT_FALSE(test, rmp_bth_ackreq(&bth));

	rmp_bth_set_flags(&bth, false, false, 3, 0);
	KUNIT_EXPECT_EQ(test, bth.flags, 0x30);
	rmp_bth_set_flags(&bth, true, true, 0, 0xf);
	KUNIT_EXPECT_EQ(test, bth.flags, 0xcf);
	rmp_bth_set_psn(&bth, 0, true);
	KUNIT_EXPECT_TRUE(test, rmp_bth_ackreq(&bth));
	KUNIT_EXPECT_EQ(test, rmp_bth_psn(&bth), 0U);
}

/*
 * Read spraying's bit: byte 8, 0x40, beside AckReq and the PSN, read back
 * by the parser; 0 unless asked for.
 */
static void rmp_hdr_build__spray_bit(struct kunit *test)
{
	struct rmp_hdr_fields f = {}, g;
	enum rmp_hdr_err why;
	u8 buf[64];
	int len;

	f.bth.opcode = RMP_OP_RC_READ_REQUEST;
	f.bth.psn = 0x123456;
	f.bth.ackreq = true;
	len = rmp_hdr_build(&f, buf, sizeof(buf));
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, buf[8], 0x80);
	f.bth.spray = true;
	KUNIT_ASSERT_EQ(test, rmp_hdr_build(&f, buf, sizeof(buf)), len);
	KUNIT_EXPECT_EQ(test, buf[8], 0xc0);
	KUNIT_EXPECT_EQ(test, buf[9], 0x12);
	KUNIT_ASSERT_EQ(test, rmp_hdr_parse(&g, buf, len, len + RMP_ICRC_SIZE,
					    &why), 0);
	KUNIT_EXPECT_TRUE(test, g.bth.spray);
	KUNIT_EXPECT_TRUE(test, g.bth.ackreq);
	KUNIT_EXPECT_EQ(test, g.bth.psn, 0x123456U);
}

struct aeth_case {
	const char *desc;
	u8 syndrome;
	u8 expect_syndrome;
	enum rmp_aeth_type type;
	u8 value;
};

static void aeth_desc(const struct aeth_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

#define AETH(_d, _syn, _want, _type, _val) \
	{ _d, _syn, _want, RMP_AETH_##_type, _val }

static const struct aeth_case aeth_cases[] = {
	AETH("ACK, 0 credits", 0x00, 0x00, ACK, 0),
	AETH("ACK, credits invalid", 0x1f, 0x1f, ACK, RMP_AETH_CREDITS_INVALID),
	AETH("RNR NAK, timer 0", 0x20, 0x20, RNR_NAK, 0),
	AETH("RNR NAK, timer 31", 0x3f, 0x3f, RNR_NAK, 31),
	AETH("NAK PSN sequence error", 0x60, 0x60, NAK, RMP_NAK_PSN_SEQ),
	AETH("NAK invalid request", 0x61, 0x61, NAK, RMP_NAK_INV_REQ),
	AETH("NAK remote access error", 0x62, 0x62, NAK, RMP_NAK_REM_ACCESS),
	AETH("NAK remote operational error", 0x63, 0x63, NAK, RMP_NAK_REM_OP),
	AETH("NAK invalid RD request", 0x64, 0x64, NAK, RMP_NAK_INV_RD_REQ),
	AETH("reserved class", 0x45, 0x45, RSVD, 5),
};

KUNIT_ARRAY_PARAM(aeth, aeth_cases, aeth_desc);

static void rmp_aeth_syndrome__decode(struct kunit *test)
{
	const struct aeth_case *c = test->param_value;
	struct rmp_aeth aeth;
	u8 built = 0;

	switch (c->type) {
	case RMP_AETH_ACK:
		built = rmp_aeth_syn_ack(c->value);
		break;
	case RMP_AETH_RNR_NAK:
		built = rmp_aeth_syn_rnr(c->value);
		break;
	case RMP_AETH_NAK:
		built = rmp_aeth_syn_nak(c->value);
		break;
	case RMP_AETH_RSVD:
		built = c->syndrome;
		break;
	}
	KUNIT_EXPECT_EQ(test, built, c->expect_syndrome);
	KUNIT_EXPECT_EQ(test, rmp_aeth_syn_type(c->syndrome), c->type);
	KUNIT_EXPECT_EQ(test, rmp_aeth_syn_value(c->syndrome), c->value);

	rmp_aeth_set(&aeth, c->syndrome, 0x1fedcba);
	KUNIT_EXPECT_EQ(test, rmp_aeth_syndrome(&aeth), c->syndrome);
	KUNIT_EXPECT_EQ(test, rmp_aeth_msn(&aeth), 0xfedcbaU);
}

static void rmp_hdr_pad__rounds_to_word(struct kunit *test)
{
	static const struct { u32 len; u8 pad; } cases[] = {
		{ 0, 0 }, { 1, 3 }, { 2, 2 }, { 3, 1 }, { 4, 0 },
		{ 4096, 0 }, { 4097, 3 }, { 0xffffffff, 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, rmp_hdr_pad(cases[i].len),
				    cases[i].pad, "len %u", cases[i].len);
}

static void captured_desc(const struct rmp_icrc_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", v->name);
}

KUNIT_ARRAY_PARAM(captured, rmp_icrc_vectors, captured_desc);

/*
 * Real packets (see icrc_vectors.h) parse, account for every byte, and
 * rebuild to the very header bytes they arrived with.
 */
static void rmp_hdr_parse__captured_packets(struct kunit *test)
{
	const struct rmp_icrc_vector *v = test->param_value;
	size_t off = 8 + (v->ip_version == 4 ? (v->bytes[0] & 0xf) * 4 : 40);
	size_t pkt_len = v->len - off;
	const u8 *bth = v->bytes + off;
	struct rmp_hdr_fields f;
	enum rmp_hdr_err why;
	u8 rebuilt[64];
	int len;

	KUNIT_ASSERT_EQ(test, rmp_hdr_parse(&f, bth, pkt_len, pkt_len, &why), 0);
	KUNIT_EXPECT_EQ(test, f.bth.opcode, bth[0]);
	KUNIT_EXPECT_EQ(test, (size_t)f.hdr_len + f.payload_len + f.bth.pad +
			RMP_ICRC_SIZE, pkt_len);
	len = rmp_hdr_build(&f, rebuilt, sizeof(rebuilt));
	KUNIT_ASSERT_EQ(test, len, (int)f.hdr_len);
	KUNIT_EXPECT_EQ(test, memcmp(rebuilt, bth, f.hdr_len), 0);
}

/* Same partition and one full member; the default key admits both forms. */
static void rmp_pkey_match__membership(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, rmp_pkey_match(0xffff, 0xffff));
	KUNIT_EXPECT_TRUE(test, rmp_pkey_match(0x7fff, 0xffff));
	KUNIT_EXPECT_TRUE(test, rmp_pkey_match(0xffff, 0x7fff));
	KUNIT_EXPECT_FALSE(test, rmp_pkey_match(0x7fff, 0x7fff));
	KUNIT_EXPECT_FALSE(test, rmp_pkey_match(0x8001, 0xffff));
	KUNIT_EXPECT_FALSE(test, rmp_pkey_match(0x0000, 0xffff));
	KUNIT_EXPECT_FALSE(test, rmp_pkey_match(0x8000, 0xffff));
	KUNIT_EXPECT_TRUE(test, rmp_pkey_match(0x8123, 0x0123));
}

static struct kunit_case rmp_hdr_cases[] = {
	KUNIT_CASE_PARAM(rmp_hdr_parse__captured_packets, captured_gen_params),
	KUNIT_CASE_PARAM(rmp_hdr_build__parse_roundtrip, hdr_rt_gen_params),
	KUNIT_CASE_PARAM(rmp_hdr_build__wire_bytes, hdr_wire_gen_params),
	KUNIT_CASE(rmp_hdr_parse__write_piece_bytes),
	KUNIT_CASE(rmp_hdr_build__length_matches_table),
	KUNIT_CASE(rmp_hdr_build__rejects),
	KUNIT_CASE(rmp_hdr_build__truncates_wide_values),
	KUNIT_CASE(rmp_opcode_table__family_matches_opcode),
	KUNIT_CASE_PARAM(rmp_opcode_info__flags, opcode_flags_gen_params),
	KUNIT_CASE_PARAM(rmp_hdr_parse__rejects, hdr_bad_gen_params),
	KUNIT_CASE_PARAM(rmp_hdr_parse__accepts_edges, hdr_good_gen_params),
	KUNIT_CASE(rmp_hdr_parse__why_is_optional),
	KUNIT_CASE(rmp_hdr_err_str__every_reason),
	KUNIT_CASE_PARAM(rmp_bth_accessors__boundaries, bth_acc_gen_params),
	KUNIT_CASE(rmp_bth_setters__keep_neighbours),
	KUNIT_CASE(rmp_hdr_build__spray_bit),
	KUNIT_CASE_PARAM(rmp_aeth_syndrome__decode, aeth_gen_params),
	KUNIT_CASE(rmp_hdr_pad__rounds_to_word),
	KUNIT_CASE(rmp_pkey_match__membership),
	{}
};

static struct kunit_suite rmp_hdr_suite = {
	.name = "rmp_hdr",
	.test_cases = rmp_hdr_cases,
};

kunit_test_suites(&rmp_hdr_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the rmp RoCEv2 transport engine");
