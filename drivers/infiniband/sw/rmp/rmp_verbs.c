// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: verbs
 *
 * rmp registers with ib_core as a RoCEv2 device with one port whose state,
 * MTU and GIDs follow the bound netdev. It uses the Soft-RoCE driver id and
 * user ABI so that rdma-core's stock provider drives it. Only the verbs listed
 * in Documentation/rmp/verbs.rst are implemented; ib_core answers the others
 * with EOPNOTSUPP.
 */
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>

#include "rmp_ah.h"
#include "rmp_cq.h"
#include "rmp_dev.h"
#include "rmp_mr.h"
#include "rmp_mw.h"
#include "rmp_qp.h"
#include "rmp_queue.h"
#include "rmp_srq.h"
#include "rmp_stats.h"
#include "rmp_sysfs.h"
#include "rmp_uverbs.h"
#include "rmp_verbs.h"
#include "rmp_wqe.h"

static bool rmp_port_is_active(struct rmp_dev *dev)
{
	return netif_running(dev->ndev) && netif_carrier_ok(dev->ndev);
}

static int rmp_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	if (udata->inlen || udata->outlen)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = RMP_VENDOR_ID;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = RMP_MAX_PD;
	attr->max_qp = RMP_MAX_QP;
	attr->max_qp_wr = RMP_MAX_QP_WR;
	attr->max_send_sge = RMP_MAX_SGE;
	attr->max_recv_sge = RMP_MAX_SGE;
	attr->max_sge_rd = RMP_MAX_SGE;
	attr->max_cq = RMP_MAX_CQ;
	attr->max_cqe = RMP_MAX_CQE - 1;
	attr->max_mr = RMP_MAX_MR;
	attr->max_mw = RMP_MAX_MW;
	attr->max_ah = RMP_MAX_AH;
	attr->max_srq = RMP_MAX_SRQ;
	attr->max_srq_wr = RMP_MAX_SRQ_WR - 1;
	attr->max_srq_sge = RMP_MAX_SGE;
	attr->max_qp_rd_atom = RMP_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = RMP_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = RMP_MAX_RD_ATOMIC * RMP_MAX_QP;
	attr->max_fast_reg_page_list_len = RMP_MAX_FAST_REG_PAGES;
	attr->max_pkeys = 1;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_SRQ_RESIZE |
				 IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_PORT_ACTIVE_EVENT;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	return 0;
}

static int rmp_query_port(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attr *attr)
{
	struct rmp_dev *dev = to_rmp_dev(ibdev);
	bool active = rmp_port_is_active(dev);

	/* ib_core zeroes @attr before calling. */
	attr->state = active ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = active ? IB_PORT_PHYS_STATE_LINK_UP :
				    IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = rmp_dev_active_mtu(dev);
	attr->gid_tbl_len = RMP_GID_TABLE_LEN;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1U << 31;
	return ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
				&attr->active_width);
}

static int rmp_port_immutable(struct ib_device *ibdev, u32 port_num,
			      struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr = {};
	int err;

	err = ib_query_port(ibdev, port_num, &attr);
	if (err)
		return err;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

/*
 * rmp reports its netdev through get_netdev rather than
 * ib_device_set_netdev(): the latter enters the device in ib_core's
 * netdev hash, where rxe looks up "its" devices by driver id and would take
 * an rmp device for an rxe one. ib_core's RoCE GID management, port speed
 * and the rdma tool all go through ib_device_get_netdev(), which uses this.
 */
static struct net_device *rmp_get_netdev(struct ib_device *ibdev, u32 port_num)
{
	struct net_device *ndev = to_rmp_dev(ibdev)->ndev;

	dev_hold(ndev);
	return ndev;
}

static enum rdma_link_layer rmp_get_link_layer(struct ib_device *ibdev,
					       u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int rmp_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int rmp_modify_device(struct ib_device *ibdev, int mask,
			     struct ib_device_modify *attr)
{
	if (mask & ~(IB_DEVICE_MODIFY_SYS_IMAGE_GUID |
		     IB_DEVICE_MODIFY_NODE_DESC))
		return -EOPNOTSUPP;
	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, attr->node_desc,
		       sizeof(ibdev->node_desc));
	if (mask & IB_DEVICE_MODIFY_SYS_IMAGE_GUID)
		ibdev->attrs.sys_image_guid = cpu_to_be64(attr->sys_image_guid);
	return 0;
}

static int rmp_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	return 0;
}

static void rmp_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

static int rmp_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibpd->device);

	if (atomic_inc_return(&dev->num_pds) > RMP_MAX_PD) {
		atomic_dec(&dev->num_pds);
		return -ENOMEM;
	}
	return 0;
}

