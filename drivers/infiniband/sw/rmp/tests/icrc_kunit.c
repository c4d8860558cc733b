// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for CRC-32 and the RoCEv2 invariant CRC.
 */
#include <kunit/test.h>

#include "../engine/hdr.h"
#include "../engine/icrc.h"
#include "icrc_vectors.h"

#define IPV4_LEN	20
#define IPV6_LEN	40
#define UDP_LEN		8

/* One bit at a time, straight from the definition, as a reference. */
static u32 crc32_bitwise(u32 crc, const u8 *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (crc & 1 ? 0xedb88320 : 0);
	}
	return crc;
}

struct crc_check_case {
	const char *desc;
	const char *data;
	u32 want;
};

static void crc_check_desc(const struct crc_check_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct crc_check_case crc_check_cases[] = {
	{ "check value", "123456789", 0xcbf43926 },
	{ "empty", "", 0x00000000 },
	{ "one byte", "a", 0xe8b7be43 },
	{ "pangram", "The quick brown fox jumps over the lazy dog", 0x414fa339 },
};

KUNIT_ARRAY_PARAM(crc_check, crc_check_cases, crc_check_desc);

static void rmp_crc32_le__known_values(struct kunit *test)
{
	const struct crc_check_case *c = test->param_value;
	const u8 *p = (const u8 *)c->data;

	KUNIT_EXPECT_EQ(test, ~rmp_crc32_le(~0U, p, strlen(c->data)), c->want);
}

/* Pseudo-random bytes, the same every run. */
static void fill_bytes(u8 *buf, size_t len, u32 x)
{
	while (len--) {
		x = x * 1103515245 + 12345;
		*buf++ = x >> 16;
	}
}

static void rmp_crc32_le__matches_bitwise(struct kunit *test)
{
	u8 buf[80];
	size_t off, len;

	fill_bytes(buf, sizeof(buf), 0x12345678);
	/* Every alignment and every tail length of the slice-by-8 loop. */
	for (off = 0; off < 8; off++) {
		for (len = 0; len + off <= 72; len++) {
			u32 seed = 0xffffffff - (u32)len;

			KUNIT_EXPECT_EQ_MSG(test,
					    rmp_crc32_le(seed, buf + off, len),
					    crc32_bitwise(seed, buf + off, len),
					    "off %zu len %zu", off, len);
		}
	}
}

static void rmp_crc32_le__split_anywhere(struct kunit *test)
{
	static const u8 msg[] = "RoCEv2 invariant CRC, split at every byte";
	size_t len = sizeof(msg) - 1, cut;
	u32 whole = rmp_crc32_le(~0U, msg, len);

	for (cut = 0; cut <= len; cut++) {
		u32 crc = rmp_crc32_le(~0U, msg, cut);

		crc = rmp_crc32_le(crc, msg + cut, len - cut);
		KUNIT_EXPECT_EQ_MSG(test, crc, whole, "cut %zu", cut);
	}
}

static void rmp_crc32_le__lrh_mask_seed(struct kunit *test)
{
	static const u8 ff[8] = { 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0xff };

	/* Linux rxe starts its ICRC from this constant instead. */
	KUNIT_EXPECT_EQ(test, rmp_crc32_le(~0U, ff, sizeof(ff)), 0xdebb20e3U);
}

/* rmp_crc32_copy() of @len bytes into @dst, which has 0xa5 around it. */
static void check_crc32_copy(struct kunit *test, u8 *dst, const u8 *src,
			     size_t len)
{
	u32 seed = 0x9e3779b9 ^ (u32)len;

	memset(dst - 1, 0xa5, len + 2);
	KUNIT_EXPECT_EQ_MSG(test, rmp_crc32_copy(seed, dst, src, len),
			    crc32_bitwise(seed, src, len), "len %zu", len);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, len), 0);
	/* Not a byte more either side. */
	KUNIT_EXPECT_EQ(test, dst[-1], 0xa5);
	KUNIT_EXPECT_EQ(test, dst[len], 0xa5);
}

static void rmp_crc32_copy__copies_and_matches(struct kunit *test)
{
	u8 src[80], dst[90];
	size_t soff, doff, len;

	fill_bytes(src, sizeof(src), 7);
	/* Both alignments, every tail length of the 8-byte loop. */
	for (soff = 0; soff < 8; soff += 3) {
		for (doff = 0; doff < 8; doff += 5) {
			for (len = 0; len + soff <= 72; len++)
				check_crc32_copy(test, dst + 1 + doff,
						 src + soff, len);
		}
	}
}

