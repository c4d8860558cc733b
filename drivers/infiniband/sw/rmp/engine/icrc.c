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
	const u32 (*t)[256] = rmp_crc32_table;

	while (len >= 8) {
		u32 lo = crc ^ rmp_get_le32(buf);
		u32 hi = rmp_get_le32(buf + 4);

		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
		      t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
		buf += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ t[0][(crc ^ *buf++) & 0xff];
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
	static const u8 lrh_mask[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	u8 ph[RMP_IPV4_HDR_MAX + RMP_UDP_HDR_LEN + sizeof(struct rmp_bth)];
	int ph_len;
	u32 crc;

	BUILD_BUG_ON(RMP_IPV6_HDR_LEN > RMP_IPV4_HDR_MAX);

	ph_len = rmp_icrc_pseudo_hdr(ph, pkt, len, ip_version);
	if (ph_len < 0)
		return ph_len;

	crc = rmp_crc32(0xffffffff, lrh_mask, sizeof(lrh_mask));
	crc = rmp_crc32(crc, ph, ph_len);
	crc = rmp_crc32(crc, (const u8 *)pkt + ph_len,
			len - ph_len - RMP_ICRC_SIZE);
	*icrc = ~crc;
	return 0;
}

/**
 * rmp_icrc_generate() - compute the ICRC of a packet and store it
 * @pkt: packet, starting at the IP header
 * @len: bytes from the IP header through the 4-byte ICRC
 * @ip_version: 4 or 6
 *
 * Return: 0 or the error of rmp_icrc_compute(); on error @pkt is unchanged.
 */
int rmp_icrc_generate(void *pkt, size_t len, int ip_version)
{
	u32 icrc;
	u8 *p;
	int err;

	err = rmp_icrc_compute(pkt, len, ip_version, &icrc);
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
 *
 * Return: 0 if the ICRC matches, -EBADMSG if it does not, or the error of
 * rmp_icrc_compute().
 */
int rmp_icrc_verify(const void *pkt, size_t len, int ip_version)
{
	u32 icrc;
	int err;

	err = rmp_icrc_compute(pkt, len, ip_version, &icrc);
	if (err)
		return err;
	if (icrc != rmp_get_le32((const u8 *)pkt + len - RMP_ICRC_SIZE))
		return -EBADMSG;
	return 0;
}
