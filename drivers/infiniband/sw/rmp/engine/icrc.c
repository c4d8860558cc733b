// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 invariant CRC.
 *
 * The ICRC is the standard (Ethernet) CRC-32 over a pseudo packet: 8 bytes of
 * 0xff standing in for the InfiniBand LRH, then the IP header, UDP header and
 * BTH with every field a router may rewrite set to all ones, then the rest of
 * the packet.  It travels least significant byte first, as the Ethernet FCS
 * does; a ConnectX-4 Lx capture and Linux rxe agree on that.
 */
#include "icrc.h"
#include "hdr.h"
#include "crc32_table.h"

#define RMP_IPV4_HDR_MIN	20
#define RMP_IPV4_HDR_MAX	60
#define RMP_IPV6_HDR_LEN	40
#define RMP_UDP_HDR_LEN		8
#define RMP_IPPROTO_UDP		17

static rmp_crc32_fn rmp_crc32 = rmp_crc32_le;

static inline u32 rmp_get_le32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/* One slice-by-8 step: @lo and @hi are the next 8 bytes, little-endian. */
static inline u32 rmp_crc32_step8(u32 crc, u32 lo, u32 hi)
{
	const u32 (*t)[256] = rmp_crc32_table;

	lo ^= crc;
	return t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
	       t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
	       t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
	       t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
}

static inline u32 rmp_crc32_byte(u32 crc, u8 b)
{
	return (crc >> 8) ^ rmp_crc32_table[0][(crc ^ b) & 0xff];
}

/**
 * rmp_crc32_le() - the engine's own reflected CRC-32, slice-by-8
 * @crc: running CRC register, not inverted
 * @buf: bytes to add
 * @len: number of bytes at @buf
 *
 * Return: the updated CRC register.
 */
u32 rmp_crc32_le(u32 crc, const u8 *buf, size_t len)
{
	while (len >= 8) {
		crc = rmp_crc32_step8(crc, rmp_get_le32(buf),
				      rmp_get_le32(buf + 4));
		buf += 8;
		len -= 8;
	}
	while (len--)
		crc = rmp_crc32_byte(crc, *buf++);
	return crc;
}

/**
 * rmp_crc32_copy() - copy bytes and add them to a CRC-32 in one pass
 * @crc: running CRC register, not inverted
 * @dst: destination, @len bytes; must not overlap @src
 * @src: source, @len bytes
 * @len: number of bytes
 *
 * The same as memcpy() followed by rmp_crc32_le() on @src, but every byte
 * is loaded once: a transmitter copying a payload into a packet gets its
 * CRC for the price of the copy.
 *
 * Return: the updated CRC register.
 */
u32 rmp_crc32_copy(u32 crc, void *dst, const void *src, size_t len)
{
	const u8 *s = src;
	u8 *d = dst;

	while (len >= 8) {
		u64 w;

		memcpy(&w, s, sizeof(w));
		memcpy(d, &w, sizeof(w));
		w = le64_to_cpu((__force __le64)w);
		crc = rmp_crc32_step8(crc, (u32)w, (u32)(w >> 32));
		s += 8;
		d += 8;
		len -= 8;
	}
	while (len--) {
		*d = *s++;
		crc = rmp_crc32_byte(crc, *d++);
	}
	return crc;
}

/*
 * x^(8 * 2^k) mod the CRC-32 polynomial, bit-reflected like the register
 * (bit 31 is x^0): feeding 2^k zero bytes multiplies the register by entry
 * k.  The rmp_icrc KUnit suite recomputes every entry by squaring.
 */
const u32 rmp_crc32_x8pow2[32] = {
	0x00800000, 0x00008000, 0xedb88320, 0xb1e6b092,
	0xa06a2517, 0xed627dae, 0x88d14467, 0xd7bbfe6a,
	0xec447f11, 0x8e7ea170, 0x6427800e, 0x4d47bae0,
	0x09fe548f, 0x83852d0f, 0x30362f1a, 0x7b5a9cc3,
	0x31fec169, 0x9fec022a, 0x6c8dedc4, 0x15d6874d,
	0x5fde7a4e, 0xbad90e37, 0x2e4e5eef, 0x4eaba214,
	0xa8a472c0, 0x429a969e, 0x148d302a, 0xc40ba6d0,
	0xc4e22c3c, 0x40000000, 0x20000000, 0x08000000,
};

