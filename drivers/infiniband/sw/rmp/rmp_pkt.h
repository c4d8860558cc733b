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

struct rmp_dev;
struct rmp_flow;

/* P_Key of every rmp packet: the default, full-membership partition. */
#define RMP_PKEY_DEFAULT 0xffff

struct sk_buff *rmp_pkt_new(struct rmp_dev *dev, const struct rmp_flow *fl,
			    struct rmp_hdr_fields *f, u32 payload_len,
			    void **payload);
void rmp_pkt_send_control(struct rmp_dev *dev, const struct rmp_flow *fl,
			  u8 dscp, u16 sport, struct rmp_hdr_fields *f,
			  enum rmp_counter counter);

#endif /* RMP_PKT_H */
