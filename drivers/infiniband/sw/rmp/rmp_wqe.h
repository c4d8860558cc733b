/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp work queue entries: posting by kernel consumers, taking by the
 * transport, flushing.
 */
#ifndef RMP_WQE_H
#define RMP_WQE_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "rmp_ah.h"
#include "rmp_verbs.h"

struct rmp_qp;
struct rmp_queue;

/*
 * IBTA's ATOMIC WRITE in the user ABI (rdma-core's IBV_WR_ATOMIC_WRITE and
 * IBV_WC_ATOMIC_WRITE), which Linux 6.1's headers do not name yet. Only a
 * process posts it: the provider puts the 8 bytes to write at the start of
 * the WQE's data area, where inline data goes.
 */
#define RMP_UVERBS_WR_ATOMIC_WRITE	15
#define RMP_UVERBS_WC_ATOMIC_WRITE	9

/**
 * struct rmp_send_wqe - a send WQE taken from a send queue
 * @wr: the work request; @wr.opcode is valid for the QP type and
 *	@wr.send_flags has %IB_SEND_SIGNALED set when the WQE is to complete
 *	(always on a QP created with IB_SIGNAL_ALL_WR)
 * @iova: remote address of an RDMA or atomic operation
 * @length: message length: the sum of @sge lengths, or the bytes in
 *	@inline_data
 * @num_sge: entries in @sge; 0 when the data is in @inline_data
 * @av: UD and GSI QPs: the address vector of @wr.wr.ud.ah_num
 * @sge: gather list, at most the QP's max_send_sge entries
 * @inline_data: with %IB_SEND_INLINE, @length bytes of data; for an ATOMIC
 *	WRITE, the 8 bytes to write
 *
 * Kernel-private: once taken, nothing in it depends on memory a process can
 * write to.
 */
struct rmp_send_wqe {
	struct rxe_send_wr wr;
	u64 iova;
	u32 length;
	u32 num_sge;
	struct rmp_av av;
	union {
		struct rxe_sge sge[RMP_MAX_SGE];
		u8 inline_data[RMP_MAX_INLINE];
	};
};

/**
 * struct rmp_recv_wqe - a receive WQE taken from a receive queue or SRQ
 * @wr_id: the consumer's identifier
 * @length: the sum of @sge lengths
 * @num_sge: entries in @sge
 * @sge: scatter list
 */
struct rmp_recv_wqe {
	u64 wr_id;
	u32 length;
	u32 num_sge;
	struct rxe_sge sge[RMP_MAX_SGE];
};

/**
 * struct rmp_recv_ahead - receive WQEs an RC QP took from its SRQ ahead of
 *	their turn
 * @slots: %RMP_SPETH_MSGS slots of @stride bytes, each a &struct
 *	rmp_recv_wqe cut short after the SRQ's max_sge scatter entries; NULL
 *	for a QP without an SRQ
 * @stride: bytes per slot
 * @first: slot of the oldest WQE
 * @count: WQEs held, in the order the SRQ gave them
 * @bad: bit i set: slot i holds a WQE that failed its checks (only its
 *	wr_id is valid; rmp_wqe_take_recv() returns -EINVAL for it)
 *
 * Send spraying names a receive WQE up to %RMP_SPETH_MSGS messages ahead
 * (rmp_wqe_peek_recv()): on an SRQ, which QP a WQE serves is settled only
 * when it is taken, so the QP takes every WQE up to the one named, in
 * order, and holds them here until their messages complete. Only the runs
 * of the QP's transport touch it.
 */
struct rmp_recv_ahead {
	u8 *slots;
	u32 stride;
	u32 first;
	u32 count;
	u64 bad;
};

int rmp_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int rmp_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
int rmp_wqe_put_recv(struct rmp_queue *q, u32 max_sge,
		     const struct ib_recv_wr *wr);

int rmp_wqe_take_send(struct rmp_qp *qp, struct rmp_send_wqe *wqe);
void rmp_wqe_retire_send(struct rmp_qp *qp);
int rmp_wqe_take_recv(struct rmp_qp *qp, struct rmp_recv_wqe *wqe);
int rmp_wqe_peek_recv(struct rmp_qp *qp, u32 idx, struct rmp_recv_wqe *wqe);
int rmp_wqe_ahead_alloc(struct rmp_qp *qp);
void rmp_wqe_ahead_free(struct rmp_qp *qp);
enum ib_wc_opcode rmp_wqe_wc_opcode(u32 opcode);

bool rmp_wqe_flush_send(struct rmp_qp *qp);
bool rmp_wqe_flush_recv(struct rmp_qp *qp);
void rmp_wqe_discard(struct rmp_qp *qp);

#endif /* RMP_WQE_H */