/**
 * rmp_crc32_mulmod() - product of two polynomials modulo the CRC-32 one
 * @a: a polynomial, bit-reflected (bit 31 is x^0)
 * @b: another
 *
 * Return: a * b mod 0x104c11db7, bit-reflected.
 */
u32 rmp_crc32_mulmod(u32 a, u32 b)
{
	u32 prod = 0;
	int i;

	for (i = 0; i < 32 && a; i++, a <<= 1) {
		if (a & 0x80000000)
			prod ^= b;
		b = (b >> 1) ^ (b & 1 ? 0xedb88320 : 0);
	}
	return prod;
}

/**
 * rmp_crc32_advance() - CRC-32 register after a run of zero bytes
 * @crc: running CRC register, not inverted
 * @len: number of zero bytes, below 2^32
 *
 * rmp_crc32_le(crc, zeros, @len) without the bytes, in at most 32
 * polynomial products, one per bit set in @len. As the CRC is linear, the
 * register after a part A then a part B is rmp_crc32_advance(crc(A),
 * len(B)) ^ crc of B started from 0: two parts of a packet can have their
 * CRCs computed apart, in any order, and joined.
 *
 * Return: the updated CRC register.
 */
u32 rmp_crc32_advance(u32 crc, size_t len)
{
	int k;

	for (k = 0; len && k < 32; k++, len >>= 1)
		if (len & 1)
			crc = rmp_crc32_mulmod(rmp_crc32_x8pow2[k], crc);
	return crc;
}

/**
 * rmp_icrc_set_crc32() - choose the CRC-32 implementation
 * @fn: implementation to use from now on, NULL for rmp_crc32_le()
 *
 * Meant to be called once at module load, before any packet is processed.
 */
void rmp_icrc_set_crc32(rmp_crc32_fn fn)
{
	rmp_crc32 = fn ? fn : rmp_crc32_le;
}

/*
 * Copy the IP, UDP and BTH headers into @ph with the variant fields masked.
 * Return: bytes copied, or a negative errno.
 */
static int rmp_icrc_pseudo_hdr(u8 *ph, const u8 *pkt, size_t len,
			       int ip_version)
{
	size_t ip_len;
	u8 proto;

	if (len < 1)
		return -EMSGSIZE;
	if (pkt[0] >> 4 != ip_version)
		return -EINVAL;

	switch (ip_version) {
	case 4:
		ip_len = (pkt[0] & 0x0f) * 4;
		if (ip_len < RMP_IPV4_HDR_MIN)
			return -EINVAL;
		if (len < ip_len)
			return -EMSGSIZE;
		proto = pkt[9];
		break;
	case 6:
		ip_len = RMP_IPV6_HDR_LEN;
		if (len < ip_len)
			return -EMSGSIZE;
		/* Extension headers between IPv6 and UDP are not supported. */
		proto = pkt[6];
		break;
	default:
		return -EINVAL;
	}
	if (proto != RMP_IPPROTO_UDP)
		return -EINVAL;
	if (len < ip_len + RMP_UDP_HDR_LEN + sizeof(struct rmp_bth) +
		  RMP_ICRC_SIZE)
		return -EMSGSIZE;

	memcpy(ph, pkt, ip_len + RMP_UDP_HDR_LEN + sizeof(struct rmp_bth));
	if (ip_version == 4) {
		ph[1] = 0xff;			/* TOS */
		ph[8] = 0xff;			/* TTL */
		ph[10] = 0xff;			/* header checksum */
		ph[11] = 0xff;
	} else {
		ph[0] |= 0x0f;			/* traffic class ... */
		memset(ph + 1, 0xff, 3);	/* ... and flow label */
		ph[7] = 0xff;			/* hop limit */
	}
	ph[ip_len + 6] = 0xff;			/* UDP checksum */
	ph[ip_len + 7] = 0xff;
	ph[ip_len + RMP_UDP_HDR_LEN + RMP_BTH_RESV8A_OFFSET] = 0xff;
	return ip_len + RMP_UDP_HDR_LEN + sizeof(struct rmp_bth);
}

