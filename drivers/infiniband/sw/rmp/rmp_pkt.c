// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: transport packets
 *
 * Every packet rmp sends, request or response, is made the same way: one
 * linear skb holding BTH, extended headers, payload, pad and room for the
 * ICRC, with headroom for UDP, IP and the link layer. rmp_pkt_new() writes
 * the transport headers; the caller copies the payload in and hands the skb
 * to rmp_net_xmit(), which adds UDP and IP and computes the ICRC.
 *
 * The payload is read once: its copy into the packet adds it to a CRC on
 * the way (rmp_crc32_copy(), started from 0), and rmp_net_xmit() computes
 * the ICRC over the headers only, joining the payload's CRC to theirs with
 * rmp_crc32_advance(). A copy followed by a CRC pass would read every byte
 * twice; in a software device those two passes are most of the cost of a
 * large packet.
 */
#include <linux/string.h>

#include "rmp_net.h"
#include "rmp_pkt.h"

/**
 * rmp_pkt_new() - allocate a packet and write its transport headers
 * @dev: sending device
 * @fl: the flow the packet takes
 * @f: header fields for rmp_hdr_build(); the pad count is set here
 * @payload_len: payload bytes the caller will copy in
 * @payload: set to where the payload goes
 *
 * The pad bytes and the ICRC are zeroed; rmp_net_xmit() computes the ICRC
 * of a packet that leaves the host.
 *
 * Return: the skb, or NULL without memory or for an opcode rmp cannot
 * build.
 */
struct sk_buff *rmp_pkt_new(struct rmp_dev *dev, const struct rmp_flow *fl,
			    struct rmp_hdr_fields *f, u32 payload_len,
			    void **payload)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	struct sk_buff *skb;
	u8 pad;

	if (WARN_ON_ONCE(!info))
		return NULL;
	pad = rmp_hdr_pad(payload_len);
	skb = rmp_net_alloc_skb(dev, fl, info->hdr_len + payload_len + pad +
				RMP_ICRC_SIZE);
	if (!skb)
		return NULL;
	f->bth.pad = pad;
	if (WARN_ON_ONCE(rmp_hdr_build(f, skb->data, info->hdr_len) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	*payload = skb->data + info->hdr_len;
	memset(*payload + payload_len, 0, pad + RMP_ICRC_SIZE);
	return skb;
}
