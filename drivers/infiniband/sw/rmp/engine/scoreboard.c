// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: scoreboard
 *
 * A multipath requester sprays the packets of a message over several
 * paths, so they reach the responder in any order and a loss on one path
 * says nothing about the others. The scoreboard keeps, for every sprayed
 * PSN in flight, the path it took, when, and its place in that path's
 * sending order (its stamp); from the responder's selective
 * acknowledgments it learns which PSNs are held, and from those which are
 * lost.
 *
 * The first loss rule is per path: packets on one path stay in order, so
 * when a packet sent on a path %RMP_SB_REORDER places after another has
 * been delivered, the other is lost, not late. Paths that take different
 * times do not confuse it, as a PSN distance rule would be. It cannot see
 * the last packets on each path of a burst; the second rule, by time, does:
 * a PSN is overdue, and lost, once a packet sent after it on any path was
 * delivered and, since it left, its own path's round trip has passed,
 * with four times the round trip's deviation and a quarter of it for each
 * place of the tolerance (rmp_sb_recheck(), on a timer). Each PSN waits
 * for the round trip of the path it took, so a slow path is no more blamed
 * by this rule than by the first. The newest PSNs, which nothing sent
 * after them can show lost, are lost after twice that wait, blaming no
 * path, their first copy only: what is sent again and lost again, the
 * requester's ACK timeout covers. A lost PSN is sent again, on whatever
 * path the spraying picks then, with a new stamp; a held one (SACKed) is
 * never sent again.
 *
 * Every record changes hands with the path set: a send, a delivery, a loss
 * are told to it (rmp_paths_sent(), rmp_paths_delivered(),
 * rmp_paths_lost()), so its per-path counts of packets in flight stay
 * true. A delivery counts as ECN marked when the responder's ECN echo
 * (rmp_sb_ecn()) named the PSN before the acknowledgment of it came: the
 * path set's ECN share, and the weighted spraying, follow the marks.
 * Nothing here allocates or reads a clock.
 */
#include "scoreboard.h"

static struct rmp_sb_rec *rmp_sb_rec(const struct rmp_sb *sb, u32 psn)
{
	return &sb->rec[psn & sb->mask];
}

/**
 * rmp_sb_init() - set up an empty scoreboard
 * @sb: scoreboard
 * @rec: records, @nrec of them, owned by the caller
 * @nrec: a power of two, at least the PSNs the requester keeps in flight
 *
 * Return: 0, or -EINVAL if @nrec is not a power of two up to
 * %RMP_RXWIN_MAX; @sb is then untouched.
 */
int rmp_sb_init(struct rmp_sb *sb, struct rmp_sb_rec *rec, u32 nrec)
{
	if (!rec || !nrec || nrec > RMP_RXWIN_MAX || (nrec & (nrec - 1)))
		return -EINVAL;
	memset(sb, 0, sizeof(*sb));
	memset(rec, 0, nrec * sizeof(*rec));
	sb->reorder = RMP_SB_REORDER;
	sb->rec = rec;
	sb->mask = nrec - 1;
	return 0;
}

/* A record leaves state SENT: a probe is no longer outstanding. */
static void rmp_sb_settle(struct rmp_sb *sb, struct rmp_sb_rec *rec)
{
	if (rec->probe) {
		rec->probe = RMP_SB_NO_PROBE;
		sb->nprobes--;
	}
}

/* A record leaves state LOST. */
static void rmp_sb_unlose(struct rmp_sb *sb, struct rmp_sb_rec *rec)
{
	if (rec->state == RMP_SB_LOST)
		sb->nlost--;
}

/*
 * A record in state SENT was lost: the path hears of it, unless @blame is
 * false (the loss is no one path's fault).
 */
static void rmp_sb_lose(struct rmp_sb *sb, struct rmp_paths *ps,
			struct rmp_sb_rec *rec, bool blame, u64 now)
{
	if (rec->probe == RMP_SB_PROBE_HOME)
		rmp_paths_home_lost(ps, rec->path, rec->sent_ns);
	else if (!blame)
		rmp_paths_forget(ps, rec->path);
	else if (rec->probe)
		rmp_paths_probe_lost(ps, rec->path, now);
	else
		rmp_paths_lost(ps, rec->path, rec->sent_ns, now);
	rmp_sb_settle(sb, rec);
	rec->state = RMP_SB_LOST;
	rec->overtaken = false;
	sb->nlost++;
}

