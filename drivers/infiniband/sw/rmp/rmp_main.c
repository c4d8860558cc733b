// SPDX-License-Identifier: GPL-2.0
/*
 * rmp: a software RoCEv2 RDMA device with per-QP multipath and
 * receiver-driven congestion signalling.
 */
#include <linux/crc32.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include <rdma/rdma_netlink.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_net.h"
#include "rmp_netlink.h"
#include "rmp_sysfs.h"
#include "engine/icrc.h"

struct workqueue_struct *rmp_wq;

static struct rdma_link_ops rmp_link_ops = {
	.type = "rmp",
	.newlink = rmp_dev_newlink,
};

static int __init rmp_init(void)
{
	int err;

	/* The kernel's CRC-32 is faster than the engine's portable one. */
	rmp_icrc_set_crc32(crc32_le);
	rmp_sysfs_init();
	/*
	 * Storage protocols run over RDMA: the QPs may serve reclaim. The work
	 * items stand in for a NIC's engines and run at high priority, as
	 * softirq would: an application busy-polling its CQ on the same CPU
	 * must not get half of the CPU the packets it waits for need. Each QP's
	 * work item stays on one CPU (rmp_qp_schedule()); they are
	 * concurrency-managed, so the QPs of a CPU take turns in one worker
	 * instead of waking one each.
	 */
	rmp_wq = alloc_workqueue("rmp", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	if (!rmp_wq)
		return -ENOMEM;
	err = rmp_net_init();
	if (err)
		goto err_wq;
	err = rmp_ext_register();
	if (err)
		goto err_net;
	err = rmp_dev_notifier_register();
	if (err)
		goto err_ext;
	err = rmp_netlink_register();
	if (err)
		goto err_notifier;
	rdma_link_register(&rmp_link_ops);
	return 0;

err_notifier:
	rmp_dev_notifier_unregister();
err_ext:
	rmp_ext_unregister();
err_net:
	rmp_net_exit();
err_wq:
	destroy_workqueue(rmp_wq);
	return err;
}

static void __exit rmp_exit(void)
{
	rdma_link_unregister(&rmp_link_ops);
	rmp_netlink_unregister();
	rmp_dev_remove_all();
	rmp_dev_notifier_unregister();
	rmp_ext_unregister();
	rmp_net_exit();
	destroy_workqueue(rmp_wq);
}

module_init(rmp_init);
module_exit(rmp_exit);

MODULE_AUTHOR("The rmp developers");
MODULE_DESCRIPTION("Software RoCEv2 RDMA device with multipath and receiver credits");
MODULE_LICENSE("GPL");
MODULE_VERSION(RMP_VERSION);
MODULE_ALIAS_RDMA_LINK("rmp");
