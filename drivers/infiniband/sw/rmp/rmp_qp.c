// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: queue pairs
 *
 * rmp has RC, UC, UD and GSI QPs (one GSI QP, number 1, which ib_core's MAD
 * layer creates). A QP's send and receive queues are rings in the Soft-RoCE
 * user ABI layout (see rmp_wqe.c); a QP that uses an SRQ has no receive
 * ring. QP numbers come from the device's QP table, cyclically, from
 * %RMP_MIN_QPN up.
 *
 * The receive path finds a QP by number with rmp_qp_get(), under RCU, and
 * holds a reference until rmp_qp_put(). destroy_qp takes the QP out of the
 * table, waits out the RCU readers and the references, stops the work item
 * and only then frees the rings, because ib_core frees the QP itself as soon
 * as destroy_qp returns.
 *
 * Everything a QP does beyond the verbs happens in runs of its transport:
 * from its work item, a doorbell or the receive path, one at a time; see
 * "Concurrency" in Documentation/rmp/design.rst.
 */
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>
#include <rdma/uverbs_ioctl.h>

#include "rmp_dev.h"
#include "rmp_ext.h"
#include "rmp_qp.h"
#include "rmp_recv.h"
#include "rmp_srq.h"
#include "rmp_verbs.h"
#include "rmp_wqe.h"

#define RMP_GSI_QPN 1
/* Largest value of the 5-bit timeout and RNR timer codes. */
#define RMP_MAX_TIMER_CODE 31
#define RMP_MAX_RETRY 7
/*
 * Runs of a QP's transport in one go: by a doorbell, by the receive path,
 * by its work item.
 */
#define RMP_QP_KICK_PASSES 8
#define RMP_QP_ATOMIC_PASSES 2
#define RMP_QP_WORK_PASSES 16

#define RMP_QP_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
		       IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
		       IB_ACCESS_MW_BIND)

/**
 * rmp_qp_get() - find a QP by number and reference it
 * @dev: the device
 * @qpn: QP number
 *
 * Callable from any context, the receive path's softirq included.
 *
 * Return: the QP, to be released with rmp_qp_put(), or NULL.
 */
struct rmp_qp *rmp_qp_get(struct rmp_dev *dev, u32 qpn)
{
	struct rmp_qp *qp;

