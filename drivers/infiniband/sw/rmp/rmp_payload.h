/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload of a received packet, wherever its bytes are: behind the
 * headers, or in page fragments of the skb.
 */
#ifndef RMP_PAYLOAD_H
#define RMP_PAYLOAD_H

#include <linux/skbuff.h>
#include <rdma/rdma_user_rxe.h>

struct ib_pd;
struct rmp_dev;
struct rmp_mr;

/**
 * struct rmp_payload - the payload of a received packet
 * @skb: the packet, its UDP header at skb->data
 * @off: where the payload starts, counted from skb->data
 * @len: its length in bytes, the pad not included
 *
 * Only a bulk payload (SEND, WRITE, READ response) may be left in page
 * fragments (rmp_recv()); other packets are linear. Read it with
 * rmp_payload_linear() where a few bytes are expected, and place it with
 * rmp_payload_to_mr() or rmp_payload_to_sgl().
 */
struct rmp_payload {
	const struct sk_buff *skb;
	u32 off;
	u32 len;
};

/**
 * rmp_payload_linear() - the payload as one buffer
 * @pl: the payload
 *
 * Return: its first byte, or NULL if its bytes are not all behind the
 * headers.
 */
static inline const void *rmp_payload_linear(const struct rmp_payload *pl)
{
	if ((u64)pl->off + pl->len > skb_headlen(pl->skb))
		return NULL;
	return pl->skb->data + pl->off;
}

int rmp_payload_to_mr(const struct rmp_payload *pl, struct rmp_mr *mr,
		      u64 iova, u32 *crc);
int rmp_payload_to_sgl(const struct rmp_payload *pl, struct rmp_dev *dev,
		       struct ib_pd *pd, const struct rxe_sge *sge,
		       u32 num_sge, u64 offset, u32 *crc);
u32 rmp_skb_crc32(const struct sk_buff *skb, u32 off, u32 len, u32 crc);

#endif /* RMP_PAYLOAD_H */
