/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp transport packets: allocation with the headers written, ready for a
 * payload and rmp_net_xmit().
 */
#ifndef RMP_PKT_H
#define RMP_PKT_H

#include <linux/skbuff.h>

#include "rmp_stats.h"
#include "engine/hdr.h"

struct ib_pd;
struct rmp_dev;
struct rmp_flow;
struct rmp_mr;
struct rxe_sge;

/* P_Key of every rmp packet: the default, full-membership partition. */
#define RMP_PKEY_DEFAULT 0xffff

/*
 * Payloads this long or longer are attached to their packet as page
 * fragments rather than copied, where they can be (rmp_pkt_new_from()).
 */
#define RMP_PKT_ATTACH_MIN 1024

/**
 * struct rmp_pkt_src - where a packet's payload is, for rmp_pkt_new_from()
 * @buf: a kernel buffer (inline data); or NULL, the payload being in
 *	registered memory
 * @pd: protection domain of @sge's lkeys
 * @sge: part of a WQE's SGE list; or NULL, the payload being in @mr
 * @num_sge: entries in @sge
 * @mr: a referenced region, if @buf and @sge are NULL
 * @at: where the payload starts: an offset in @buf or in the list's bytes,
 *	or an address in @mr
 */
struct rmp_pkt_src {
	const void *buf;
	struct ib_pd *pd;
	const struct rxe_sge *sge;
	u32 num_sge;
	struct rmp_mr *mr;
	u64 at;
};

struct sk_buff *rmp_pkt_new(struct rmp_dev *dev, const struct rmp_flow *fl,
			    struct rmp_hdr_fields *f, u32 payload_len,
			    void **payload);
struct sk_buff *rmp_pkt_new_from(struct rmp_dev *dev,
				 const struct rmp_flow *fl,
				 struct rmp_hdr_fields *f,
				 const struct rmp_pkt_src *src, u32 len,
				 u32 *crc);
void rmp_pkt_send_control(struct rmp_dev *dev, const struct rmp_flow *fl,
			  u8 dscp, u16 sport, struct rmp_hdr_fields *f,
			  enum rmp_counter counter);

#endif /* RMP_PKT_H */
