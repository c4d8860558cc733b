// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Two RC QPs of one device connected to each other, over the device's
 * IPv4 RoCEv2 GID: every packet takes the device's whole datapath.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loopback.h"

#define LB_DEPTH 64
#define LB_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		   IBV_ACCESS_REMOTE_READ)

/**
 * lb_open() - open a device by name
 * @name: the device's name, as ibv_devices lists it
 *
 * Return: its context, or NULL with errno set (ENODEV: no device of that
 * name).
 */
struct ibv_context *lb_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list)
		return NULL;
	errno = ENODEV;
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	ibv_free_device_list(list);
	return ctx;
}

/* The index of the port's RoCEv2 GID of an IPv4 address, or -1. */
static int lb_gid(struct ibv_context *ctx, union ibv_gid *gid)
{
	static const unsigned char v4[12] = { [10] = 0xff, [11] = 0xff };
	struct ibv_port_attr port;
	struct ibv_gid_entry e;
	int i;

	if (ibv_query_port(ctx, 1, &port))
		return -1;
	for (i = 0; i < port.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, 1, i, &e, 0))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(e.gid.raw, v4, sizeof(v4))) {
			*gid = e.gid;
			return i;
		}
	}
	return -1;
}

static int lb_end_create(struct lb *lb, struct lb_end *end,
			 enum ibv_qp_type type)
{
	struct ibv_qp_init_attr init = {
		.qp_type = type,
		.cap = {
			.max_send_wr = LB_DEPTH,
			.max_recv_wr = LB_DEPTH,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};

	end->cq = ibv_create_cq(lb->ctx, 2 * LB_DEPTH, NULL, NULL, 0);
	if (!end->cq)
		return -1;
	init.send_cq = end->cq;
	init.recv_cq = end->cq;
	end->qp = ibv_create_qp(lb->pd, &init);
	return end->qp ? 0 : -1;
}

/**
 * lb_create() - a PD and two QPs, each with its own CQ
 * @lb: filled in
 * @ctx: the device, from lb_open(); @lb does not own it
 * @type: the QPs' type
 *
 * The QPs are left in RESET, with room for 64 WRs each way.
 *
 * Return: 0, or -1 with errno set; lb_destroy() then frees what was made.
 */
int lb_create(struct lb *lb, struct ibv_context *ctx, enum ibv_qp_type type)
{
	memset(lb, 0, sizeof(*lb));
	lb->ctx = ctx;
	lb->pd = ibv_alloc_pd(ctx);
	if (!lb->pd)
		return -1;
	if (lb_end_create(lb, &lb->a, type) || lb_end_create(lb, &lb->b, type))
		return -1;
	return 0;
}

static int lb_to_rts(struct lb *lb, struct ibv_qp *qp, uint32_t peer,
		     uint32_t sq_psn, uint32_t rq_psn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = LB_ACCESS,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = lb->gid;
	a.ah_attr.grh.sgid_index = lb->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = sq_psn;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/**
 * lb_connect() - connect the two RC QPs to each other
 * @lb: from lb_create()
 *
 * Both go to RTS over the first RoCEv2 GID of an IPv4 address on port 1,
 * allowing local and remote writes and remote reads.
 *
 * Return: 0, or -1 with errno set (EADDRNOTAVAIL: the port has no such
 * GID).
 */
int lb_connect(struct lb *lb)
{
	lb->gid_index = lb_gid(lb->ctx, &lb->gid);
	if (lb->gid_index < 0) {
		errno = EADDRNOTAVAIL;
		return -1;
	}
	if (lb_to_rts(lb, lb->a.qp, lb->b.qp->qp_num, 0x100, 0x200) ||
	    lb_to_rts(lb, lb->b.qp, lb->a.qp->qp_num, 0x200, 0x100))
		return -1;
	return 0;
}

/**
 * lb_write() - one RDMA WRITE from the first QP to the second, checked
 * @lb: connected by lb_connect()
 * @size: bytes to write
 *
 * Registers a pattern and a zeroed buffer, writes the one into the other,
 * polls for the completion for up to 60 seconds and compares the bytes.
 *
 * Return: 0, or -1: memory short, or with a message on stderr for what
 * failed.
 */
int lb_write(struct lb *lb, size_t size)
{
	unsigned char *src = malloc(size), *dst = calloc(1, size);
	struct ibv_mr *smr = NULL, *dmr = NULL;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_wc wc;
	time_t stop = time(NULL) + 60;
	size_t i;
	int n = 0, err = -1;

	if (!src || !dst)
		goto out;
	for (i = 0; i < size; i++)
		src[i] = (unsigned char)(i * 7 + 3);
	smr = ibv_reg_mr(lb->pd, src, size, LB_ACCESS);
	dmr = ibv_reg_mr(lb->pd, dst, size, LB_ACCESS);
	if (!smr || !dmr) {
		perror("ibv_reg_mr");
		goto out;
	}
	sge = (struct ibv_sge){ (uintptr_t)src, size, smr->lkey };
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)dst;
	wr.wr.rdma.rkey = dmr->rkey;
	if (ibv_post_send(lb->a.qp, &wr, &bad)) {
		perror("ibv_post_send");
		goto out;
	}
	while (!(n = ibv_poll_cq(lb->a.cq, 1, &wc)) && time(NULL) < stop)
		;
	if (n != 1 || wc.status != IBV_WC_SUCCESS) {
		fprintf(stderr, "RDMA WRITE: %s\n", n == 1 ?
			ibv_wc_status_str(wc.status) : "no completion");
		goto out;
	}
	if (memcmp(src, dst, size)) {
		fprintf(stderr, "RDMA WRITE: the data differs\n");
		goto out;
	}
	err = 0;
out:
	if (smr)
		ibv_dereg_mr(smr);
	if (dmr)
		ibv_dereg_mr(dmr);
	free(src);
	free(dst);
	return err;
}

static void lb_end_destroy(struct lb_end *end)
{
	if (end->qp)
		ibv_destroy_qp(end->qp);
	if (end->cq)
		ibv_destroy_cq(end->cq);
}

/**
 * lb_destroy() - free what lb_create() made, all or part of it
 * @lb: the pair; its context stays open
 */
void lb_destroy(struct lb *lb)
{
	lb_end_destroy(&lb->a);
	lb_end_destroy(&lb->b);
	if (lb->pd)
		ibv_dealloc_pd(lb->pd);
}