/**
 * rmp_sb_sent() - a sprayed PSN went out
 * @sb: scoreboard
 * @ps: the QP's path set
 * @psn: the PSN, first sent or sent again
 * @len: its payload (bytes)
 * @path: the path it took
 * @probe: &enum rmp_sb_probe: what it probes
 * @now: the time (ns)
 *
 * A PSN sent again while its earlier copy was still counted in flight
 * counts that copy lost. A probe of @path's home port is not the path's:
 * it takes no place in the path's sending order nor its count in flight.
 */
void rmp_sb_sent(struct rmp_sb *sb, struct rmp_paths *ps, u32 psn,
		 u32 len, u32 path, enum rmp_sb_probe probe, u64 now)
{
	struct rmp_sb_rec *rec = rmp_sb_rec(sb, psn);

	if (rec->state == RMP_SB_SENT)
		rmp_sb_lose(sb, ps, rec, true, now);
	rmp_sb_unlose(sb, rec);
	rec->resent = rec->state != RMP_SB_NONE;
	if (!rec->resent)
		rec->overtaken = false;
	rec->sent_ns = now;
	rec->stamp = sb->stamp[path];
	rec->seq = sb->seq++;
	rec->len = (u16)len;
	rec->path = (u8)path;
	rec->probe = probe;
	rec->ce = false;
	rec->state = RMP_SB_SENT;
	if (probe && !sb->nprobes++)
		sb->probe_sent_ns = now;
	if (probe == RMP_SB_PROBE_HOME)
		return;
	sb->stamp[path]++;
	rmp_paths_sent(ps, path, len, now);
}

/*
 * A PSN the per-path rule, or the time rule, declared lost arrived after
 * all: its path reorders more than the rules tolerated.
 */
static void rmp_sb_spurious(struct rmp_sb *sb, struct rmp_sb_rec *rec)
{
	rec->overtaken = false;
	sb->stats.spurious++;
	if (sb->reorder < RMP_SB_REORDER_MAX)
		sb->reorder++;
}

/*
 * A record that has left state SENT is acknowledged: if it was lost to
 * the per-path rule and not yet sent again, that loss was reordering.
 */
static void rmp_sb_found(struct rmp_sb *sb, struct rmp_sb_rec *rec)
{
	if (rec->state == RMP_SB_LOST && rec->overtaken)
		rmp_sb_spurious(sb, rec);
	rmp_sb_unlose(sb, rec);
}

/*
 * A record in state SENT was delivered. One sent again after the per-path
 * rule declared it lost, delivered sooner than half its path's round trip
 * after that, was its first copy.
 */
static void rmp_sb_delivered(struct rmp_sb *sb, struct rmp_paths *ps,
			     struct rmp_sb_rec *rec, u64 now)
{
	u32 next = rec->stamp + 1, srtt = ps->path[rec->path].rtt.srtt_ns;

	if (rec->resent && rec->overtaken && now - rec->sent_ns < srtt / 2)
		rmp_sb_spurious(sb, rec);
	if (rec->probe == RMP_SB_PROBE_HOME) {
		rmp_paths_home_delivered(ps, rec->path, rec->sent_ns, now);
	} else {
		rmp_paths_delivered(ps, rec->path, rec->len, now,
				    now - rec->sent_ns, rec->ce);
		if ((s32)(next - sb->delivered[rec->path]) > 0)
			sb->delivered[rec->path] = next;
	}
	rmp_sb_settle(sb, rec);
	if (rec->resent)
		return;
	if ((s32)(rec->seq + 1 - sb->delivered_seq) > 0)
		sb->delivered_seq = rec->seq + 1;
	if (rec->sent_ns > sb->delivered_sent_ns)
		sb->delivered_sent_ns = rec->sent_ns;
}

/**
 * rmp_sb_acked() - PSNs were acknowledged cumulatively
 * @sb: scoreboard
 * @ps: the QP's path set
 * @from: the oldest unacknowledged PSN before the acknowledgment
 * @to: the oldest after it
 * @now: the time (ns)
 *
 * Their records are cleared for the PSNs that will reuse them.
 */
void rmp_sb_acked(struct rmp_sb *sb, struct rmp_paths *ps, u32 from,
		  u32 to, u64 now)
{
	u32 n = rmp_psn_sub(to, from), i;

	for (i = 0; i < n; i++) {
		struct rmp_sb_rec *rec = rmp_sb_rec(sb, rmp_psn_add(from, i));

		if (rec->state == RMP_SB_SENT)
			rmp_sb_delivered(sb, ps, rec, now);
		rmp_sb_found(sb, rec);
		rec->state = RMP_SB_NONE;
	}
}