static void rmp_crc32_x8pow2__by_squaring(struct kunit *test)
{
	u32 want = 0x00800000;		/* x^8, bit-reflected */
	int k;

	for (k = 0; k < 32; k++) {
		KUNIT_EXPECT_EQ_MSG(test, rmp_crc32_x8pow2[k], want, "k %d", k);
		want = rmp_crc32_mulmod(want, want);
	}
}

static void rmp_crc32_advance__equals_zero_bytes(struct kunit *test)
{
	static const size_t lens[] = { 0, 1, 2, 7, 8, 9, 255, 1024, 1500,
				       4096, 4099, 9000 };
	static const u8 zeros[9000];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u32 seed = 0xdeadbeef + (u32)i;

		KUNIT_EXPECT_EQ_MSG(test, rmp_crc32_advance(seed, lens[i]),
				    rmp_crc32_le(seed, zeros, lens[i]),
				    "len %zu", lens[i]);
	}
}

static void rmp_crc32_advance__joins_parts(struct kunit *test)
{
	u8 msg[300];
	size_t cut;
	u32 whole;

	fill_bytes(msg, sizeof(msg), 99);
	whole = rmp_crc32_le(~0U, msg, sizeof(msg));
	for (cut = 0; cut <= sizeof(msg); cut += 13) {
		u32 a = rmp_crc32_le(~0U, msg, cut);
		u32 b = rmp_crc32_le(0, msg + cut, sizeof(msg) - cut);

		KUNIT_EXPECT_EQ_MSG(test,
				    rmp_crc32_advance(a, sizeof(msg) - cut) ^ b,
				    whole, "cut %zu", cut);
	}
}

static u32 get_le32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void icrc_vector_desc(const struct rmp_icrc_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", v->name);
}

KUNIT_ARRAY_PARAM(icrc_vector, rmp_icrc_vectors, icrc_vector_desc);

static void rmp_icrc_verify__vectors(struct kunit *test)
{
	const struct rmp_icrc_vector *v = test->param_value;
	u32 icrc = 0;

	KUNIT_EXPECT_EQ(test,
			rmp_icrc_verify(v->bytes, v->len, v->ip_version, NULL),
			0);
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(v->bytes, v->len, v->ip_version,
					       &icrc), 0);
	KUNIT_EXPECT_EQ(test, icrc, get_le32(v->bytes + v->len - 4));
}

static void rmp_icrc_verify__vectors_detect_corruption(struct kunit *test)
{
	const struct rmp_icrc_vector *v = test->param_value;
	size_t ip_len = v->ip_version == 4 ? (v->bytes[0] & 0xf) * 4 : IPV6_LEN;
	u8 pkt[256];
	size_t i;

	KUNIT_ASSERT_LE(test, v->len, sizeof(pkt));
	/* Nothing after the BTH's FECN/BECN byte is masked. */
	for (i = ip_len + UDP_LEN + 5; i < v->len; i++) {
		memcpy(pkt, v->bytes, v->len);
		pkt[i] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test,
				    rmp_icrc_verify(pkt, v->len, v->ip_version,
						    NULL),
				    -EBADMSG, "byte %zu", i);
	}
}

/*
 * Build IP + UDP + transport headers + payload with a valid ICRC.
 * Return: total length.
 */