	rcu_read_lock();
	qp = xa_load(&dev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

/**
 * rmp_qp_get_next() - find the QP numbered lowest from a number on
 * @dev: the device
 * @qpn: the number to start from; set to the QP's number
 *
 * For walks over a device's QPs that may sleep between two QPs.
 *
 * Return: the QP, to be released with rmp_qp_put(), or NULL if there is
 * none.
 */
struct rmp_qp *rmp_qp_get_next(struct rmp_dev *dev, u32 *qpn)
{
	unsigned long index;
	struct rmp_qp *qp;

	rcu_read_lock();
	xa_for_each_start(&dev->qps, index, qp, *qpn) {
		if (refcount_inc_not_zero(&qp->ref)) {
			*qpn = index;
			break;
		}
	}
	rcu_read_unlock();
	return qp;
}

/**
 * rmp_qp_hold() - take another reference to a QP
 * @qp: the QP, held by the caller
 */
void rmp_qp_hold(struct rmp_qp *qp)
{
	refcount_inc(&qp->ref);
}

/**
 * rmp_qp_put() - release a reference from rmp_qp_get() or rmp_qp_hold()
 * @qp: the QP
 */
void rmp_qp_put(struct rmp_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->released);
}

/**
 * rmp_qp_schedule() - run a QP's work item
 * @qp: the QP; callable from any context while the QP exists
 */
void rmp_qp_schedule(struct rmp_qp *qp)
{
	queue_work_on(qp->cpu, rmp_wq, &qp->work);
}

/**
 * rmp_qp_multipath() - the peer of an RC QP agreed to multipath
 * @qp: the QP; process context
 * @caps: RMP_EXT_CAP_* bits of the extensions the peer agreed to: with
 *	multipath, ECN echo, read spraying, reports of READ responses (with
 *	read spraying) and send spraying count
 *
 * The QP's work item switches its transport: the responder accepts
 * sprayed WRITEs out of order and acknowledges with SACKs, with ECN echo
 * the CE marks in them; the requester, if ``paths`` (the QP's or its
 * device's) asks for more than one, sprays. With read spraying, the
 * requester takes READ responses in any order and the responder sprays
 * them (over ``paths`` paths); with reports, the requester reports the
 * responses it received and the responder's paths die and come back by
 * them. With send spraying, the responder takes SENDs in pieces and the
 * requester, if it sprays, sends them so.
 */
void rmp_qp_multipath(struct rmp_qp *qp, u32 caps)
{
	bool read_spray = caps & RMP_EXT_CAP_READ_SPRAY;

	if (caps & RMP_EXT_CAP_ECN_ECHO)
		set_bit(RMP_QP_ECN_ECHO, &qp->flags);
	if (read_spray)
		set_bit(RMP_QP_READ_SPRAY, &qp->flags);
	if (read_spray && (caps & RMP_EXT_CAP_READ_REPORT))
		set_bit(RMP_QP_READ_REPORT, &qp->flags);
	if (caps & RMP_EXT_CAP_SEND_SPRAY)
		set_bit(RMP_QP_SEND_SPRAY, &qp->flags);
	set_bit(RMP_QP_MULTIPATH, &qp->flags);
	rmp_qp_schedule(qp);
}

/**
 * rmp_qp_credit() - the peer of an RC QP agreed to receiver credit
 * @qp: the QP; process context
 *
 * The QP's work item starts it (rmp_rcc_start()): its responder grants
 * the peer credit, its requester sends new data only on the peer's.
 */
void rmp_qp_credit(struct rmp_qp *qp)
{
	set_bit(RMP_QP_CREDIT, &qp->flags);
	rmp_qp_schedule(qp);
}

/**
 * rmp_qp_ext_known() - an RC QP learned which extensions its peer speaks
 * @qp: the QP; rmp_qp_multipath() and rmp_qp_credit() were called for
 *	those the peer agreed to
 *
 * A run that finds %RMP_QP_EXT_KNOWN set finds those flags set too.
 */
void rmp_qp_ext_known(struct rmp_qp *qp)
{
	/* Pairs with rmp_rcc_ask(): the flags set before are seen first. */
	smp_mb__before_atomic();
	set_bit(RMP_QP_EXT_KNOWN, &qp->flags);
	rmp_qp_schedule(qp);
}

/**
 * rmp_qp_event() - raise an asynchronous event on a QP
 * @qp: the QP
 * @type: the event
 */
void rmp_qp_event(struct rmp_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/* Enter a state; the caller holds qp->state_lock and schedules the work. */
static void rmp_qp_enter(struct rmp_qp *qp, enum ib_qp_state state)
{
	if (state == IB_QPS_ERR && qp->srq && rmp_qp_state(qp) != IB_QPS_ERR)
		set_bit(RMP_QP_LAST_WQE, &qp->flags);
	if (state != IB_QPS_SQD) {
		clear_bit(RMP_QP_SQ_DRAINING, &qp->flags);
		clear_bit(RMP_QP_SQD_NOTIFY, &qp->flags);
	}
	WRITE_ONCE(qp->attr.qp_state, state);
}

/**
 * rmp_qp_set_error() - move a QP to the error state
 * @qp: the QP; any context (the transport's runs included)
 *
 * The work item then flushes the QP's WQEs.
 */
void rmp_qp_set_error(struct rmp_qp *qp)
{
	spin_lock_bh(&qp->state_lock);
	rmp_qp_enter(qp, IB_QPS_ERR);
	spin_unlock_bh(&qp->state_lock);
	rmp_qp_schedule(qp);
}

/* Raise IB_EVENT_SQ_DRAINED once an SQD QP has no send WQE in flight. */
static void rmp_qp_check_drained(struct rmp_qp *qp)
{
	if (qp->sq.next == rmp_queue_consumer(&qp->sq.queue) &&
	    test_and_clear_bit(RMP_QP_SQ_DRAINING, &qp->flags) &&
	    test_and_clear_bit(RMP_QP_SQD_NOTIFY, &qp->flags))
		rmp_qp_event(qp, IB_EVENT_SQ_DRAINED);
}

/* RESET: the transport stops and every WQE and packet is dropped. */
static void rmp_qp_stop(struct rmp_qp *qp)
{
	rmp_rcc_stop(qp, false);
	qp->requester.on = false;
	qp->responder.on = false;
	qp->responder.wqe_valid = false;
	rmp_recv_purge(qp);
	rmp_wqe_discard(qp);
}

/* RTR, RTS, SQD, SQE: run the transport; see rmp_qp_run_locked(). */
static bool rmp_qp_run(struct rmp_qp *qp, enum ib_qp_state state, bool atomic)
{
	bool more;

	if (!qp->responder.on && rmp_responder_start(qp))
		goto fail;
	if ((state == IB_QPS_RTS || state == IB_QPS_SQD) &&
	    !qp->requester.on && rmp_requester_start(qp))
		goto fail;

	if (!atomic && test_bit(RMP_QP_MULTIPATH, &qp->flags)) {
		rmp_responder_multipath(qp);
		if (qp->requester.on)
			rmp_requester_multipath(qp);
	}
	if (!atomic && test_bit(RMP_QP_CREDIT, &qp->flags))
		rmp_rcc_start(qp);
	more = rmp_recv_process(qp, atomic);
	/*
	 * The ACK the receive batch owes leaves before anything the
	 * requester sends, however the batch ended (see rmp_responder.c).
	 */
	rmp_responder_ack_owed(qp);
	/* In atomic context, only responses give the requester work. */
	if (qp->requester.on && (!atomic || qp->requester.answered_at))
		more |= rmp_requester_run(qp, state == IB_QPS_RTS, !atomic);
	rmp_recv_batch_end(&qp->deliveries);
	if (state == IB_QPS_SQD)
		rmp_qp_check_drained(qp);
	if (state == IB_QPS_SQE) {
		rmp_requester_flush(qp);
		more |= rmp_wqe_flush_send(qp);
	}
	return more;

fail:
	/* Attributes the transport refuses, or no memory for it. */
	rmp_qp_set_error(qp);
	return false;
}

/* ERR: complete everything with a flush error. */
static bool rmp_qp_flush(struct rmp_qp *qp)
{
	bool more;

	rmp_recv_purge(qp);
	rmp_requester_flush(qp);
	rmp_responder_flush(qp);
	more = rmp_wqe_flush_send(qp);
	more |= rmp_wqe_flush_recv(qp);
	if (test_and_clear_bit(RMP_QP_LAST_WQE, &qp->flags))
		rmp_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	return more;
}

/*
 * Have the timer fire no later than the requester's deadline. A deadline
 * moves with nearly every message sent or acknowledged; the timer follows
 * it only when it comes earlier. Otherwise it is left as it is, and firing
 * early or with no deadline left it has the work item run, which finds
 * nothing due and sets it again: one early expiry per timeout period
 * instead of a start and a cancel per message.
 */
static void rmp_qp_arm_timer(struct rmp_qp *qp)
{
	u64 at = qp->requester.on ? rmp_req_deadline(&qp->requester.req) : 0;

	if (!at || (hrtimer_is_queued(&qp->timer) && qp->timer_at <= at))
		return;
	qp->timer_at = at;
	hrtimer_start(&qp->timer, ns_to_ktime(at), HRTIMER_MODE_ABS);
}

static enum hrtimer_restart rmp_qp_timer_fn(struct hrtimer *timer)
{
	struct rmp_qp *qp = container_of(timer, struct rmp_qp, timer);

	if (!test_bit(RMP_QP_DYING, &qp->flags))
		rmp_qp_schedule(qp);
	return HRTIMER_NORESTART;
}

/* A run in atomic context can do @state's work: no start, no flush. */
static bool rmp_qp_started(const struct rmp_qp *qp, enum ib_qp_state state)
{
	switch (state) {
	case IB_QPS_RTR:
		return qp->responder.on;
	case IB_QPS_RTS:
	case IB_QPS_SQD:
		return qp->responder.on && qp->requester.on;
	default:
		return false;
	}
}

/*
 * One run of the QP's transport, holding &rmp_qp.run: the only place
 * the transport state of the QP is touched. A run in atomic context
 * (@atomic, the receive path) only takes in packets, answers requests and
 * completes; it leaves to the work item what allocates (starting the
 * transport), what may be long (READ response streams, flushes, the
 * states other than RTR, RTS and SQD) and the QP's transmission of
 * requests, which thus leaves from few CPUs and in order.
 *
 * Return: whether work is left for the work item.
 */
static bool rmp_qp_run_locked(struct rmp_qp *qp, bool atomic)
{
	enum ib_qp_state state = rmp_qp_state(qp);
	bool more = false;

	if (atomic && !rmp_qp_started(qp, state))
		return true;
	switch (state) {
	case IB_QPS_RESET:
		rmp_qp_stop(qp);
		break;
	case IB_QPS_INIT:
		rmp_recv_purge(qp);
		break;
	case IB_QPS_ERR:
		more = rmp_qp_flush(qp);
		break;
	default:
		more = rmp_qp_run(qp, state, atomic);
		break;
	}
	rmp_qp_arm_timer(qp);
	return more;
}

/* Take the transport for a run. Return: %RMP_RUN_IDLE, or who holds it. */
static int rmp_qp_trylock_run(struct rmp_qp *qp, bool atomic)
{
	return atomic_cmpxchg_acquire(&qp->run, RMP_RUN_IDLE,
				      atomic ? RMP_RUN_ATOMIC : RMP_RUN_TASK);
}

/*
 * Process context: wait for a run in progress. Counted in
 * &rmp_qp.lockers meanwhile, so that runs that keep coming (a busy QP's
 * work item, its receive path) let the waiter in.
 */
static void rmp_qp_lock_run(struct rmp_qp *qp)
{
	atomic_inc(&qp->lockers);
	wait_var_event(&qp->run,
		       rmp_qp_trylock_run(qp, false) == RMP_RUN_IDLE);
	atomic_dec(&qp->lockers);
}

/* Release the transport. Return: whether a run was owed meanwhile. */
static bool rmp_qp_release_run(struct rmp_qp *qp)
{
	atomic_set_release(&qp->run, RMP_RUN_IDLE);
	/* For wake_up_var(); pairs with the barrier in rmp_qp_try_run(). */
	smp_mb();
	wake_up_var(&qp->run);
	return test_bit(RMP_QP_RUN_AGAIN, &qp->flags);
}

/* A run starts: what was owed is done by it. */
static void rmp_qp_start_run(struct rmp_qp *qp)
{
	clear_bit(RMP_QP_RUN_AGAIN, &qp->flags);
	/*
	 * The flag cleared before the run looks at its queues, which it may
	 * find empty without their locks; pairs with rmp_qp_owe_run().
	 */
	smp_mb__after_atomic();
}

/* A run is owed: set before testing &rmp_qp.run. */
static void rmp_qp_owe_run(struct rmp_qp *qp)
{
	set_bit(RMP_QP_RUN_AGAIN, &qp->flags);
	/* The flag before the lock test; pairs with rmp_qp_release_run(). */
	smp_mb__after_atomic();
}

/* Release the transport; a run owed meanwhile goes to the work item. */
static void rmp_qp_unlock_run(struct rmp_qp *qp)
{
	if (rmp_qp_release_run(qp))
		rmp_qp_schedule(qp);
}

/*
 * Take the transport, or leave: a run in progress goes again instead. In
 * process context, a run in atomic context in progress (short, never
 * waiting) is waited for, counted in &rmp_qp.waiters so that it leaves
 * what is owed to the waiter rather than going again itself. While a
 * caller waits to lock the transport (&rmp_qp.lockers), leave: the run
 * is owed, and goes to the work item when that caller is done.
 */
static bool rmp_qp_take_run(struct rmp_qp *qp, bool atomic)
{
	bool waiting = false;
	int holder;

	if (atomic_read(&qp->lockers))
		return false;
	for (;;) {
		holder = rmp_qp_trylock_run(qp, atomic);
		if (holder == RMP_RUN_IDLE || atomic ||
		    holder != RMP_RUN_ATOMIC)
			break;
		if (!waiting) {
			atomic_inc(&qp->waiters);
			waiting = true;
		}
		cpu_relax();
	}
	if (waiting)
		atomic_dec(&qp->waiters);
	return holder == RMP_RUN_IDLE;
}

/*
 * Run unless a run is in progress, which then goes again (see
 * rmp_qp_take_run()), so that a doorbell sends its WQEs itself. Runs owed
 * while this one held the transport (typically: a loopback or veth peer
 * answered inside it, or data arrived) are done here, @passes runs in all
 * at most: a process's doorbell must return, and softirq must let go, even
 * while packets keep coming; after that, or when the CPU is wanted, the
 * work item takes over. A run in atomic context that a process waits for
 * leaves the rest to it.
 */
static void rmp_qp_try_run(struct rmp_qp *qp, bool atomic, int passes)
{
	bool more, owed;

	rmp_qp_owe_run(qp);
	while (rmp_qp_take_run(qp, atomic)) {
		rmp_qp_start_run(qp);
		more = rmp_qp_run_locked(qp, atomic);
		owed = rmp_qp_release_run(qp);
		if (atomic && atomic_read(&qp->waiters))
			return;
		if (more || (owed && (!--passes ||
				      (!atomic && need_resched())))) {
			rmp_qp_schedule(qp);
			return;
		}
		if (!owed)
			return;
	}
}

/**
 * rmp_qp_kick() - run a QP's transport now, or have the running one go again
 * @qp: the QP; process context
 *
 * Never sleeps for the transport: if a run in process context is in
 * progress elsewhere (the work item, another doorbell), that run goes once
 * more after it; a run in the receive path is short and spun on. A
 * process's post_send doorbell thus sends its WQEs itself when the QP is
 * idle or only taking in packets, without waking a worker, and costs
 * nothing when it is busy.
 */
void rmp_qp_kick(struct rmp_qp *qp)
{
	rmp_qp_try_run(qp, false, RMP_QP_KICK_PASSES);
}

/**
 * rmp_qp_kick_atomic() - rmp_qp_kick() for a caller that cannot sleep
 * @qp: the QP; softirq, or bottom halves disabled
 *
 * The receive path takes its packets in at once when the QP is idle and
 * its transport started; otherwise the work item does.
 */
void rmp_qp_kick_atomic(struct rmp_qp *qp)
{
	rmp_qp_try_run(qp, true, RMP_QP_ATOMIC_PASSES);
}

/**
 * rmp_qp_run_soon() - have a QP's transport run, but not here
 * @qp: the QP; any context
 *
 * A run in progress goes once more; otherwise the work item runs. The
 * receive path hands data to a QP this way: a busy work item is not
 * queued again, nor another worker woken, for every packet.
 */
void rmp_qp_run_soon(struct rmp_qp *qp)
{
	rmp_qp_owe_run(qp);
	if (atomic_read(&qp->run) == RMP_RUN_IDLE)
		rmp_qp_schedule(qp);
}

/**
 * rmp_qp_run_again() - have a run in progress go once more
 * @qp: the QP; any context
 *
 * Nothing is scheduled: without a run in progress, the caller sees to one
 * later (rmp_qp_run_soon()).
 */
void rmp_qp_run_again(struct rmp_qp *qp)
{
	rmp_qp_owe_run(qp);
}

/**
 * rmp_qp_run_now() - run a QP's transport, waiting for a run in progress
 * @qp: the QP; process context
 */
void rmp_qp_run_now(struct rmp_qp *qp)
{
	bool more;

	rmp_qp_lock_run(qp);
	rmp_qp_start_run(qp);
	more = rmp_qp_run_locked(qp, false);
	if (rmp_qp_release_run(qp) || more)
		rmp_qp_schedule(qp);
}

static void rmp_qp_work(struct work_struct *work)
{
	rmp_qp_try_run(container_of(work, struct rmp_qp, work), false,
		       RMP_QP_WORK_PASSES);
}

static int rmp_qp_check_init(const struct ib_qp_init_attr *init,
			     struct ib_udata *udata)
{
	const struct ib_qp_cap *cap = &init->cap;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		if (udata || init->port_num != 1)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags || init->rwq_ind_tbl)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (init->sq_sig_type != IB_SIGNAL_ALL_WR &&
	    init->sq_sig_type != IB_SIGNAL_REQ_WR)
		return -EINVAL;
	if (cap->max_send_wr > RMP_MAX_QP_WR ||
	    cap->max_send_sge > RMP_MAX_SGE ||
	    cap->max_inline_data > RMP_MAX_INLINE)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > RMP_MAX_QP_WR ||
			   cap->max_recv_sge > RMP_MAX_SGE))
		return -EINVAL;
	if (udata && (udata->outlen < sizeof(struct rxe_create_qp_resp) ||
		      !ib_is_udata_cleared(udata, 0, udata->inlen)))
		return -EINVAL;
	return 0;
}

