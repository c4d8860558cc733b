// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: receive path
 *
 * Every RoCEv2 datagram, whether it came through a namespace's UDP socket
 * or was looped back by rmp_net_xmit(), enters rmp_recv() with its data at
 * the UDP header and the IP header still in front. The checks that need no
 * QP run here, in the context that received the packet (softirq, or the
 * sender with bottom halves off): the ICRC and the transport headers'
 * well-formedness. A packet failing any of them is dropped and counted under
 * a counter named for the reason; nothing reaches a QP before passing them.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

#include "rmp_dev.h"
#include "rmp_recv.h"
#include "rmp_stats.h"
#include "engine/hdr.h"
#include "engine/icrc.h"

/**
 * rmp_recv() - take in one RoCEv2 datagram
 * @dev: the device it arrived at
 * @skb: the datagram, data at the UDP header; consumed
 *
 * Must be called with bottom halves disabled.
 */
void rmp_recv(struct rmp_dev *dev, struct sk_buff *skb)
{
	struct rmp_hdr_fields f;
	enum rmp_counter why;
	unsigned int len;
	int ip_version;
	u8 *nh;

	rmp_stats_inc(&dev->stats, RMP_CNT_RX_PACKETS);
	if (skb_linearize(skb)) {
		why = RMP_CNT_RX_DROP_NOMEM;
		goto drop;
	}
	why = RMP_CNT_RX_DROP_MALFORMED;
	if (skb->len < sizeof(struct udphdr) + sizeof(struct rmp_bth) +
		       RMP_ICRC_SIZE)
		goto drop;
	len = skb->len - sizeof(struct udphdr);

	nh = skb_network_header(skb);
	ip_version = ip_hdr(skb)->version;
	if (ip_version != 4 && ip_version != 6)
		goto drop;
	why = RMP_CNT_RX_DROP_ICRC;
	if (rmp_icrc_verify(nh, skb_tail_pointer(skb) - nh, ip_version))
		goto drop;

	why = RMP_CNT_RX_DROP_MALFORMED;
	if (rmp_hdr_parse(&f, skb->data + sizeof(struct udphdr), len, len,
			  NULL))
		goto drop;

	/* Queue pairs arrive with the transport; until then none matches. */
	why = RMP_CNT_RX_DROP_NO_QP;
drop:
	rmp_stats_inc(&dev->stats, why);
	kfree_skb(skb);
}
