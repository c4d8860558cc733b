// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: received payloads
 *
 * A packet that came from another host through a netdev that receives
 * into pages, or from a sender of this host that attached its user pages
 * instead of copying them (see the design's transport packets), holds its
 * payload in page fragments. rmp_recv() leaves a bulk payload there (the
 * headers are pulled into the linear part) and makes every other packet
 * linear. The payload is then placed piece by piece, each piece of the
 * skb copied (with its CRC taken, for the ICRC) to where it belongs in the
 * region or the receive WQE, so it is copied once whatever its layout.
 */
#include <linux/crc32.h>
#include <linux/highmem.h>

#include "rmp_mr.h"
#include "rmp_payload.h"

/* What rmp_skb_walk() does with each piece: @n bytes at @p, @done before. */
typedef int (*rmp_skb_piece_fn)(void *arg, const void *p, u32 n, u32 done);

/*
 * Call @fn on [@off, @off + @len) of @skb's bytes (from skb->data) piece by
 * piece, in order: the linear part, then each fragment's pages, each mapped
 * while @fn runs. The skb has no frag list. Stops at @fn's first error.
 */
static int rmp_skb_walk(const struct sk_buff *skb, u32 off, u32 len,
			rmp_skb_piece_fn fn, void *arg)
{
	u32 head = skb_headlen(skb), done = 0, start, n, p_off, p_len, copied;
	const skb_frag_t *frag;
	struct page *page;
	void *mem;
	int i, err;

	if (off < head) {
		n = min(len, head - off);
		err = fn(arg, skb->data + off, n, 0);
		if (err)
			return err;
		done = n;
	}
	start = head;
	for (i = 0; i < skb_shinfo(skb)->nr_frags && done < len; i++) {
		frag = &skb_shinfo(skb)->frags[i];
		if (off + done >= start + skb_frag_size(frag)) {
			start += skb_frag_size(frag);
			continue;
		}
		n = min(len - done, start + skb_frag_size(frag) - (off + done));
		skb_frag_foreach_page(frag, off + done - start + skb_frag_off(frag),
				      n, page, p_off, p_len, copied) {
			mem = kmap_local_page(page);
			err = fn(arg, mem + p_off, p_len, done + copied);
			kunmap_local(mem);
			if (err)
				return err;
		}
		done += n;
		start += skb_frag_size(frag);
	}
	return done < len ? -EFAULT : 0;
}

static int rmp_skb_crc_piece(void *arg, const void *p, u32 n, u32 done)
{
	u32 *crc = arg;

	*crc = crc32_le(*crc, p, n);
	return 0;
}

/**
 * rmp_skb_crc32() - add bytes of an skb to a CRC-32 register
 * @skb: the packet, without a frag list
 * @off: the first byte, counted from skb->data
 * @len: bytes, all within the packet
 * @crc: the register
 *
 * Return: the register with the bytes added.
 */
u32 rmp_skb_crc32(const struct sk_buff *skb, u32 off, u32 len, u32 crc)
{
	WARN_ON_ONCE(rmp_skb_walk(skb, off, len, rmp_skb_crc_piece, &crc));
	return crc;
}

struct rmp_payload_mr_args {
	struct rmp_mr *mr;
	u64 iova;
	u32 *crc;
};

static int rmp_payload_mr_piece(void *arg, const void *p, u32 n, u32 done)
{
	const struct rmp_payload_mr_args *a = arg;

	return rmp_mr_copy(a->mr, a->iova + done, (void *)p, n,
			   RMP_COPY_TO_MR, a->crc);
}

/**
 * rmp_payload_to_mr() - copy a payload into a region
 * @pl: the payload
 * @mr: referenced MR
 * @iova: where its first byte goes
 * @crc: NULL, or a CRC-32 register the bytes are added to on the way
 *
 * Return: 0, or the error of rmp_mr_copy().
 */
int rmp_payload_to_mr(const struct rmp_payload *pl, struct rmp_mr *mr,
		      u64 iova, u32 *crc)
{
	struct rmp_payload_mr_args a = { .mr = mr, .iova = iova, .crc = crc };

	return rmp_skb_walk(pl->skb, pl->off, pl->len, rmp_payload_mr_piece,
			    &a);
}

struct rmp_payload_sgl_args {
	struct rmp_dev *dev;
	struct ib_pd *pd;
	const struct rxe_sge *sge;
	u32 num_sge;
	u64 offset;
	u32 *crc;
};

static int rmp_payload_sgl_piece(void *arg, const void *p, u32 n, u32 done)
{
	const struct rmp_payload_sgl_args *a = arg;

	return rmp_mr_copy_sgl(a->dev, a->pd, a->sge, a->num_sge,
			       a->offset + done, (void *)p, n, RMP_COPY_TO_MR,
			       a->crc);
}

/**
 * rmp_payload_to_sgl() - copy a payload into part of an SGE list
 * @pl: the payload
 * @dev: device
 * @pd: protection domain the lkeys must be of
 * @sge: scatter/gather list of a receive WQE
 * @num_sge: entries in @sge
 * @offset: where in the list's bytes the payload's first byte goes
 * @crc: NULL, or a CRC-32 register the bytes are added to on the way
 *
 * Return: 0, or the error of rmp_mr_copy_sgl().
 */
int rmp_payload_to_sgl(const struct rmp_payload *pl, struct rmp_dev *dev,
		       struct ib_pd *pd, const struct rxe_sge *sge,
		       u32 num_sge, u64 offset, u32 *crc)
{
	struct rmp_payload_sgl_args a = {
		.dev = dev, .pd = pd, .sge = sge, .num_sge = num_sge,
		.offset = offset, .crc = crc,
	};

	return rmp_skb_walk(pl->skb, pl->off, pl->len, rmp_payload_sgl_piece,
			    &a);
}