/*
 * Make the rings. A send slot holds the WQE and the larger of the gather
 * list and the inline data; whichever is smaller gets the room the other
 * needs. @init->cap is updated to what the QP has.
 */
static int rmp_qp_init_rings(struct rmp_qp *qp, struct ib_qp_init_attr *init,
			     struct ib_udata *udata,
			     struct rxe_create_qp_resp *resp)
{
	struct ib_qp_cap *cap = &init->cap;
	size_t room;
	u32 num;
	int err;

	room = max_t(size_t, cap->max_send_sge * sizeof(struct rxe_sge),
		     cap->max_inline_data);
	num = max(cap->max_send_wr, 1U);
	err = rmp_queue_init(&qp->sq.queue, udata, RMP_QUEUE_RMP_CONSUMES,
			     &num, sizeof(struct rxe_send_wqe) + room,
			     &resp->sq_mi);
	if (err)
		return err;
	qp->sq.max_wr = num;
	qp->sq.max_sge = min_t(u32, room / sizeof(struct rxe_sge), RMP_MAX_SGE);
	qp->sq.max_inline = min_t(u32, room, RMP_MAX_INLINE);
	cap->max_send_wr = qp->sq.max_wr;
	cap->max_send_sge = qp->sq.max_sge;
	cap->max_inline_data = qp->sq.max_inline;