/* Which PSNs in flight rmp_sb_scan() declares lost. */
enum rmp_sb_scan {
	RMP_SB_OVERTAKEN,	/* overtaken on their path, or overdue */
	RMP_SB_ON_PATH,		/* those on a given path (it died) */
	RMP_SB_ALL,		/* all sent before a time (timeouts) */
};

/*
 * Overtaken on its own path by a delivered packet sent well after it: by
 * the tolerance the QP learnt, or by %RMP_SB_REORDER and two of its
 * path's round trips late. A tolerance raised by reordering must not
 * leave a real loss to the ACK timeout, much later. A probe of the path's
 * home travels another route than the path's packets: none overtakes it.
 */
static bool rmp_sb_overtaken(const struct rmp_sb *sb,
			     const struct rmp_paths *ps,
			     const struct rmp_sb_rec *rec, u64 now)
{
	s32 behind = (s32)(sb->delivered[rec->path] - rec->stamp - 1);
	u64 srtt = ps->path[rec->path].rtt.srtt_ns;

	if (rec->probe == RMP_SB_PROBE_HOME)
		return false;
	if (behind >= (s32)sb->reorder)
		return true;
	return behind >= RMP_SB_REORDER && srtt &&
	       now - rec->sent_ns > 2 * srtt;
}

/*
 * When a PSN in flight becomes overdue (see the DOC above), 0 if it never
 * does as things stand: no round trip known for its path. With no packet
 * sent after it delivered yet, it is a tail: its first copy becomes
 * overdue after twice the wait, a copy sent again never; @tail says so.
 * A probe too: its PSN is data the QP waits for, and the round trip its
 * path had before it died is all a probe may take while others deliver.
 */
static u64 rmp_sb_due(const struct rmp_sb *sb, const struct rmp_paths *ps,
		      const struct rmp_sb_rec *rec, bool *tail)
{
	const struct rmp_path *p = &ps->path[rec->path];
	u64 srtt = p->rtt.srtt_ns, wait;

	*tail = (s32)(sb->delivered_seq - rec->seq) <= 1;
	if (!srtt || (*tail && rec->resent))
		return 0;
	wait = rmp_rtt_rto(&p->rtt) + srtt * sb->reorder / 4;
	return rec->sent_ns + (*tail ? 2 * wait : wait);
}

/*
 * Lose the PSNs in [@una, @end) still in flight that @how picks (for
 * %RMP_SB_ON_PATH, those on @path; for %RMP_SB_ALL, those sent before
 * @sent_before). Their paths are blamed, except with %RMP_SB_ALL, which
 * blames only the paths of PSNs sent before @blame_before (0: none), and
 * for tails overdue, which nothing shows lost rather than late.
 */
static u32 rmp_sb_scan(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
		       u32 end, u64 now, enum rmp_sb_scan how, u32 path,
		       u64 sent_before, u64 blame_before)
{
	u32 n = rmp_psn_sub(end, una), i, count = 0;
	bool lost, blame, tail;
	u64 due;

	if (n > sb->mask + 1)
		n = sb->mask + 1;
	if (how == RMP_SB_OVERTAKEN)
		sb->recheck_ns = 0;
	for (i = 0; i < n; i++) {
		struct rmp_sb_rec *rec = rmp_sb_rec(sb, rmp_psn_add(una, i));

		if (rec->state != RMP_SB_SENT)
			continue;
		blame = how != RMP_SB_ALL || rec->sent_ns < blame_before;
		if (how == RMP_SB_OVERTAKEN) {
			lost = rmp_sb_overtaken(sb, ps, rec, now);
			due = lost ? 0 : rmp_sb_due(sb, ps, rec, &tail);
			if (due && now >= due) {
				lost = true;
				blame = !tail;
				sb->stats.overdue++;
			} else if (due &&
				   (!sb->recheck_ns || due < sb->recheck_ns)) {
				sb->recheck_ns = due;
			}
		} else {
			lost = how == RMP_SB_ALL ?
			       rec->sent_ns < sent_before :
			       (rec->path == path &&
				rec->probe != RMP_SB_PROBE_HOME);
		}
		if (!lost)
			continue;
		rmp_sb_lose(sb, ps, rec, blame, now);
		rec->overtaken = how == RMP_SB_OVERTAKEN;
		count++;
	}
	return count;
}