static size_t build_pkt(u8 *buf, int ip_version, u8 opcode, u32 payload)
{
	static const u8 ipv4_hdr[IPV4_LEN] = {
		0x45, 0x00, 0x00, 0x00, 0x12, 0x34, 0x40, 0x00,
		0x40, 0x11, 0xab, 0xcd, 10, 0, 0, 1, 10, 0, 0, 2,
	};
	struct rmp_hdr_fields f = {
		.bth = { .opcode = opcode, .pkey = 0xffff, .qpn = 0x4321,
			 .ackreq = true, .psn = 0xfffff0,
			 .pad = rmp_hdr_pad(payload) },
		.reth = { .va = 0x7f0000001000ULL, .rkey = 0x99, .len = payload },
		.aeth = { .syndrome = 0x1f, .msn = 0x10 },
		.deth = { .qkey = 0x11111111, .sqpn = 0x22 },
	};
	size_t ip_len = ip_version == 4 ? IPV4_LEN : IPV6_LEN;
	size_t len, tlen;
	int hlen;
	u32 i;

	hlen = rmp_hdr_build(&f, buf + ip_len + UDP_LEN, 64);
	if (hlen < 0)
		return 0;
	tlen = hlen + payload + f.bth.pad + RMP_ICRC_SIZE;
	len = ip_len + UDP_LEN + tlen;

	if (ip_version == 4) {
		memcpy(buf, ipv4_hdr, IPV4_LEN);
		buf[2] = len >> 8;
		buf[3] = len;
	} else {
		memset(buf, 0, IPV6_LEN);
		buf[0] = 0x60;
		buf[1] = 0x01;			/* flow label 0x12345 */
		buf[2] = 0x23;
		buf[3] = 0x45;
		buf[4] = (UDP_LEN + tlen) >> 8;
		buf[5] = UDP_LEN + tlen;
		buf[6] = 17;
		buf[7] = 64;
		buf[8] = 0xfd;
		buf[23] = 1;
		buf[24] = 0xfd;
		buf[39] = 2;
	}
	buf[ip_len + 0] = 0xc0;			/* source port: entropy */
	buf[ip_len + 1] = 0x42;
	buf[ip_len + 2] = 4791 >> 8;
	buf[ip_len + 3] = 4791 & 0xff;
	buf[ip_len + 4] = (UDP_LEN + tlen) >> 8;
	buf[ip_len + 5] = UDP_LEN + tlen;
	buf[ip_len + 6] = 0x5a;			/* checksum */
	buf[ip_len + 7] = 0xa5;
	for (i = 0; i < payload + f.bth.pad; i++)
		buf[ip_len + UDP_LEN + hlen + i] = i < payload ? 0x30 + i : 0;
	if (rmp_icrc_generate(buf, len, ip_version, NULL))
		return 0;
	return len;
}

struct icrc_pkt_case {
	const char *desc;
	int ip_version;
	u8 opcode;
	u32 payload;
};

static void icrc_pkt_desc(const struct icrc_pkt_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct icrc_pkt_case icrc_pkt_cases[] = {
	{ "IPv4 RC send only", 4, RMP_OP_RC_SEND_ONLY, 21 },
	{ "IPv4 RC write only", 4, RMP_OP_RC_WRITE_ONLY, 8 },
	{ "IPv4 RC ACK", 4, RMP_OP_RC_ACKNOWLEDGE, 0 },
	{ "IPv6 RC send only", 6, RMP_OP_RC_SEND_ONLY, 21 },
	{ "IPv6 UD send only", 6, RMP_OP_UD_SEND_ONLY, 3 },
	{ "IPv6 CNP", 6, RMP_OP_CNP, 0 },
};

KUNIT_ARRAY_PARAM(icrc_pkt, icrc_pkt_cases, icrc_pkt_desc);

/* Bits of @byte in a packet of @ip_version that the ICRC ignores. */
static u8 masked_bits(int ip_version, size_t byte)
{
	size_t ip_len = ip_version == 4 ? IPV4_LEN : IPV6_LEN;

	if (ip_version == 4 && (byte == 1 || byte == 8 || byte == 10 ||
				byte == 11))
		return 0xff;		/* TOS, TTL, header checksum */
	if (ip_version == 6 && byte == 0)
		return 0x0f;		/* traffic class, high nibble */
	if (ip_version == 6 && (byte == 1 || byte == 2 || byte == 3 ||
				byte == 7))
		return 0xff;		/* traffic class, flow label, hop limit */
	if (byte == ip_len + 6 || byte == ip_len + 7)
		return 0xff;		/* UDP checksum */
	if (byte == ip_len + UDP_LEN + RMP_BTH_RESV8A_OFFSET)
		return 0xff;		/* FECN, BECN, reserved */
	return 0;
}

static void rmp_icrc_verify__every_bit(struct kunit *test)
{
	const struct icrc_pkt_case *c = test->param_value;
	u8 pkt[160], orig[160];
	size_t len, i;
	int bit, masked = 0;

	len = build_pkt(orig, c->ip_version, c->opcode, c->payload);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	KUNIT_ASSERT_EQ(test, rmp_icrc_verify(orig, len, c->ip_version, NULL),
			0);

	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			u8 m = 1 << bit;
			int ret;

			memcpy(pkt, orig, len);
			pkt[i] ^= m;
			ret = rmp_icrc_verify(pkt, len, c->ip_version, NULL);
			if (masked_bits(c->ip_version, i) & m) {
				masked++;
				KUNIT_EXPECT_EQ_MSG(test, ret, 0,
						    "masked byte %zu bit %d",
						    i, bit);
			} else {
				/* IP version/length/protocol may fail first. */
				KUNIT_EXPECT_NE_MSG(test, ret, 0,
						    "byte %zu bit %d", i, bit);
			}
		}
	}
	KUNIT_EXPECT_EQ(test, masked, c->ip_version == 4 ? 7 * 8 : 4 + 7 * 8);
}

