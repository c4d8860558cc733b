/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rmp queue pairs.
 */
#ifndef RMP_QP_H
#define RMP_QP_H

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>

#include "rmp_ah.h"
#include "rmp_cc.h"
#include "rmp_net.h"
#include "rmp_override.h"
#include "rmp_queue.h"
#include "rmp_rcc.h"
#include "rmp_recv.h"
#include "rmp_requester.h"
#include "rmp_responder.h"

struct rmp_dev;
struct rmp_srq;

/**
 * struct rmp_wq - a QP's send or receive queue
 * @queue: the ring
 * @lock: serialises a kernel poster (the producer side of a kernel ring)
 * @max_wr: entries the ring holds
 * @max_sge: scatter/gather entries a WQE may have
 * @max_inline: inline bytes a send WQE may carry (0 for a receive queue)
 * @next: send queue only: the next slot to take. Slots from the consumer
 *	index up to @next are taken (the transport holds private copies of
 *	them) but not yet retired; the ring stays full until they are.
 */
struct rmp_wq {
	struct rmp_queue queue;
	spinlock_t lock; /* kernel poster */
	u32 max_wr;
	u32 max_sge;
	u32 max_inline;
	u32 next;
};

/**
 * enum rmp_qp_flag - events a QP's work item owes
 * @RMP_QP_SQ_DRAINING: in SQD, the send queue is not drained yet
 * @RMP_QP_SQD_NOTIFY: raise IB_EVENT_SQ_DRAINED once it is
 * @RMP_QP_LAST_WQE: raise IB_EVENT_QP_LAST_WQE_REACHED (a QP with an SRQ
 *	went to the error state)
 * @RMP_QP_RUN_AGAIN: a run of the transport is owed (rmp_qp_kick())
 * @RMP_QP_DYING: destroy_qp is stopping the work item; the timer must not
 *	schedule it
 * @RMP_QP_MULTIPATH: RC: the peer agreed to multipath; the work item
 *	switches the responder and, once started, the requester to it
 *	(rmp_qp_multipath()); cleared at RESET
 * @RMP_QP_ECN_ECHO: RC: the peer agreed to ECN echo (with multipath):
 *	the responder echoes CE marks in its SACKs, the requester takes
 *	the echoes in; set before @RMP_QP_MULTIPATH, cleared at RESET
 * @RMP_QP_READ_SPRAY: RC: the peer agreed to read spraying (with
 *	multipath): the requester asks for its READs' responses to be
 *	sprayed and takes them in any order, the responder sprays those
 *	asked for; set before @RMP_QP_MULTIPATH, cleared at RESET
 * @RMP_QP_CREDIT: RC: the peer agreed to receiver credit; the work item
 *	starts it on both sides (rmp_qp_credit()); cleared at RESET
 * @RMP_QP_EXT_KNOWN: RC: the QP knows which extensions its peer speaks,
 *	set after @RMP_QP_MULTIPATH and @RMP_QP_CREDIT (rmp_qp_ext_known());
 *	cleared at RESET
 * @RMP_QP_READ_REPORT: RC: the peer agreed to reports of READ responses
 *	(with read spraying): the requester reports the responses it
 *	received, the responder's paths of sprayed responses live and die
 *	by the reports; set before @RMP_QP_MULTIPATH, cleared at RESET
 * @RMP_QP_SEND_SPRAY: RC: the peer agreed to send spraying (with
 *	multipath): the requester sprays its SENDs in pieces, the responder
 *	takes them; set before @RMP_QP_MULTIPATH, cleared at RESET
 */
enum rmp_qp_flag {
	RMP_QP_SQ_DRAINING,
	RMP_QP_SQD_NOTIFY,
	RMP_QP_LAST_WQE,
	RMP_QP_RUN_AGAIN,
	RMP_QP_DYING,
	RMP_QP_MULTIPATH,
	RMP_QP_ECN_ECHO,
	RMP_QP_READ_SPRAY,
	RMP_QP_CREDIT,
	RMP_QP_EXT_KNOWN,
	RMP_QP_READ_REPORT,
	RMP_QP_SEND_SPRAY,
};

/**
 * enum rmp_qp_runner - who holds &rmp_qp.run
 * @RMP_RUN_IDLE: nobody; the transport is not running
 * @RMP_RUN_TASK: a run in process context (work item, doorbell, RESET)
 * @RMP_RUN_ATOMIC: a run in atomic context (the receive path): short and
 *	never waiting, so a process-context kick waits for it
 */
enum rmp_qp_runner {
	RMP_RUN_IDLE,
	RMP_RUN_TASK,
	RMP_RUN_ATOMIC,
};