/* The loss rules at work on the PSNs in flight: how many they found lost. */
static u32 rmp_sb_find_lost(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
			    u32 end, u64 now)
{
	u32 n = rmp_sb_scan(sb, ps, una, end, now, RMP_SB_OVERTAKEN, 0, 0, 0);

	sb->stats.lost += n;
	return n;
}

/**
 * rmp_sb_sack() - take in a selective acknowledgment
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN, after the SACK's cumulative part
 *	was acted on
 * @end: one past the highest PSN sent
 * @s: the SACK, decoded
 * @now: the time (ns)
 *
 * PSNs it reports held become %RMP_SB_SACKED; bits outside [@una, @end)
 * are ignored, so a forged or stale SACK claims nothing that was not
 * sent. Then every PSN still in flight that a loss rule finds overtaken
 * on its path or overdue is declared lost; &rmp_sb.recheck_ns says when
 * the next of the others becomes overdue.
 *
 * Return: the number of PSNs newly declared lost.
 */
u32 rmp_sb_sack(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end,
		const struct rmp_sack *s, u64 now)
{
	u32 span = rmp_psn_sub(end, una), i;

	sb->stats.sacks++;
	for (i = 0; i < s->nbits; i++) {
		u32 psn = rmp_psn_add(s->cum_ack, 2 + i);
		struct rmp_sb_rec *rec;

		if (!(s->bitmap[i / 64] >> (i % 64) & 1) ||
		    rmp_psn_sub(psn, una) >= span)
			continue;
		rec = rmp_sb_rec(sb, psn);
		if (rec->state == RMP_SB_SACKED)
			continue;
		if (rec->state == RMP_SB_SENT)
			rmp_sb_delivered(sb, ps, rec, now);
		rmp_sb_found(sb, rec);
		rec->state = RMP_SB_SACKED;
		sb->stats.sacked++;
	}
	return rmp_sb_find_lost(sb, ps, una, end, now);
}

/**
 * rmp_sb_recheck() - PSNs overtaken by later deliveries may be overdue
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN
 * @end: one past the highest PSN sent
 * @now: the time (ns)
 *
 * Call it at &rmp_sb.recheck_ns: the loss rules look at the PSNs in
 * flight again, as a SACK makes them do. Before that time it does nothing.
 *
 * Return: the number of PSNs newly declared lost.
 */
u32 rmp_sb_recheck(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end,
		   u64 now)
{
	if (!sb->recheck_ns || now < sb->recheck_ns)
		return 0;
	return rmp_sb_find_lost(sb, ps, una, end, now);
}

/**
 * rmp_sb_ecn() - take in an ECN echo: PSNs the receiver saw CE marked
 * @sb: scoreboard
 * @una: the oldest unacknowledged PSN, before the acknowledgment that
 *	carries the echo is acted on
 * @end: one past the highest PSN sent
 * @ce: the echo, decoded
 *
 * Each PSN it names that is in flight in [@una, @end) counts as CE marked
 * when it is delivered (rmp_paths_delivered()); call it before the
 * acknowledgment that carries it. Other PSNs are ignored, so a forged or
 * stale echo marks nothing that is not in flight.
 */
void rmp_sb_ecn(struct rmp_sb *sb, u32 una, u32 end,
		const struct rmp_ecn_echo *ce)
{
	u32 span = rmp_psn_sub(end, una), i;
	struct rmp_sb_rec *rec;
	u64 word;

	for (i = 0; i < RMP_ECN_ECHO_BITS; i += 64) {
		for (word = ce->bitmap[i / 64]; word; word &= word - 1) {
			u32 psn = rmp_psn_add(ce->base,
					      i + rmp_ctz64(word));

			if (rmp_psn_sub(psn, una) >= span)
				continue;
			rec = rmp_sb_rec(sb, psn);
			if (rec->state != RMP_SB_SENT || rec->ce)
				continue;
			rec->ce = true;
			sb->stats.ecn_echoed++;
		}
	}
}

/**
 * rmp_sb_path_dead() - a path died: what it carries is lost
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN
 * @end: one past the highest PSN sent
 * @path: the path
 * @now: the time (ns)
 *
 * Return: the number of PSNs newly declared lost, to be sent again on the
 * live paths.
 */
u32 rmp_sb_path_dead(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
		     u32 end, u32 path, u64 now)
{
	u32 n = rmp_sb_scan(sb, ps, una, end, now, RMP_SB_ON_PATH, path, 0,
			    0);

	sb->stats.dead_moved += n;
	return n;
}

