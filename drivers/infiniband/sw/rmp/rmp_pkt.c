// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: transport packets
 *
 * Every packet rmp sends, request or response, is made the same way: an
 * skb holding BTH, extended headers, payload, pad and room for the ICRC,
 * with headroom for UDP, IP and the link layer. rmp_pkt_new() writes the
 * transport headers; the caller copies the payload in and hands the skb to
 * rmp_net_xmit(), which adds UDP and IP and computes the ICRC.
 *
 * The payload is read once: its copy into the packet adds it to a CRC on
 * the way (rmp_crc32_copy(), started from 0), and rmp_net_xmit() computes
 * the ICRC over the headers only, joining the payload's CRC to theirs with
 * rmp_crc32_advance(). A copy followed by a CRC pass would read every byte
 * twice; in a software device those two passes are most of the cost of a
 * large packet.
 *
 * A payload of %RMP_PKT_ATTACH_MIN bytes or more from user memory is not
 * copied at all where the netdev takes page fragments (``NETIF_F_SG``)
 * and the device knob ``zcopy`` is on (the default):
 * rmp_pkt_new_from() attaches the pinned pages it is in to the skb, each
 * fragment holding a page reference (rmp_mr_attach()), takes the payload's
 * CRC in a read-only pass where an ICRC is due, and ends the packet with a
 * fragment of its own for the pad and the ICRC. The linear part holds the
 * headers only. A receiver of this host (loopback, or a veth peer) then
 * copies the payload once, from the sender's pages into its own region
 * (see the receive path). What the owner of the memory writes to it before
 * the work request completes may go out, as with any RNIC's DMA.
 */
#include <linux/netdevice.h>
#include <linux/string.h>

#include "rmp_dev.h"
#include "rmp_knob.h"
#include "rmp_mr.h"
#include "rmp_net.h"
#include "rmp_pkt.h"
#include "engine/icrc.h"

/*
 * A packet for @payload_len bytes of payload with its transport headers
 * written (the pad count set in @f); the payload, pad and ICRC take @room
 * bytes of its linear part (all of them, or none).
 */
static struct sk_buff *rmp_pkt_alloc(struct rmp_dev *dev,
				     const struct rmp_flow *fl,
				     struct rmp_hdr_fields *f, u32 payload_len,
				     u32 room)
{
	const struct rmp_opcode_info *info = rmp_opcode_info(f->bth.opcode);
	struct sk_buff *skb;

	if (WARN_ON_ONCE(!info))
		return NULL;
	skb = rmp_net_alloc_skb(dev, fl, info->hdr_len + room);
	if (!skb)
		return NULL;
	f->bth.pad = rmp_hdr_pad(payload_len);
	if (WARN_ON_ONCE(rmp_hdr_build(f, skb->data, info->hdr_len) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

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
	u8 pad = rmp_hdr_pad(payload_len);
	struct sk_buff *skb;

	skb = rmp_pkt_alloc(dev, fl, f, payload_len,
			    payload_len + pad + RMP_ICRC_SIZE);
	if (!skb)
		return NULL;
	*payload = skb->data + rmp_opcode_info(f->bth.opcode)->hdr_len;
	memset(*payload + payload_len, 0, pad + RMP_ICRC_SIZE);
	return skb;
}

/*
 * End a packet whose payload was attached: a zeroed fragment for the pad
 * and the ICRC, the pad added to *@crc if given.
 */
static int rmp_pkt_close(struct sk_buff *skb, u8 pad, u32 *crc)
{
	u32 n = pad + RMP_ICRC_SIZE;
	struct page *page;
	void *tail;

	/* rmp_mr_attach() left this fragment free. */
	tail = netdev_alloc_frag(n);
	if (!tail)
		return -ENOMEM;
	memset(tail, 0, n);
	page = virt_to_head_page(tail);
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page,
			tail - page_address(page), n, n);
	if (crc)
		*crc = rmp_crc32_advance(*crc, pad);
	return 0;
}

/* The knob allows it, and the device's netdev takes page fragments. */
static bool rmp_pkt_attaches(const struct rmp_dev *dev)
{
	return rmp_knob_get(dev, RMP_KNOB_ZCOPY) &&
	       (READ_ONCE(dev->ndev->features) & NETIF_F_SG);
}

/* Attach @len bytes of @src to @skb (rmp_mr_attach()). */
static int rmp_pkt_attach(struct rmp_dev *dev, const struct rmp_pkt_src *src,
			  u32 len, struct sk_buff *skb, u32 *crc)
{
	if (src->sge)
		return rmp_mr_attach_sgl(dev, src->pd, src->sge, src->num_sge,
					 src->at, len, skb, crc);
	return rmp_mr_attach(src->mr, src->at, len, skb, crc);
}

/* Copy @len bytes of @src to @buf. */
static int rmp_pkt_copy(struct rmp_dev *dev, const struct rmp_pkt_src *src,
			u32 len, void *buf, u32 *crc)
{
	if (!len)
		return 0;
	if (src->buf) {
		rmp_copy(buf, src->buf + src->at, len, crc);
		return 0;
	}
	if (src->sge)
		return rmp_mr_copy_sgl(dev, src->pd, src->sge, src->num_sge,
				       src->at, buf, len, RMP_COPY_FROM_MR, crc);
	return rmp_mr_copy(src->mr, src->at, buf, len, RMP_COPY_FROM_MR, crc);
}

/**
 * rmp_pkt_new_from() - a packet and its payload
 * @dev: sending device
 * @fl: the flow the packet takes
 * @f: header fields for rmp_hdr_build(); the pad count is set here
 * @src: where the payload is
 * @len: its length
 * @crc: NULL for a packet looped back by this host; else a CRC-32 register
 *	at 0, which gets what rmp_net_xmit() needs for the ICRC
 *
 * A payload in registered memory is attached as page fragments where it can
 * be (see "transport packets" above); a payload is copied otherwise.
 *
 * Return: the skb for rmp_net_xmit(); ERR_PTR(-ENOMEM), or the error of
 * rmp_mr_copy_sgl() or rmp_mr_copy(): a local protection or length error.
 */
struct sk_buff *rmp_pkt_new_from(struct rmp_dev *dev,
				 const struct rmp_flow *fl,
				 struct rmp_hdr_fields *f,
				 const struct rmp_pkt_src *src, u32 len,
				 u32 *crc)
{
	struct sk_buff *skb;
	void *payload;
	int err;

	if (!src->buf && len >= RMP_PKT_ATTACH_MIN && rmp_pkt_attaches(dev)) {
		skb = rmp_pkt_alloc(dev, fl, f, len, 0);
		if (!skb)
			return ERR_PTR(-ENOMEM);
		err = rmp_pkt_attach(dev, src, len, skb, crc);
		if (!err)
			err = rmp_pkt_close(skb, f->bth.pad, crc);
		if (!err)
			return skb;
		kfree_skb(skb);
		if (err != -EOPNOTSUPP)
			return ERR_PTR(err);
		/* Kernel memory, or too many pieces: copied instead. */
		if (crc)
			*crc = 0;
	}
	skb = rmp_pkt_new(dev, fl, f, len, &payload);
	if (!skb)
		return ERR_PTR(-ENOMEM);
	err = rmp_pkt_copy(dev, src, len, payload, crc);
	if (err) {
		kfree_skb(skb);
		return ERR_PTR(err);
	}
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