	if (init->srq) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		return 0;
	}
	num = max(cap->max_recv_wr, 1U);
	err = rmp_queue_init(&qp->rq.queue, udata, RMP_QUEUE_RMP_CONSUMES,
			     &num, sizeof(struct rxe_recv_wqe) +
			     cap->max_recv_sge * sizeof(struct rxe_sge),
			     &resp->rq_mi);
	if (err) {
		rmp_queue_destroy(&qp->sq.queue);
		return err;
	}
	qp->rq.max_wr = num;
	qp->rq.max_sge = cap->max_recv_sge;
	cap->max_recv_wr = num;
	return 0;
}

static void rmp_qp_reset_attr(struct rmp_qp *qp)
{
	struct ib_qp_cap cap = qp->attr.cap;

	memset(&qp->attr, 0, sizeof(qp->attr));
	memset(&qp->av, 0, sizeof(qp->av));
	qp->attr.cap = cap;
	qp->attr.qp_state = IB_QPS_RESET;
	qp->attr.path_mtu = IB_MTU_256;
	qp->attr.path_mig_state = IB_MIG_MIGRATED;
	qp->attr.port_num = 1;
	WRITE_ONCE(qp->ext, RMP_EXT_NONE);
	clear_bit(RMP_QP_MULTIPATH, &qp->flags);
	clear_bit(RMP_QP_ECN_ECHO, &qp->flags);
	clear_bit(RMP_QP_READ_SPRAY, &qp->flags);
	clear_bit(RMP_QP_READ_REPORT, &qp->flags);
	clear_bit(RMP_QP_SEND_SPRAY, &qp->flags);
	clear_bit(RMP_QP_CREDIT, &qp->flags);
	clear_bit(RMP_QP_EXT_KNOWN, &qp->flags);
}