struct icrc_mask_case {
	const char *desc;
	int ip_version;
	size_t offset;
	u8 value;
};

static void icrc_mask_desc(const struct icrc_mask_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

#define V4_UDP	IPV4_LEN
#define V4_BTH	(IPV4_LEN + UDP_LEN)
#define V6_UDP	IPV6_LEN
#define V6_BTH	(IPV6_LEN + UDP_LEN)

static const struct icrc_mask_case icrc_mask_cases[] = {
	{ "IPv4 TTL decremented", 4, 8, 0x3f },
	{ "IPv4 TOS ECN CE", 4, 1, 0x03 },
	{ "IPv4 DSCP", 4, 1, 0x68 },
	{ "IPv4 header checksum", 4, 10, 0x00 },
	{ "IPv4 UDP checksum", 4, V4_UDP + 6, 0x12 },
	{ "IPv4 FECN", 4, V4_BTH + 4, 0x80 },
	{ "IPv4 BECN", 4, V4_BTH + 4, 0x40 },
	{ "IPv6 hop limit", 6, 7, 0x01 },
	{ "IPv6 traffic class ECN", 6, 1, 0x31 },
	{ "IPv6 flow label", 6, 3, 0x99 },
	{ "IPv6 UDP checksum", 6, V6_UDP + 7, 0xff },
	{ "IPv6 FECN+BECN", 6, V6_BTH + 4, 0xc0 },
};

KUNIT_ARRAY_PARAM(icrc_mask, icrc_mask_cases, icrc_mask_desc);

static void rmp_icrc_compute__ignores_variant_field(struct kunit *test)
{
	const struct icrc_mask_case *c = test->param_value;
	u32 before = 0, after = 1;
	u8 pkt[160];
	size_t len;

	len = build_pkt(pkt, c->ip_version, RMP_OP_RC_SEND_ONLY, 10);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(pkt, len, c->ip_version,
					       &before), 0);
	KUNIT_ASSERT_NE(test, pkt[c->offset], c->value);
	pkt[c->offset] = c->value;
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(pkt, len, c->ip_version,
					       &after), 0);
	KUNIT_EXPECT_EQ(test, after, before);
}

struct icrc_bad_case {
	const char *desc;
	int build_version;
	int ip_version;
	int offset;		/* < 0: no change */
	u8 value;
	int trim;		/* bytes to cut from the length */
	int err;
};

static void icrc_bad_desc(const struct icrc_bad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->desc);
}

static const struct icrc_bad_case icrc_bad_cases[] = {
	{ "IPv6 packet given as IPv4", 6, 4, -1, 0, 0, -EINVAL },
	{ "IPv4 packet given as IPv6", 4, 6, -1, 0, 0, -EINVAL },
	{ "IP version 5", 4, 5, 0, 0x55, 0, -EINVAL },
	{ "IPv4 IHL 4", 4, 4, 0, 0x44, 0, -EINVAL },
	{ "IPv4 IHL beyond packet", 4, 4, 0, 0x4f, 0, -EMSGSIZE },
	{ "IPv4 carries TCP", 4, 4, 9, 6, 0, -EINVAL },
	{ "IPv6 extension header", 6, 6, 6, 0, 0, -EINVAL },
	/* The ACK is 4 bytes longer than BTH + ICRC. */
	{ "IPv4 no room for BTH + ICRC", 4, 4, -1, 0, 5, -EMSGSIZE },
	{ "IPv6 no room for BTH + ICRC", 6, 6, -1, 0, 5, -EMSGSIZE },
	{ "IPv4 ACK shortened to BTH + ICRC", 4, 4, -1, 0, 4, -EBADMSG },
	{ "IPv6 header only", 6, 6, -1, 0, UDP_LEN + 12 + 4 + 1, -EMSGSIZE },
	{ "empty", 4, 4, -1, 0, IPV4_LEN + UDP_LEN + 12 + 4, -EMSGSIZE },
	{ "IPv4 ICRC wrong", 4, 4, IPV4_LEN + UDP_LEN + 12, 0x00, 0,
	  -EBADMSG },
};

