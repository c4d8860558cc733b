// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: address handles
 *
 * An address vector (&struct rmp_av) is what the transport needs to build
 * the IP and UDP headers of a RoCEv2 packet: the two IP addresses, taken
 * from the source and destination GIDs, and the traffic class, hop limit
 * and flow label of the GRH. rmp_av_from_attr() makes one from ib_core's
 * &struct rdma_ah_attr for an address handle and for the primary path of an
 * RC QP alike. Only RoCEv2 GIDs of rmp's single port are accepted.
 *
 * Every AH, kernel or user, gets a number in the device's AH table. The
 * provider writes that number into a UD send WQE; the kernel verbs do the
 * same, so the transport resolves both kinds with rmp_ah_lookup_av(). AHs
 * may be created and destroyed in atomic context, so the table's lock is
 * always taken with interrupts off, and a lookup copies the vector under it
 * rather than holding a reference.
 */
#include <linux/xarray.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/uverbs_ioctl.h>

#include "rmp_ah.h"
#include "rmp_dev.h"
#include "rmp_net.h"
#include "rmp_verbs.h"

#define RMP_FLOW_LABEL_MASK 0xfffff

/**
 * rmp_av_from_attr() - make an address vector from ib_core's attributes
 * @dev: the device
 * @attr: RoCE attributes with a GRH whose source GID attribute ib_core has
 *	filled in
 * @av: result
 *
 * Return: 0, or -EINVAL for anything but a RoCEv2 GID of port 1 of @dev, a
 * destination of the other IP family.
 */
int rmp_av_from_attr(struct rmp_dev *dev, const struct rdma_ah_attr *attr,
		     struct rmp_av *av)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;
	enum rdma_network_type type;
	bool src_v4, dst_v4;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH) ||
	    rdma_ah_get_port_num(attr) != 1)
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->device != &dev->ib_dev || sgid->port_num != 1 ||
	    sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	type = rdma_gid_attr_network_type(sgid);
	dst_v4 = ipv6_addr_v4mapped((const struct in6_addr *)grh->dgid.raw);
	if (type != RDMA_NETWORK_IPV4 && type != RDMA_NETWORK_IPV6)
		return -EINVAL;
	src_v4 = type == RDMA_NETWORK_IPV4;
	if (src_v4 != dst_v4)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->network_type = type;
	av->traffic_class = grh->traffic_class;
	av->hop_limit = grh->hop_limit;
	/*
	 * The GRH field is 20 bits; the verb's is 32, and some applications
	 * (UCX) pass all-ones for "no preference". Keep what fits.
	 */
	av->flow_label = grh->flow_label & RMP_FLOW_LABEL_MASK;
	rdma_gid2ip(&av->saddr.sa, &sgid->gid);
	rdma_gid2ip(&av->daddr.sa, &grh->dgid);
	return 0;
}

/**
 * rmp_av_to_flow() - the IP addressing of packets sent to an address vector
 * @av: from rmp_av_from_attr() or rmp_ah_lookup_av()
 * @fl: result
 */
void rmp_av_to_flow(const struct rmp_av *av, struct rmp_flow *fl)
{
	memset(fl, 0, sizeof(*fl));
	if (av->network_type == RDMA_NETWORK_IPV4) {
		fl->family = AF_INET;
		fl->saddr4 = av->saddr.in.sin_addr.s_addr;
		fl->daddr4 = av->daddr.in.sin_addr.s_addr;
	} else {
		fl->family = AF_INET6;
		fl->saddr6 = av->saddr.in6.sin6_addr;
		fl->daddr6 = av->daddr.in6.sin6_addr;
	}
	fl->tclass = av->traffic_class;
	fl->hop_limit = av->hop_limit;
	fl->flow_label = av->flow_label;
}

/**
 * rmp_ah_lookup_av() - copy the address vector of an AH named by number
 * @dev: the device
 * @ah_num: number from a UD send WQE
 * @pd: the protection domain of the QP that posted the WQE; the AH must be
 *	in it
 * @av: result
 *
 * Callable from any context.
 *
 * Return: 0, or -EINVAL if no AH of @pd has that number.
 */