static int rmp_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	atomic_dec(&to_rmp_dev(ibpd->device)->num_pds);
	return 0;
}

static const struct ib_device_ops rmp_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = RMP_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = rmp_stats_alloc_port,
	.alloc_mr = rmp_alloc_mr,
	.alloc_mw = rmp_alloc_mw,
	.alloc_pd = rmp_alloc_pd,
	.alloc_ucontext = rmp_alloc_ucontext,
	.create_ah = rmp_create_ah,
	.create_cq = rmp_create_cq,
	.create_qp = rmp_create_qp,
	.create_srq = rmp_create_srq,
	.create_user_ah = rmp_create_ah,
	.dealloc_driver = rmp_dev_dealloc,
	.dealloc_mw = rmp_dealloc_mw,
	.dealloc_pd = rmp_dealloc_pd,
	.dealloc_ucontext = rmp_dealloc_ucontext,
	.dereg_mr = rmp_dereg_mr,
	.destroy_ah = rmp_destroy_ah,
	.destroy_cq = rmp_destroy_cq,
	.destroy_qp = rmp_destroy_qp,
	.destroy_srq = rmp_destroy_srq,
	.device_group = &rmp_sysfs_group,
	.get_dma_mr = rmp_get_dma_mr,
	.get_hw_stats = rmp_stats_get,
	.get_link_layer = rmp_get_link_layer,
	.get_netdev = rmp_get_netdev,
	.get_port_immutable = rmp_port_immutable,
	.map_mr_sg = rmp_map_mr_sg,
	.mmap = rmp_queue_mmap,
	.mmap_free = rmp_queue_mmap_free,
	.modify_device = rmp_modify_device,
	.modify_qp = rmp_modify_qp,
	.modify_srq = rmp_modify_srq,
	.poll_cq = rmp_poll_cq,
	.post_recv = rmp_post_recv,
	.post_send = rmp_post_send,
	.post_srq_recv = rmp_post_srq_recv,
	.query_ah = rmp_query_ah,
	.query_device = rmp_query_device,
	.query_pkey = rmp_query_pkey,
	.query_port = rmp_query_port,
	.query_qp = rmp_query_qp,
	.fill_res_cq_entry = rmp_fill_res_cq_entry,
	.fill_res_qp_entry = rmp_fill_res_qp_entry,
	.query_srq = rmp_query_srq,
	.reg_user_mr = rmp_reg_user_mr,
	.req_notify_cq = rmp_req_notify_cq,
	.resize_cq = rmp_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, rmp_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, rmp_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, rmp_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, rmp_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, rmp_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, rmp_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, rmp_ucontext, ibuc),
};

/**
 * rmp_verbs_init() - give a freshly allocated device its ops and identity
 * @dev: device with @ndev set
 *
 * After this, ib_dealloc_device() calls rmp_dev_dealloc().
 */
void rmp_verbs_init(struct rmp_dev *dev)
{
	struct ib_device *ibdev = &dev->ib_dev;

	strscpy(ibdev->node_desc, "rmp", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->local_dma_lkey = 0;
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, dev->ndev->dev_addr);
	/*
	 * Beyond ib_core's default set: the provider's post_send doorbell and
	 * CQ notification are legacy write commands.
	 */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	/* librmpdv's methods (rmp_uverbs.c). */
	if (IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS))
		ibdev->driver_def = rmp_uverbs_defs;
	ib_set_device_ops(ibdev, &rmp_dev_ops);
}

/**
 * rmp_verbs_register() - register an rmp device with ib_core
 * @dev: device set up by rmp_verbs_init() and attached to its namespace
 * @name: ib device name
 *
 * Return: 0 or a negative errno; on error the caller deallocates @dev.
 */
int rmp_verbs_register(struct rmp_dev *dev, const char *name)
{
	struct ib_device *ibdev = &dev->ib_dev;
	int err;

	dev->port_active = rmp_port_is_active(dev);
	/* No DMA device: ib_core then uses virtual addresses, as we need. */
	err = ib_register_device(ibdev, name, NULL);
	if (err)
		pr_err("rmp: cannot register %s on %s: %d\n", name,
		       dev->ndev->name, err);
	return err;
}

/**
 * rmp_verbs_port_event() - report a netdev state change as a port event
 * @dev: a registered device
 *
 * Called from the netdev notifier; raises PORT_ACTIVE or PORT_ERR when the
 * port state differs from what was last reported.
 */
void rmp_verbs_port_event(struct rmp_dev *dev)
{
	bool active = rmp_port_is_active(dev);
	struct ib_event ev = {
		.device = &dev->ib_dev,
		.element.port_num = 1,
	};

	if (active == dev->port_active)
		return;
	dev->port_active = active;
	ev.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
}