static int rmp_qp_insert(struct rmp_dev *dev, struct rmp_qp *qp)
{
	int err;

	if (qp->ibqp.qp_type == IB_QPT_GSI) {
		qp->ibqp.qp_num = RMP_GSI_QPN;
		err = xa_insert(&dev->qps, RMP_GSI_QPN, qp, GFP_KERNEL);
		return err == -EBUSY ? -EINVAL : err;
	}
	err = xa_alloc_cyclic(&dev->qps, &qp->ibqp.qp_num, qp,
			      XA_LIMIT(RMP_MIN_QPN, RMP_MAX_QPN),
			      &dev->next_qpn, GFP_KERNEL);
	if (err == -EBUSY)
		return -ENOMEM;
	return err < 0 ? err : 0;
}

/**
 * rmp_create_qp() - ib_device_ops.create_qp: a QP in the RESET state
 * @ibqp: allocated by ib_core; given its number here: 1 for the GSI QP,
 *	else the next free one from %RMP_MIN_QPN up
 * @init: RC, UC, UD, or GSI (a kernel one, on port 1), with capacities
 *	within %RMP_MAX_QP_WR, %RMP_MAX_SGE and %RMP_MAX_INLINE; its @cap is
 *	updated to what the rings hold, which may be more
 * @udata: for a user QP, whose response carries the rings' mmap offsets
 *	and sizes; NULL for a kernel QP
 *
 * The QP goes into the device's table last, once it is complete: the
 * receive path can find it from then on. Sleeps.
 *
 * Return: 0; -EOPNOTSUPP for another QP type, creation flags or an
 * indirection table; -EINVAL for a missing CQ, a bad signalling type,
 * capacities too large, a GSI QP from a process, on another port or a
 * second one, or a user request with nonzero input or a response too
 * short; -ENOMEM when the device has %RMP_MAX_QP QPs, no QP number is free
 * or memory is short; -EFAULT if the response cannot be copied out.
 */
int rmp_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibqp->device);
	struct rmp_qp *qp = to_rmp_qp(ibqp);
	struct rxe_create_qp_resp resp = {};
	int err;

	err = rmp_qp_check_init(init, udata);
	if (err)
		return err;
	if (atomic_inc_return(&dev->num_qps) > RMP_MAX_QP) {
		err = -ENOMEM;
		goto err_count;
	}

	refcount_set(&qp->ref, 1);
	atomic_set(&qp->run, RMP_RUN_IDLE);
	atomic_set(&qp->waiters, 0);
	atomic_set(&qp->lockers, 0);
	init_completion(&qp->released);
	INIT_WORK(&qp->work, rmp_qp_work);
	/*
	 * One CPU per QP, the QPs of a device spread over them: a QP's packets
	 * leave from one CPU, so a netdev that queues per CPU (veth, loopback)
	 * cannot reorder them.
	 */
	qp->cpu = cpumask_local_spread(atomic_inc_return(&dev->next_cpu) %
				       num_online_cpus(), NUMA_NO_NODE);
	skb_queue_head_init(&qp->rxq);
	hrtimer_init(&qp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	qp->timer.function = rmp_qp_timer_fn;
	mutex_init(&qp->lock);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	qp->srq = init->srq ? to_rmp_srq(init->srq) : NULL;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->user = !!udata;
	err = rmp_qp_init_rings(qp, init, udata, &resp);
	if (err)
		goto err_count;
	err = rmp_requester_alloc(qp) ?: rmp_responder_alloc(qp);
	if (err)
		goto err_rings;
	if (rmp_qp_connected(qp)) {
		err = dst_cache_init(&qp->routes, GFP_KERNEL);
		if (err)
			goto err_rings;
	}
	qp->attr.cap = init->cap;
	rmp_qp_reset_attr(qp);
	rmp_override_init(&qp->over);

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_rings;
	}
	/* Last: from here on the receive path can find the QP. */
	err = rmp_qp_insert(dev, qp);
	if (err)
		goto err_rings;
	return 0;

err_rings:
	dst_cache_destroy(&qp->routes);
	rmp_requester_free(qp);
	rmp_responder_free(qp);
	rmp_queue_destroy(&qp->sq.queue);
	if (!qp->srq)
		rmp_queue_destroy(&qp->rq.queue);
err_count:
	atomic_dec(&dev->num_qps);
	return err;
}