KUNIT_ARRAY_PARAM(icrc_bad, icrc_bad_cases, icrc_bad_desc);

static void rmp_icrc_verify__rejects(struct kunit *test)
{
	const struct icrc_bad_case *c = test->param_value;
	u8 pkt[160], orig[160];
	size_t len;
	u32 icrc;

	/* RC ACK without payload: the ICRC directly follows the AETH. */
	len = build_pkt(pkt, c->build_version, RMP_OP_RC_ACKNOWLEDGE, 0);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	if (c->offset >= 0) {
		KUNIT_ASSERT_NE(test, pkt[c->offset], c->value);
		pkt[c->offset] = c->value;
	}
	len -= c->trim;
	memcpy(orig, pkt, sizeof(pkt));

	KUNIT_EXPECT_EQ(test, rmp_icrc_verify(pkt, len, c->ip_version, NULL),
			c->err);
	if (c->err != -EBADMSG) {
		KUNIT_EXPECT_EQ(test, rmp_icrc_compute(pkt, len, c->ip_version,
						       &icrc), c->err);
		KUNIT_EXPECT_EQ(test, rmp_icrc_generate(pkt, len,
							c->ip_version, NULL),
				c->err);
		KUNIT_EXPECT_EQ(test, memcmp(pkt, orig, sizeof(pkt)), 0);
	}
}

static void rmp_icrc_generate__little_endian(struct kunit *test)
{
	u8 pkt[160];
	size_t len;
	u32 icrc;

	len = build_pkt(pkt, 4, RMP_OP_RC_SEND_ONLY, 17);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(pkt, len, 4, &icrc), 0);
	KUNIT_EXPECT_EQ(test, pkt[len - 4], (u8)icrc);
	KUNIT_EXPECT_EQ(test, pkt[len - 3], (u8)(icrc >> 8));
	KUNIT_EXPECT_EQ(test, pkt[len - 2], (u8)(icrc >> 16));
	KUNIT_EXPECT_EQ(test, pkt[len - 1], (u8)(icrc >> 24));
}

static void rmp_icrc_compute__ipv4_options_covered(struct kunit *test)
{
	u8 pkt[160], opt[160];
	size_t len;
	u32 a, b;

	len = build_pkt(pkt, 4, RMP_OP_RC_ACKNOWLEDGE, 0);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	/* Same packet with a 4-byte IPv4 option (NOP NOP NOP EOL). */
	memcpy(opt, pkt, IPV4_LEN);
	opt[0] = 0x46;
	memcpy(opt + IPV4_LEN, (const u8[]){ 1, 1, 1, 0 }, 4);
	memcpy(opt + IPV4_LEN + 4, pkt + IPV4_LEN, len - IPV4_LEN);
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(opt, len + 4, 4, &a), 0);
	opt[IPV4_LEN + 3] = 1;
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(opt, len + 4, 4, &b), 0);
	KUNIT_EXPECT_NE(test, a, b);
	/* The TTL is still found behind the options. */
	opt[8] ^= 0xff;
	KUNIT_ASSERT_EQ(test, rmp_icrc_compute(opt, len + 4, 4, &a), 0);
	KUNIT_EXPECT_EQ(test, a, b);
}

/*
 * An ICRC generated from a payload CRC taken apart is the same ICRC, the
 * payload found from the BTH; its bytes are spoiled to show they are not
 * read, the pad's are not. Verifying with the payload CRC accepts the
 * packet, and refuses it with the CRC or a header byte changed.
 */