/**
 * rmp_sb_timeout() - the ACK timeout expired: nothing in flight is trusted
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN
 * @end: one past the highest PSN sent
 *
 * Every PSN in flight is declared lost, without blaming its path: when
 * nothing at all is acknowledged for that long, the fault is not one
 * path's.
 *
 * Return: the number of PSNs newly declared lost.
 */
u32 rmp_sb_timeout(struct rmp_sb *sb, struct rmp_paths *ps, u32 una, u32 end)
{
	return rmp_sb_scan(sb, ps, una, end, 0, RMP_SB_ALL, 0, ~0ULL, 0);
}

/**
 * rmp_sb_ack_timeout() - the requester's ACK timeout expired
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN
 * @end: one past the highest PSN sent
 * @now: the time (ns)
 * @timeout: the ACK timeout (ns)
 *
 * Every PSN in flight sent at least @timeout ago is declared lost, as
 * rmp_sb_timeout() does for all of them; one sent since may still come,
 * queued behind its path's: the timer waits for the local ACK timeout or
 * the live paths' round trips, whichever is longer, and had it declared
 * everything lost while deliveries went on, every path with a few packets
 * queued would count three losses and die at once. A PSN sent less than
 * @timeout after the QP's last delivery counts against its path. With
 * few packets in flight (small credit windows), nothing else is in flight
 * to show a path silent, and a dead path would cost an ACK timeout each
 * time round-robin came to it. When the peer or the whole fabric stops,
 * the packets sent on after its last delivery count once, and what is
 * sent again after the timeout no more: one loss per path, which no path
 * dies of.
 *
 * Return: the number of PSNs newly declared lost.
 */
u32 rmp_sb_ack_timeout(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
		       u32 end, u64 now, u64 timeout)
{
	u64 before = ps->delivered_ns ? ps->delivered_ns + timeout : 0;

	if (now < timeout)
		return 0;
	return rmp_sb_scan(sb, ps, una, end, now, RMP_SB_ALL, 0,
			   now - timeout + 1, before);
}

/**
 * rmp_sb_probes_expired() - probes that went unanswered are lost
 * @sb: scoreboard
 * @ps: the QP's path set
 * @una: the oldest unacknowledged PSN
 * @end: one past the highest PSN sent
 * @now: the time (ns)
 * @timeout: how long a probe may take (ns)
 *
 * A probe travels on a dead path, alone: no later packet on its path can
 * show it lost, and waiting for the ACK timeout would stall the QP each
 * time. One not delivered within @timeout is declared lost (the path's
 * failed probes count it) and its PSN is sent again on a live path.
 *
 * Return: the number of probes declared lost.
 */
u32 rmp_sb_probes_expired(struct rmp_sb *sb, struct rmp_paths *ps, u32 una,
			  u32 end, u64 now, u64 timeout)
{
	u32 n = rmp_psn_sub(end, una), i, count = 0;
	u64 oldest = now;

	if (!sb->nprobes || now - sb->probe_sent_ns < timeout)
		return 0;
	if (n > sb->mask + 1)
		n = sb->mask + 1;
	for (i = 0; i < n && sb->nprobes; i++) {
		struct rmp_sb_rec *rec = rmp_sb_rec(sb, rmp_psn_add(una, i));

		if (rec->state != RMP_SB_SENT || !rec->probe)
			continue;
		if (now - rec->sent_ns < timeout) {
			if (rec->sent_ns < oldest)
				oldest = rec->sent_ns;
			continue;
		}
		rmp_sb_lose(sb, ps, rec, true, now);
		count++;
	}
	sb->probe_sent_ns = oldest;
	return count;
}

/**
 * rmp_sb_next_lost() - the oldest PSN due again
 * @sb: scoreboard
 * @una: the oldest unacknowledged PSN
 * @end: where to stop looking
 *
 * Return: the PSN, or -ENOENT if none in [@una, @end) is lost.
 */
int rmp_sb_next_lost(const struct rmp_sb *sb, u32 una, u32 end)
{
	u32 n = rmp_psn_sub(end, una), i;

	if (!sb->nlost)
		return -ENOENT;
	if (n > sb->mask + 1)
		n = sb->mask + 1;
	for (i = 0; i < n; i++) {
		u32 psn = rmp_psn_add(una, i);

		if (rmp_sb_rec(sb, psn)->state == RMP_SB_LOST)
			return (int)psn;
	}
	return -ENOENT;
}