static int rmp_qp_check_attr(struct rmp_qp *qp, const struct ib_qp_attr *attr,
			     int mask, struct rmp_av *av)
{
	struct rmp_dev *dev = to_rmp_dev(qp->ibqp.device);

	if (mask & (IB_QP_ALT_PATH | IB_QP_CAP | IB_QP_RATE_LIMIT))
		return -EINVAL;
	if (mask & IB_QP_PATH_MIG_STATE &&
	    attr->path_mig_state != IB_MIG_MIGRATED)
		return -EINVAL;
	if (mask & IB_QP_PORT && attr->port_num != 1)
		return -EINVAL;
	if (mask & IB_QP_PKEY_INDEX && attr->pkey_index)
		return -EINVAL;
	if (mask & IB_QP_PATH_MTU &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if (mask & IB_QP_ACCESS_FLAGS && attr->qp_access_flags & ~RMP_QP_ACCESS)
		return -EINVAL;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC &&
	    attr->max_rd_atomic > RMP_MAX_RD_ATOMIC)
		return -EINVAL;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC &&
	    attr->max_dest_rd_atomic > RMP_MAX_RD_ATOMIC)
		return -EINVAL;
	if (mask & IB_QP_RETRY_CNT && attr->retry_cnt > RMP_MAX_RETRY)
		return -EINVAL;
	if (mask & IB_QP_RNR_RETRY && attr->rnr_retry > RMP_MAX_RETRY)
		return -EINVAL;
	if (mask & IB_QP_TIMEOUT && attr->timeout > RMP_MAX_TIMER_CODE)
		return -EINVAL;
	if (mask & IB_QP_MIN_RNR_TIMER &&
	    attr->min_rnr_timer > RMP_MAX_TIMER_CODE)
		return -EINVAL;
	if (mask & IB_QP_SQ_PSN && attr->sq_psn & ~RMP_PSN_MASK)
		return -EINVAL;
	if (mask & IB_QP_RQ_PSN && attr->rq_psn & ~RMP_PSN_MASK)
		return -EINVAL;
	if (mask & IB_QP_DEST_QPN && attr->dest_qp_num & ~RMP_PSN_MASK)
		return -EINVAL;
	if (mask & IB_QP_AV)
		return rmp_av_from_attr(dev, &attr->ah_attr, av);
	return 0;
}

static void rmp_qp_apply_attr(struct rmp_qp *qp, const struct ib_qp_attr *attr,
			      int mask, const struct rmp_av *av)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & IB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		qp->av = *av;
		a->ah_attr = attr->ah_attr;
		a->ah_attr.grh.sgid_attr = NULL;
	}
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PATH_MIG_STATE)
		a->path_mig_state = attr->path_mig_state;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = attr->en_sqd_async_notify;
}

/**
 * rmp_modify_qp() - ib_device_ops.modify_qp: change a QP's state and attributes
 * @ibqp: the QP
 * @attr: the new values
 * @mask: IB_QP_* bits naming the values of @attr to take
 * @udata: a user's request, with no input; NULL from the kernel
 *
 * Under the QP's mutex, the change is checked against ib_core's table of
 * transitions and rmp's limits, then applied under its state lock; if the
 * transport moved the QP to ERR in between, it is checked again against
 * that state. Moving to RESET forgets every attribute but the capacities
 * and returns only once the transport has emptied the rings; moving to SQD
 * starts draining the send queue. An RC QP that goes from RTR to RTS asks
 * its peer about the extensions (rmp_ext_ask()). Process context; sleeps.
 *
 * Return: 0; -EOPNOTSUPP for a mask bit beyond the standard ones; -EINVAL
 * for a user request with input, a current state that is not the QP's, a
 * transition or mask ib_core does not allow, an alternate path, new
 * capacities or a rate limit, a value out of range, or an address vector
 * rmp_av_from_attr() refuses.
 */
int rmp_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct rmp_qp *qp = to_rmp_qp(ibqp);
	enum ib_qp_state cur, next, now;
	struct rmp_av av;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	mutex_lock(&qp->lock);
	cur = rmp_qp_state(qp);
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	err = -EINVAL;
	if (mask & IB_QP_CUR_STATE && attr->cur_qp_state != cur)
		goto out;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		goto out;
	err = rmp_qp_check_attr(qp, attr, mask, &av);
	if (err)
		goto out;

	spin_lock_bh(&qp->state_lock);
	/* The transport may have moved the QP to ERR meanwhile. */
	now = qp->attr.qp_state;
	if (now != cur) {
		if (!(mask & IB_QP_STATE))
			next = now;
		if (!ib_modify_qp_is_ok(now, next, ibqp->qp_type, mask)) {
			spin_unlock_bh(&qp->state_lock);
			err = -EINVAL;
			goto out;
		}
	}
	if (next == IB_QPS_RESET)
		rmp_qp_reset_attr(qp);
	else
		rmp_qp_apply_attr(qp, attr, mask, &av);
	if (mask & IB_QP_STATE) {
		if (next == IB_QPS_SQD && cur != IB_QPS_SQD) {
			set_bit(RMP_QP_SQ_DRAINING, &qp->flags);
			if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY &&
			    attr->en_sqd_async_notify)
				set_bit(RMP_QP_SQD_NOTIFY, &qp->flags);
		}
		rmp_qp_enter(qp, next);
	}
	spin_unlock_bh(&qp->state_lock);
out:
	mutex_unlock(&qp->lock);
	if (err || !(mask & IB_QP_STATE))
		return err;
	if (cur == IB_QPS_RTR && next == IB_QPS_RTS)
		rmp_ext_ask(qp);
	/* The rings are empty when a move to RESET returns. */
	if (next == IB_QPS_RESET)
		rmp_qp_run_now(qp);
	else
		rmp_qp_schedule(qp);
	return 0;
}

/*
 * Multipath: the path count, the live ones, the policy, the reordering
 * the scoreboard tolerates and the losses it declared that were
 * reordering, each path.
 */