/* One packet of rmp_icrc_generate__payload_crc(). */
static void check_payload_crc(struct kunit *test, int v, u8 op, u32 payload)
{
	size_t hdr = (v == 4 ? IPV4_LEN : IPV6_LEN) + UDP_LEN +
		     rmp_opcode_info(op)->hdr_len;
	u8 pkt[200], ref[200];
	size_t len;
	u32 crc;

	len = build_pkt(ref, v, op, payload);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	crc = rmp_crc32_le(0, ref + hdr, payload);
	memcpy(pkt, ref, len);
	memset(pkt + hdr, 0x5c, payload);
	memset(pkt + len - 4, 0, 4);
	KUNIT_ASSERT_EQ(test, rmp_icrc_generate(pkt, len, v, &crc), 0);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(pkt + len - 4, ref + len - 4, 4), 0,
			    "v%d op %u payload %u", v, op, payload);
	/* A receiver's check, the payload's CRC taken as it was placed. */
	KUNIT_EXPECT_EQ(test, rmp_icrc_verify(pkt, len, v, &crc), 0);
	crc ^= 1;
	KUNIT_EXPECT_EQ(test, rmp_icrc_verify(pkt, len, v, &crc), -EBADMSG);
	crc ^= 1;
	pkt[hdr - 1] ^= 0x10;
	KUNIT_EXPECT_EQ(test, rmp_icrc_verify(pkt, len, v, &crc), -EBADMSG);
}

static void rmp_icrc_generate__payload_crc(struct kunit *test)
{
	u32 payload;
	int v;

	for (v = 4; v <= 6; v += 2) {
		check_payload_crc(test, v, RMP_OP_RC_ACKNOWLEDGE, 0);
		for (payload = 0; payload <= 33; payload++) {
			check_payload_crc(test, v, RMP_OP_RC_SEND_ONLY,
					  payload);
			check_payload_crc(test, v, RMP_OP_RC_WRITE_ONLY,
					  payload);
		}
	}
}

static void rmp_icrc_generate__payload_crc_refused(struct kunit *test)
{
	size_t bth = IPV4_LEN + UDP_LEN;
	u8 pkt[160], orig[160];
	u32 crc = 0;
	size_t len;

	len = build_pkt(pkt, 4, RMP_OP_RC_SEND_ONLY, 20);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	/* An opcode of no known layout: no payload to place. */
	pkt[bth] = 0x1f;
	memcpy(orig, pkt, len);
	KUNIT_EXPECT_EQ(test, rmp_icrc_generate(pkt, len, 4, &crc), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(pkt, orig, len), 0);
	/* Headers and pad longer than the packet. */
	len = build_pkt(pkt, 4, RMP_OP_RC_WRITE_ONLY, 0);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	len -= 4;
	memcpy(orig, pkt, len);
	KUNIT_EXPECT_EQ(test, rmp_icrc_generate(pkt, len, 4, &crc), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(pkt, orig, len), 0);
}

/*
 * A packet in pieces (headers apart from payload and pad): the ICRC from
 * its headers and the CRC of the rest equals the whole packet's, whatever
 * the pad; it moves with a header byte or with the rest's CRC. The bytes
 * after the headers are spoiled to show they are not read. Headers longer
 * than the packet and unknown opcodes are refused.
 */
static void rmp_icrc_compute_split__equals_whole(struct kunit *test)
{
	u8 pkt[200], hdrs[200];
	u32 payload, whole, split, tail;
	size_t len, hdr;
	int v;

	for (v = 4; v <= 6; v += 2) {
		for (payload = 0; payload <= 33; payload++) {
			len = build_pkt(pkt, v, RMP_OP_RC_SEND_ONLY, payload);
			KUNIT_ASSERT_GT(test, len, (size_t)0);
			hdr = (v == 4 ? IPV4_LEN : IPV6_LEN) + UDP_LEN +
			      rmp_opcode_info(RMP_OP_RC_SEND_ONLY)->hdr_len;
			KUNIT_ASSERT_EQ(test, rmp_icrc_compute(pkt, len, v,
							       &whole), 0);
			tail = rmp_crc32_le(0, pkt + hdr, len - 4 - hdr);
			memcpy(hdrs, pkt, hdr);
			memset(hdrs + hdr, 0x5c, len - hdr);
			KUNIT_ASSERT_EQ(test,
					rmp_icrc_compute_split(hdrs, len, v,
							       tail, &split),
					0);
			KUNIT_EXPECT_EQ_MSG(test, split, whole,
					    "v%d payload %u", v, payload);
			KUNIT_ASSERT_EQ(test,
					rmp_icrc_compute_split(hdrs, len, v,
							       tail ^ 1,
							       &split), 0);
			KUNIT_EXPECT_NE(test, split, whole);
			hdrs[hdr - 1] ^= 0x10;
			KUNIT_ASSERT_EQ(test,
					rmp_icrc_compute_split(hdrs, len, v,
							       tail, &split),
					0);
			KUNIT_EXPECT_NE(test, split, whole);
		}
	}
	len = build_pkt(pkt, 4, RMP_OP_RC_WRITE_ONLY, 0);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	KUNIT_EXPECT_EQ(test, rmp_icrc_compute_split(pkt, len - 4, 4, 0,
						     &split), -EINVAL);
	pkt[IPV4_LEN + UDP_LEN] = 0x1f;
	KUNIT_EXPECT_EQ(test, rmp_icrc_compute_split(pkt, len, 4, 0, &split),
			-EINVAL);
}

