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

#include "rmp_dev.h"
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

/**
 * rmp_pkt_send_control() - send a control packet: headers, no payload
 * @dev: sending device
 * @fl: the flow of the QP it concerns; its traffic class is not used
 * @dscp: the DSCP it leaves with, in a class of its own ahead of data; it
 *	is never ECN-capable, so a switch neither marks nor drops it for
 *	congestion it signals
 * @sport: UDP source port
 * @f: its header fields, opcode and destination QP set; the P_Key is set
 *	here
 * @counter: the device counter of such packets sent
 */
void rmp_pkt_send_control(struct rmp_dev *dev, const struct rmp_flow *fl,
			  u8 dscp, u16 sport, struct rmp_hdr_fields *f,
			  enum rmp_counter counter)
{
	struct rmp_flow ctl = *fl;
	struct sk_buff *skb;
	void *payload;

	f->bth.pkey = RMP_PKEY_DEFAULT;
	ctl.tclass = dscp << 2;
	skb = rmp_pkt_new(dev, &ctl, f, 0, &payload);
	if (!skb) {
		rmp_stats_inc(&dev->stats, RMP_CNT_TX_DROP);
		return;
	}
	if (!rmp_net_xmit(dev, &ctl, NULL, sport, skb, NULL, NULL))
		rmp_stats_inc(&dev->stats, counter);
}