static int rmp_qp_report_paths(const struct rmp_paths *ps,
			       const struct rmp_sb *sb, struct rmp_qp_sink *s)
{
	u32 i;
	int err;

	err = s->num(s, "paths", RMP_FIG_U32, ps->cfg.npaths) ?:
	      s->num(s, "paths-live", RMP_FIG_U32, hweight64(ps->live_mask)) ?:
	      s->word(s, "spray", rmp_knobs[RMP_KNOB_SPRAY].words[ps->cfg.spray]) ?:
	      s->num(s, "reorder", RMP_FIG_U32, sb->reorder) ?:
	      s->num(s, "lost-reordered", RMP_FIG_U64, sb->stats.spurious) ?:
	      s->num(s, "lost-overdue", RMP_FIG_U64, sb->stats.overdue);
	for (i = 0; !err && i < ps->cfg.npaths; i++)
		err = s->path(s, i, &ps->path[i], rmp_paths_live(ps, i));
	return err;
}

/*
 * Read reports: the responder's paths of READ responses, the live ones,
 * their deaths, revivals, replacements and losses, the responses asked
 * for again, the reports taken.
 */
static int rmp_qp_report_rd_health(const struct rmp_qp *qp,
				   struct rmp_qp_sink *s)
{
	const struct rmp_responder_rdh *rdh = qp->responder.rdh;
	const struct rmp_paths *ps = qp->responder.rd_paths;
	u64 deaths = 0, revivals = 0, replaced = 0, lost = 0;
	u32 i;

	for (i = 0; i < ps->cfg.npaths; i++) {
		deaths += ps->path[i].stats.deaths;
		revivals += ps->path[i].stats.revivals;
		replaced += ps->path[i].stats.replaced;
		lost += ps->path[i].stats.lost;
	}
	return s->num(s, "rd-paths-live", RMP_FIG_U32,
		      hweight64(ps->live_mask)) ?:
	       s->num(s, "rd-path-deaths", RMP_FIG_U64, deaths) ?:
	       s->num(s, "rd-path-revivals", RMP_FIG_U64, revivals) ?:
	       s->num(s, "rd-path-replaced", RMP_FIG_U64, replaced) ?:
	       s->num(s, "rd-path-lost", RMP_FIG_U64, lost) ?:
	       s->num(s, "rd-asked-again", RMP_FIG_U64, rdh->rdp.stats.again) ?:
	       s->num(s, "rd-asked-blind", RMP_FIG_U64, rdh->rdp.stats.blind) ?:
	       s->num(s, "rd-reports", RMP_FIG_U64, rdh->rdp.stats.reports);
}

/* How the QP paces itself: the ``cc`` mode it started with. */
static enum rmp_cc_mode rmp_qp_cc_mode(const struct rmp_qp *qp)
{
	if (qp->rcc.tx_on || READ_ONCE(qp->rcc.rx_on))
		return RMP_CC_RCC;
	return qp->requester.req.pacer ? RMP_CC_DCQCN : RMP_CC_NONE;
}

/**
 * rmp_qp_report() - write out the state of a QP's transport
 * @qp: the QP, referenced by the caller; process context
 * @s: where to
 *
 * The figures: the CPU the QP runs on, packets queued to it, the send
 * ring's indices, the requester's PSNs, WQE counts and retransmissions,
 * the responder's expected PSN, and for RC what the QP knows of its
 * peer's extensions, whether its responder takes sprayed WRITEs out of
 * order (``ooo``), for RC and UC the values it takes of the knobs it can
 * override (rmp_override_report()), if it sprays, its paths, with read
 * spraying whether its READs ask for it and its responder's paths, the
 * congestion control it
 * runs, with receiver credit the limit it sends to and the one it
 * granted, and if it paces itself (cc=dcqcn), its rate and the cuts it
 * took. Taken between the transport's runs, so consistent. Both
 * ``rdma resource show qp -dd`` and the netlink family show them.
 *
 * Return: 0, or the first error of @s.
 */
int rmp_qp_report(struct rmp_qp *qp, struct rmp_qp_sink *s)
{
	const struct rmp_req *r = &qp->requester.req;
	const struct rmp_queue *sq = &qp->sq.queue;
	u32 taken;
	int err;

	rmp_qp_lock_run(qp);
	err = s->num(s, "cpu", RMP_FIG_U32, qp->cpu) ?:
	      s->num(s, "rxq", RMP_FIG_U32, skb_queue_len(&qp->rxq));
	if (!err && sq->buf) {
		taken = (qp->sq.next - rmp_queue_consumer(sq)) & sq->mask;
		err = s->num(s, "sq-posted", RMP_FIG_U32,
			     rmp_queue_count(sq)) ?:
		      s->num(s, "sq-taken", RMP_FIG_U32, taken);
	}
	if (!err && qp->requester.on)
		err = s->num(s, "una", RMP_FIG_HEX, r->una) ?:
		      s->num(s, "next-psn", RMP_FIG_HEX, r->next_psn) ?:
		      s->num(s, "unsent", RMP_FIG_U32, r->head - r->cur) ?:
		      s->num(s, "unacked", RMP_FIG_U32, r->cur - r->comp) ?:
		      s->num(s, "rd-atomic", RMP_FIG_U32, r->rd_atomic) ?:
		      s->num(s, "req-state", RMP_FIG_U32, r->state) ?:
		      s->num(s, "retries-left", RMP_FIG_U32,
			     r->retries_left) ?:
		      s->num(s, "timer-armed", RMP_FIG_U32, !!r->deadline) ?:
		      s->num(s, "retransmits", RMP_FIG_U64, r->stats.retrans);
	if (!err && qp->responder.on && rmp_qp_connected(qp))
		err = s->num(s, "epsn", RMP_FIG_HEX,
			     rmp_resp_epsn(&qp->responder.resp));
	if (!err && qp->ibqp.qp_type == IB_QPT_RC)
		err = s->word(s, "ext",
			      rmp_ext_state_name(READ_ONCE(qp->ext)));
	if (!err && rmp_qp_connected(qp))
		err = rmp_override_report(qp, s);
	if (!err && qp->requester.on && r->paths)
		err = rmp_qp_report_paths(r->paths, r->sb, s);
	if (!err && qp->responder.on && qp->ibqp.qp_type == IB_QPT_RC)
		err = s->num(s, "ooo", RMP_FIG_U32, qp->responder.resp.ooo);
	if (!err && qp->requester.on && r->rd_spray)
		err = s->num(s, "rd-spray", RMP_FIG_U32, 1);
	if (!err && qp->requester.on && r->send_spray)
		err = s->num(s, "send-spray", RMP_FIG_U32, 1);
	if (!err && qp->responder.rd_paths)
		err = s->num(s, "rd-paths", RMP_FIG_U32,
			     qp->responder.rd_paths->cfg.npaths);
	if (!err && qp->responder.rdh_on)
		err = rmp_qp_report_rd_health(qp, s);
	if (!err && qp->requester.on && rmp_qp_connected(qp))
		err = s->word(s, "cc",
			      rmp_knobs[RMP_KNOB_CC].words[rmp_qp_cc_mode(qp)]);
	if (!err && qp->rcc.tx_on)
		err = s->num(s, "rcc-limit", RMP_FIG_HEX, qp->rcc.tx.limit) ?:
		      s->num(s, "rcc-stalls", RMP_FIG_U64, qp->rcc.tx.stalls);
	if (!err && READ_ONCE(qp->rcc.rx_on))
		err = s->num(s, "rcc-granted", RMP_FIG_HEX,
			     READ_ONCE(qp->rcc.peer.granted));
	if (!err && qp->requester.on && r->pacer)
		err = s->num(s, "cc-rate-kbps", RMP_FIG_U64,
			     rmp_dcqcn_rate(r->pacer)) ?:
		      s->num(s, "cc-cuts", RMP_FIG_U64, r->pacer->stats.cuts);
	rmp_qp_unlock_run(qp);
	return err;
}