/**
 * struct rmp_qp - queue pair
 * @ibqp: ib_core object (first, as ib_core allocates it)
 * @ref: references: one for the QP table, one per rmp_qp_get()
 * @released: completed when @ref drops to zero
 * @work: the QP's work item on rmp_wq; see "Concurrency" in
 *	Documentation/rmp/design.rst
 * @cpu: the CPU @work runs on
 * @lock: serialises modify_qp and query_qp, and guards @attr and @av
 * @state_lock: guards changes of @attr.qp_state, by modify_qp and by the
 *	transport's move to ERR (which may happen in softirq)
 * @attr: the attributes last set, as query_qp reports them; @attr.qp_state
 *	is also read without a lock (READ_ONCE) by the posting verbs and the
 *	transport
 * @av: the primary path of an RC QP
 * @ext: RC: what the QP knows of its peer's extensions (&enum
 *	rmp_ext_state), under @lock
 * @ext_question: RC: its question to the peer while out, under the
 *	device's &rmp_dev.ext_lock
 * @over: RC, UC: the QP's own values of device knobs (rmp_qp_knob())
 * @sq: send queue
 * @rq: receive queue, unused (no ring) when @srq is set
 * @srq: the SRQ the QP receives from, or NULL
 * @ahead: RC with @srq: the WQEs taken from @srq ahead of their turn
 * @sig_all: every send WR completes (IB_SIGNAL_ALL_WR)
 * @user: the rings are mapped by a process
 * @run: who runs the transport (&enum rmp_qp_runner): the lock that
 *	makes its runs exclusive, taken with a compare-and-swap so that
 *	softirq can try it
 * @waiters: runs in process context waiting for a run in atomic context
 *	to end (rmp_qp_kick()); that run leaves what is owed to them
 * @lockers: callers of rmp_qp_run_now() and rmp_qp_report() waiting for
 *	the transport: runs leave it to them rather than going again or
 *	starting, and what they owe goes to the work item once it is free
 * @flags: &enum rmp_qp_flag bits, set by the verbs and rmp_qp_kick(),
 *	cleared by the runs of the transport
 * @rxq: packets received for the QP, queued by the receive path
 * @timer: wakes the work item at the requester's deadline or before it
 * @timer_at: the time @timer was last set for (ns)
 * @flow: RC: addressing of the packets to the peer, fixed at RTR
 * @routes: RC: the routes of @flow, cached per CPU
 * @sport: RC: UDP source port of the QP's packets, fixed at RTR
 * @peer_local: RC: the peer's address was one of this host's at RTR: the
 *	packets are looped back without an ICRC, so payloads are copied
 *	without taking their CRC
 * @deliveries: the packets a run delivered to a local QP (loopback),
 *	whose run is owed at the end of this run (rmp_recv())
 * @requester: requester and completer state
 * @responder: responder state
 * @cc: RC, UC: congestion control state
 * @rcc: RC: receiver credit, both sides
 *
 * Everything from @timer_at on belongs to the runs of the transport
 * (under @run).
 */
struct rmp_qp {
	struct ib_qp ibqp;
	refcount_t ref;
	struct completion released;
	struct work_struct work;
	int cpu;
	struct mutex lock; /* modify, query, @attr, @av */
	spinlock_t state_lock; /* changes of @attr.qp_state */
	struct ib_qp_attr attr;
	struct rmp_av av;
	u8 ext;
	struct ib_mad_send_buf *ext_question;
	struct rmp_override over;
	struct rmp_wq sq;
	struct rmp_wq rq;
	struct rmp_srq *srq;
	struct rmp_recv_ahead ahead;
	bool sig_all;
	bool user;
	atomic_t run;
	atomic_t waiters;
	atomic_t lockers;
	unsigned long flags;
	struct sk_buff_head rxq;
	struct hrtimer timer;
	u64 timer_at;
	struct rmp_flow flow;
	struct dst_cache routes;
	u16 sport;
	bool peer_local;
	struct rmp_recv_batch deliveries;
	struct rmp_requester requester;
	struct rmp_responder responder;
	struct rmp_cc cc;
	struct rmp_rcc_qp rcc;
};

/**
 * enum rmp_fig_kind - how a number of rmp_qp_report() reads best
 * @RMP_FIG_U32: a 32-bit number
 * @RMP_FIG_HEX: a 32-bit number in hex (a PSN)
 * @RMP_FIG_U64: a 64-bit count
 */
enum rmp_fig_kind {
	RMP_FIG_U32,
	RMP_FIG_HEX,
	RMP_FIG_U64,
};

/**
 * struct rmp_qp_sink - where rmp_qp_report() writes a QP's state
 * @num: writes a number
 * @word: writes a word
 * @path: writes a path of a spraying QP, @live or dead
 * @msg: the netlink message they write into
 *
 * Each returns 0, or an error (a full message) that ends the report.
 */
struct rmp_qp_sink {
	int (*num)(struct rmp_qp_sink *s, const char *name,
		   enum rmp_fig_kind kind, u64 val);
	int (*word)(struct rmp_qp_sink *s, const char *name, const char *word);
	int (*path)(struct rmp_qp_sink *s, u32 idx, const struct rmp_path *path,
		    bool live);
	struct sk_buff *msg;
};

static inline struct rmp_qp *to_rmp_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rmp_qp, ibqp);
}

/* RC or UC: a QP with one peer, fixed by modify_qp. */
static inline bool rmp_qp_connected(const struct rmp_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC;
}

/* The QP state, readable from any context. */
static inline enum ib_qp_state rmp_qp_state(const struct rmp_qp *qp)
{
	return READ_ONCE(qp->attr.qp_state);
}

struct rmp_qp *rmp_qp_get(struct rmp_dev *dev, u32 qpn);
struct rmp_qp *rmp_qp_get_next(struct rmp_dev *dev, u32 *qpn);
void rmp_qp_hold(struct rmp_qp *qp);
void rmp_qp_put(struct rmp_qp *qp);
void rmp_qp_schedule(struct rmp_qp *qp);
void rmp_qp_multipath(struct rmp_qp *qp, u32 caps);
void rmp_qp_credit(struct rmp_qp *qp);
void rmp_qp_ext_known(struct rmp_qp *qp);
void rmp_qp_kick(struct rmp_qp *qp);
void rmp_qp_kick_atomic(struct rmp_qp *qp);
void rmp_qp_run_soon(struct rmp_qp *qp);
void rmp_qp_run_again(struct rmp_qp *qp);
void rmp_qp_run_now(struct rmp_qp *qp);
int rmp_qp_report(struct rmp_qp *qp, struct rmp_qp_sink *s);
int rmp_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
void rmp_qp_event(struct rmp_qp *qp, enum ib_event_type type);
void rmp_qp_set_error(struct rmp_qp *qp);

int rmp_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int rmp_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int rmp_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int rmp_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);

#endif /* RMP_QP_H */