int rmp_ah_lookup_av(struct rmp_dev *dev, u32 ah_num, const struct ib_pd *pd,
		     struct rmp_av *av)
{
	struct rmp_ah *ah;
	unsigned long flags;
	int err = -EINVAL;

	xa_lock_irqsave(&dev->ahs, flags);
	ah = xa_load(&dev->ahs, ah_num);
	if (ah && ah->ibah.pd == pd) {
		*av = ah->av;
		err = 0;
	}
	xa_unlock_irqrestore(&dev->ahs, flags);
	return err;
}

static int rmp_ah_insert(struct rmp_dev *dev, struct rmp_ah *ah, bool sleep)
{
	struct xa_limit limit = XA_LIMIT(1, RMP_MAX_AH);
	unsigned long flags;
	int err;

	if (sleep) {
		err = xa_alloc_cyclic_irq(&dev->ahs, &ah->ah_num, ah, limit,
					  &dev->next_ah, GFP_KERNEL);
	} else {
		xa_lock_irqsave(&dev->ahs, flags);
		err = __xa_alloc_cyclic(&dev->ahs, &ah->ah_num, ah, limit,
					&dev->next_ah, GFP_ATOMIC);
		xa_unlock_irqrestore(&dev->ahs, flags);
	}
	/* 1 means the numbers wrapped, which is fine; -EBUSY means full. */
	if (err == -EBUSY)
		return -ENOMEM;
	return err < 0 ? err : 0;
}

static void rmp_ah_remove(struct rmp_dev *dev, struct rmp_ah *ah)
{
	unsigned long flags;

	xa_lock_irqsave(&dev->ahs, flags);
	__xa_erase(&dev->ahs, ah->ah_num);
	xa_unlock_irqrestore(&dev->ahs, flags);
}

/**
 * rmp_create_ah() - ib_device_ops.create_ah: an AH and its number
 * @ibah: allocated by ib_core
 * @init: the attributes; without %RDMA_CREATE_AH_SLEEPABLE in its flags the
 *	caller may be in atomic context, and nothing here sleeps
 * @udata: a user process's request, whose response carries the AH's
 *	number; NULL for a kernel AH
 *
 * Return: 0; -EINVAL for a user response too short or a request with
 * nonzero input, or for attributes rmp_av_from_attr() refuses; -ENOMEM when
 * the device's AH table is full or memory is short; -EFAULT if the number
 * cannot be copied out (the AH is then unnumbered again).
 */
int rmp_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibah->device);
	struct rmp_ah *ah = to_rmp_ah(ibah);
	struct rxe_create_ah_resp resp = {};
	int err;

	if (udata) {
		if (udata->outlen < sizeof(resp) ||
		    !ib_is_udata_cleared(udata, 0, udata->inlen))
			return -EINVAL;
	}
	err = rmp_av_from_attr(dev, init->ah_attr, &ah->av);
	if (err)
		return err;
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;

	err = rmp_ah_insert(dev, ah, init->flags & RDMA_CREATE_AH_SLEEPABLE);
	if (err)
		return err;
	if (udata) {
		resp.ah_num = ah->ah_num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			rmp_ah_remove(dev, ah);
			return err;
		}
	}
	return 0;
}

/**
 * rmp_query_ah() - ib_device_ops.query_ah: the attributes an AH was made with
 * @ibah: the AH
 * @attr: result; its source GID attribute is left NULL, as rmp keeps no
 *	reference to it
 *
 * Return: 0.
 */
int rmp_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct rmp_ah *ah = to_rmp_ah(ibah);

	*attr = ah->attr;
	attr->grh.sgid_attr = NULL;
	return 0;
}

/**
 * rmp_destroy_ah() - ib_device_ops.destroy_ah: give up an AH's number
 * @ibah: the AH; ib_core frees it
 * @flags: RDMA_DESTROY_AH_*, unused: nothing here sleeps, so any context
 *	will do
 *
 * A UD WQE that names the number afterwards fails its lookup.
 *
 * Return: 0.
 */
int rmp_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	rmp_ah_remove(to_rmp_dev(ibah->device), to_rmp_ah(ibah));
	return 0;
}