/* rmp_qp_report() into the driver attributes of an rdma tool message. */
static int rmp_qp_res_num(struct rmp_qp_sink *s, const char *name,
			  enum rmp_fig_kind kind, u64 val)
{
	switch (kind) {
	case RMP_FIG_HEX:
		return rdma_nl_put_driver_u32_hex(s->msg, name, val);
	case RMP_FIG_U64:
		return rdma_nl_put_driver_u64(s->msg, name, val);
	default:
		return rdma_nl_put_driver_u32(s->msg, name, val);
	}
}

static int rmp_qp_res_word(struct rmp_qp_sink *s, const char *name,
			   const char *word)
{
	return rdma_nl_put_driver_string(s->msg, name, word);
}

/* Only each path's port: the rdma tool reads into 8 KiB. */
static int rmp_qp_res_path(struct rmp_qp_sink *s, u32 idx,
			   const struct rmp_path *path, bool live)
{
	char name[16];

	snprintf(name, sizeof(name), "path%u-sport", idx);
	return rdma_nl_put_driver_u32(s->msg, name, path->sport);
}

/**
 * rmp_fill_res_qp_entry() - the ib_device_ops.fill_res_qp_entry callback
 * @msg: the netlink message of ``rdma resource show qp -dd``
 * @ibqp: the QP
 *
 * Adds rmp_qp_report()'s figures as driver attributes.
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rmp_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct rmp_qp_sink sink = {
		.num = rmp_qp_res_num,
		.word = rmp_qp_res_word,
		.path = rmp_qp_res_path,
		.msg = msg,
	};
	struct nlattr *table;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rmp_qp_report(to_rmp_qp(ibqp), &sink)) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

/**
 * rmp_query_qp() - ib_device_ops.query_qp: a QP's attributes
 * @ibqp: the QP
 * @attr: filled in with all of them, whatever @mask asks for; the source
 *	GID attribute of the address vector is left NULL
 * @mask: unused
 * @init: filled in with what the QP was created with, its capacities as
 *	they are
 *
 * Takes the QP's mutex; sleeps.
 *
 * Return: 0.
 */
int rmp_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct rmp_qp *qp = to_rmp_qp(ibqp);

	mutex_lock(&qp->lock);
	*attr = qp->attr;
	mutex_unlock(&qp->lock);
	attr->cur_qp_state = attr->qp_state;
	attr->sq_draining = test_bit(RMP_QP_SQ_DRAINING, &qp->flags);

	memset(init, 0, sizeof(*init));
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->qp_type = ibqp->qp_type;
	init->port_num = attr->port_num;
	return 0;
}

/**
 * rmp_destroy_qp() - ib_device_ops.destroy_qp
 * @ibqp: the QP; ib_core frees it when this returns
 * @udata: unused
 *
 * The QP leaves the device's table and the credit scheduler first, so that
 * nothing finds it any more; then this waits for the references already
 * taken, stops the work item and the timer, drops the packets still queued
 * to the QP, and frees its transport state and rings (a mapped ring when
 * the process unmaps it). Sleeps.
 *
 * Return: 0.
 */
int rmp_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rmp_dev *dev = to_rmp_dev(ibqp->device);
	struct rmp_qp *qp = to_rmp_qp(ibqp);

	xa_erase(&dev->qps, ibqp->qp_num);
	/* A reader may have found the QP but not yet taken its reference. */
	synchronize_rcu();
	/* Nor may the credit scheduler find it from now on. */
	rmp_rcc_stop(qp, true);
	rmp_qp_put(qp);
	wait_for_completion(&qp->released);
	/* Only the timer can still schedule the work item; it sees this. */
	set_bit(RMP_QP_DYING, &qp->flags);
	cancel_work_sync(&qp->work);
	hrtimer_cancel(&qp->timer);
	rmp_recv_purge(qp);
	rmp_requester_free(qp);
	rmp_responder_free(qp);
	dst_cache_destroy(&qp->routes);

	rmp_queue_destroy(&qp->sq.queue);
	if (!qp->srq)
		rmp_queue_destroy(&qp->rq.queue);
	mutex_destroy(&qp->lock);
	atomic_dec(&dev->num_qps);
	return 0;
}