static unsigned int hook_calls;

static u32 counting_crc32(u32 crc, const u8 *buf, size_t len)
{
	hook_calls++;
	return crc32_bitwise(crc, buf, len);
}

/* Off by one bit: the ICRC must notice. */
static u32 broken_crc32(u32 crc, const u8 *buf, size_t len)
{
	return crc32_bitwise(crc, buf, len) ^ 1;
}

static void rmp_icrc_set_crc32__hook(struct kunit *test)
{
	const struct rmp_icrc_vector *v = &rmp_icrc_vectors[0];

	hook_calls = 0;
	rmp_icrc_set_crc32(counting_crc32);
	KUNIT_EXPECT_EQ(test,
			rmp_icrc_verify(v->bytes, v->len, v->ip_version, NULL),
			0);
	KUNIT_EXPECT_GT(test, hook_calls, 0U);

	rmp_icrc_set_crc32(broken_crc32);
	KUNIT_EXPECT_EQ(test,
			rmp_icrc_verify(v->bytes, v->len, v->ip_version, NULL),
			-EBADMSG);

	rmp_icrc_set_crc32(NULL);
	hook_calls = 0;
	KUNIT_EXPECT_EQ(test,
			rmp_icrc_verify(v->bytes, v->len, v->ip_version, NULL),
			0);
	KUNIT_EXPECT_EQ(test, hook_calls, 0U);
}

static void icrc_exit(struct kunit *test __always_unused)
{
	rmp_icrc_set_crc32(NULL);
}

static struct kunit_case rmp_icrc_cases[] = {
	KUNIT_CASE_PARAM(rmp_crc32_le__known_values, crc_check_gen_params),
	KUNIT_CASE(rmp_crc32_le__matches_bitwise),
	KUNIT_CASE(rmp_crc32_le__split_anywhere),
	KUNIT_CASE(rmp_crc32_le__lrh_mask_seed),
	KUNIT_CASE(rmp_crc32_copy__copies_and_matches),
	KUNIT_CASE(rmp_crc32_x8pow2__by_squaring),
	KUNIT_CASE(rmp_crc32_advance__equals_zero_bytes),
	KUNIT_CASE(rmp_crc32_advance__joins_parts),
	KUNIT_CASE_PARAM(rmp_icrc_verify__vectors, icrc_vector_gen_params),
	KUNIT_CASE_PARAM(rmp_icrc_verify__vectors_detect_corruption,
			 icrc_vector_gen_params),
	KUNIT_CASE_PARAM(rmp_icrc_verify__every_bit, icrc_pkt_gen_params),
	KUNIT_CASE_PARAM(rmp_icrc_compute__ignores_variant_field,
			 icrc_mask_gen_params),
	KUNIT_CASE_PARAM(rmp_icrc_verify__rejects, icrc_bad_gen_params),
	KUNIT_CASE(rmp_icrc_generate__little_endian),
	KUNIT_CASE(rmp_icrc_compute__ipv4_options_covered),
	KUNIT_CASE(rmp_icrc_generate__payload_crc),
	KUNIT_CASE(rmp_icrc_generate__payload_crc_refused),
	KUNIT_CASE(rmp_icrc_compute_split__equals_whole),
	KUNIT_CASE(rmp_icrc_set_crc32__hook),
	{}
};

static struct kunit_suite rmp_icrc_suite = {
	.name = "rmp_icrc",
	.exit = icrc_exit,
	.test_cases = rmp_icrc_cases,
};

kunit_test_suites(&rmp_icrc_suite);