/*
 * Start an ICRC: the CRC register over the masked LRH and the pseudo
 * headers of @pkt (IP, UDP, BTH) into *@crc. Return: the bytes of @pkt
 * they cover, or a negative errno.
 */
static int rmp_icrc_start(const u8 *pkt, size_t len, int ip_version,
			  u32 *crc)
{
	static const u8 lrh_mask[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	u8 ph[RMP_IPV4_HDR_MAX + RMP_UDP_HDR_LEN + sizeof(struct rmp_bth)];
	int ph_len;

	BUILD_BUG_ON(RMP_IPV6_HDR_LEN > RMP_IPV4_HDR_MAX);

	ph_len = rmp_icrc_pseudo_hdr(ph, pkt, len, ip_version);
	if (ph_len < 0)
		return ph_len;
	*crc = rmp_crc32(0xffffffff, lrh_mask, sizeof(lrh_mask));
	*crc = rmp_crc32(*crc, ph, ph_len);
	return ph_len;
}

/*
 * Start an ICRC with the transport headers too: *@crc over the masked LRH,
 * the pseudo headers of @pkt and the headers the BTH's opcode implies;
 * *@pad the BTH's pad count. Return: where the payload starts, or a
 * negative errno: that of rmp_icrc_pseudo_hdr(), or -EINVAL for an unknown
 * opcode or headers and pad longer than the @len bytes of the packet.
 */
static long rmp_icrc_headers(const u8 *pkt, size_t len, int ip_version,
			     u32 *crc, size_t *pad)
{
	const struct rmp_opcode_info *info;
	const struct rmp_bth *bth;
	size_t payload;
	int ph_len;

	ph_len = rmp_icrc_start(pkt, len, ip_version, crc);
	if (ph_len < 0)
		return ph_len;
	bth = (const void *)(pkt + ph_len - sizeof(*bth));
	info = rmp_opcode_info(rmp_bth_opcode(bth));
	if (!info)
		return -EINVAL;
	*pad = rmp_bth_pad(bth);
	payload = ph_len - sizeof(*bth) + info->hdr_len;
	if (payload + *pad > len - RMP_ICRC_SIZE)
		return -EINVAL;
	*crc = rmp_crc32(*crc, pkt + ph_len, payload - ph_len);
	return payload;
}

/*
 * The ICRC of @pkt (see rmp_icrc_compute()). With @payload_crc, the
 * payload (found from the BTH: after the opcode's headers, before the pad)
 * is not read: @payload_crc is its CRC register started from 0.
 */
static int rmp_icrc_compute_with(const void *pkt, size_t len, int ip_version,
				 const u32 *payload_crc, u32 *icrc)
{
	size_t end = len - RMP_ICRC_SIZE, pad;
	const u8 *p = pkt;
	long payload;
	u32 crc;

	if (payload_crc) {
		payload = rmp_icrc_headers(p, len, ip_version, &crc, &pad);
		if (payload < 0)
			return payload;
		crc = rmp_crc32_advance(crc, end - pad - payload) ^ *payload_crc;
		crc = rmp_crc32(crc, p + end - pad, pad);
	} else {
		payload = rmp_icrc_start(p, len, ip_version, &crc);
		if (payload < 0)
			return payload;
		crc = rmp_crc32(crc, p + payload, end - payload);
	}
	*icrc = ~crc;
	return 0;
}

/**
 * rmp_icrc_compute_split() - compute the ICRC of a packet held in pieces
 * @hdrs: the packet from the IP header through the opcode's transport
 *	headers, in one piece
 * @len: bytes of the whole packet, from the IP header through the ICRC
 * @ip_version: 4 or 6
 * @tail_crc: the CRC register, started from 0, over the bytes between the
 *	transport headers and the ICRC (payload and pad), read where they are
 * @icrc: where to store the ICRC, as a host-order value
 *
 * For a packet whose payload is not next to its headers in memory (page
 * fragments of an skb).
 *
 * Return: 0, or an error of rmp_icrc_compute(); -EINVAL as well for an
 * unknown opcode or transport headers and pad longer than the packet.
 */
int rmp_icrc_compute_split(const void *hdrs, size_t len, int ip_version,
			   u32 tail_crc, u32 *icrc)
{
	long payload;
	size_t pad;
	u32 crc;

	payload = rmp_icrc_headers(hdrs, len, ip_version, &crc, &pad);
	if (payload < 0)
		return payload;
	crc = rmp_crc32_advance(crc, len - RMP_ICRC_SIZE - payload) ^ tail_crc;
	*icrc = ~crc;
	return 0;
}

/**
 * rmp_icrc_compute() - compute the ICRC of a RoCEv2 packet
 * @pkt: packet, starting at the IP header
 * @len: bytes from the IP header through the 4-byte ICRC
 * @ip_version: 4 or 6; must match the version field of the packet
 * @icrc: where to store the ICRC, as a host-order value
 *
 * The 4 trailing bytes are not read.  An IPv6 packet must carry UDP
 * directly after the fixed header.
 *
 * Return: 0, -EINVAL for a bad IP version, header length or protocol,
 * -EMSGSIZE if @len cannot hold IP, UDP, BTH and ICRC.
 */
int rmp_icrc_compute(const void *pkt, size_t len, int ip_version, u32 *icrc)
{
	return rmp_icrc_compute_with(pkt, len, ip_version, NULL, icrc);
}

/**
 * rmp_icrc_generate() - compute the ICRC of a packet and store it
 * @pkt: packet, starting at the IP header
 * @len: bytes from the IP header through the 4-byte ICRC
 * @ip_version: 4 or 6
 * @payload_crc: NULL, or the CRC register over the payload (the bytes
 *	between the opcode's headers and the pad) started from 0, taken while
 *	the payload was copied in (rmp_crc32_copy()): the payload is then
 *	not read again
 *
 * Return: 0 or the error of rmp_icrc_compute(); -EINVAL as well, with
 * @payload_crc, for an unknown opcode or headers and pad longer than the
 * packet. On error @pkt is unchanged.
 */
int rmp_icrc_generate(void *pkt, size_t len, int ip_version,
		      const u32 *payload_crc)
{
	u32 icrc;
	u8 *p;
	int err;

	err = rmp_icrc_compute_with(pkt, len, ip_version, payload_crc, &icrc);
	if (err)
		return err;
	p = (u8 *)pkt + len - RMP_ICRC_SIZE;
	p[0] = icrc;
	p[1] = icrc >> 8;
	p[2] = icrc >> 16;
	p[3] = icrc >> 24;
	return 0;
}

/**
 * rmp_icrc_verify() - check the ICRC a packet carries
 * @pkt: packet, starting at the IP header
 * @len: bytes from the IP header through the 4-byte ICRC
 * @ip_version: 4 or 6
 * @payload_crc: NULL, or the CRC register over the payload started from 0,
 *	taken while the payload was copied out (rmp_crc32_copy()), as for
 *	rmp_icrc_generate()
 *
 * Return: 0 if the ICRC matches, -EBADMSG if it does not, or the error of
 * rmp_icrc_generate().
 */
int rmp_icrc_verify(const void *pkt, size_t len, int ip_version,
		    const u32 *payload_crc)
{
	u32 icrc;
	int err;

	err = rmp_icrc_compute_with(pkt, len, ip_version, payload_crc, &icrc);
	if (err)
		return err;
	if (icrc != rmp_get_le32((const u8 *)pkt + len - RMP_ICRC_SIZE))
		return -EBADMSG;
	return 0;
}
