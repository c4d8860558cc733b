// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: read response paths
 *
 * A responder that sprays READ responses (read spraying) owns their
 * paths, as a requester owns those of its WRITEs, and needs the same
 * feedback to tell a dead path from an unlucky one. Between peers that
 * agreed to it, the requester reports the responses it received: a SACK
 * block of its window of READ responses (cumulative part: everything
 * before its oldest unacknowledged PSN), sent every
 * %RMP_REQ_RD_REPORT_EVERY responses, when a repair sweep begins and
 * when its sprayed READs are all answered. The responder runs the
 * requester's machinery on it: a scoreboard of the responses in flight
 * and the path set they were sprayed over (engine/scoreboard.c,
 * engine/paths.c).
 *
 * Three things say a path loses. A response overtaken on its own path by
 * one sent %RMP_SB_REORDER places later that was reported delivered is
 * lost. A response the requester asks for again (a repair names it)
 * while its first copy is still in flight, and before the highest
 * response a report showed received, is lost on the path that copy took:
 * the requester asks for a hole only once later responses came and the
 * reordering time passed. One at or past that highest, it asks for
 * blindly: the rest of a READ whose last responses may be lost, or the
 * READ again after an ACK timeout; on a slow host (a debug kernel under
 * TCG) the rest of a READ is asked for while it is merely on its way, so
 * its first copies are forgotten, blaming no path (each path would
 * otherwise count a third of them lost, and die). (The requester reports
 * as a repair begins, ahead of the repair.) And a live path that
 * delivers nothing for &rmp_paths_cfg.dead_after_ns while others deliver
 * is dead (silent). Losses in a row kill a path too; a report of a
 * delivery resets them. A dead path
 * carries only a probe, the next response sent for the first time once
 * every &rmp_paths_cfg.probe_every_ns, and a report of the probe's
 * delivery brings it back; failed probes (asked for again) replace its
 * entropy. Nothing is sent again because of a report: repair stays the
 * requester's, so a report, genuine or forged, never makes the responder
 * send anything.
 *
 * Silence is timed by the responses' send times, never by when reports
 * come. Reports come late and in batches: behind the responder's own
 * batches of responses, after a slow requester's run, or not at all for
 * a while; a clock started at one report and read at the next (the path
 * set's own rule, right for the SACKs of WRITEs) makes their lateness the
 * paths' silence, and a report that covers a few responses on one path
 * after a long gap would kill all the others. Instead a path is silent
 * when a report shows delivered a response sent at least dead_after_ns
 * after one that is still in flight on the path, sent after the path's
 * newest delivery: the requester got a later response, on another path,
 * and nothing this one carried since (a response sent more than once
 * dates nothing: it may have come by its first copy). That is the path
 * set's rule with the requester's clock read through the responder's
 * send times; a late report only brings the same evidence later. Reports that stop coming
 * show nothing of any path, so no path dies for them (the transport's
 * timeouts deal with a peer gone); silence is judged when a report is
 * taken, and only then.
 *
 * A report is checked against what the responder knows: its cumulative
 * part may not be older than one already taken (stale) nor claim a PSN
 * the responder has not taken yet (forged), and only the responses in
 * flight change state. The scoreboard covers at most its size of PSNs:
 * responses that would not fit (reports lost for long) are forgotten,
 * blaming no path. Times come from the caller, the path set is ticked
 * when a report comes in and when its deadline has passed at a send;
 * nothing here allocates.
 */
#include "rdpaths.h"

/**
 * rmp_rdp_init() - start watching a responder's READ response paths
 * @d: the responder's read response paths
 * @ps: the path set, set up (rmp_paths_init()), owned by the caller
 * @sb: an empty scoreboard (rmp_sb_init()), owned by the caller
 * @psn: the responder's expected PSN: responses come from there on
 *
 * Return: 0, or -EINVAL for a missing path set or scoreboard.
 */
int rmp_rdp_init(struct rmp_rdp *d, struct rmp_paths *ps, struct rmp_sb *sb,
		 u32 psn)
{
	psn = rmp_psn_mask(psn);
	if (!ps || !sb)
		return -EINVAL;
	*d = (struct rmp_rdp) {
		.ps = ps, .sb = sb, .una = psn, .end = psn, .reported = psn,
		.seen = psn,
	};
	return 0;
}

/*
 * The oldest response not known delivered moves to @to: those before it
 * were delivered (@delivered, a report's cumulative part) or are
 * forgotten.
 */
static void rmp_rdp_advance(struct rmp_rdp *d, u32 to, bool delivered,
			    u64 now)
{
	u32 nrec = d->sb->mask + 1, upto = to, from = d->una;

	if (rmp_psn_sub(to, d->una) > rmp_psn_sub(d->end, d->una))
		upto = d->end;
	/* Each record once: the last nrec PSNs cover every slot. */
	if (rmp_psn_sub(upto, from) > nrec)
		from = rmp_psn_sub(upto, nrec);
	if (!delivered)
		rmp_sb_timeout(d->sb, d->ps, from, upto);
	rmp_sb_acked(d->sb, d->ps, from, upto, now);
	d->una = to;
	if (upto != to)
		d->end = to;
}

/* The responses in flight on paths that just died are lost. */
static void rmp_rdp_deaths(struct rmp_rdp *d, u64 was_live, u64 now)
{
	u64 died = was_live & ~d->ps->live_mask;
	u32 i;

	for (i = 0; died; i++, died >>= 1)
		if (died & 1)
			rmp_sb_path_dead(d->sb, d->ps, d->una, d->end, i, now);
}

/*
 * The silent paths die (see the DOC: block): a live path with a response
 * in flight sent after its newest delivery, and dead_after_ns or more
 * before the newest response any report showed delivered.
 */
static void rmp_rdp_silence(struct rmp_rdp *d, u64 now)
{
	const struct rmp_sb *sb = d->sb;
	u64 newest = sb->delivered_sent_ns, silent = 0;
	u32 n = rmp_psn_sub(d->end, d->una), i;
	const struct rmp_sb_rec *rec;

	if (n > sb->mask + 1)
		n = sb->mask + 1;
	for (i = 0; i < n; i++) {
		rec = &sb->rec[rmp_psn_add(d->una, i) & sb->mask];
		if (rec->state == RMP_SB_SENT &&
		    (s32)(rec->stamp - sb->delivered[rec->path]) >= 0 &&
		    newest >= rec->sent_ns &&
		    newest - rec->sent_ns >= d->ps->cfg.dead_after_ns)
			silent |= 1ULL << rec->path;
	}
	silent &= d->ps->live_mask;
	for (i = 0; silent; i++, silent >>= 1)
		if (silent & 1)
			rmp_paths_silent_kill(d->ps, i, now);
}

/*
 * Act on time: what the paths that died since @was_live carried is lost,
 * dead ones come due for a probe; then the next deadline.
 */
static void rmp_rdp_tick(struct rmp_rdp *d, u64 was_live, u64 now)
{
	rmp_paths_tick(d->ps, now);
	rmp_rdp_deaths(d, was_live, now);
	d->probes |= rmp_paths_probes_due(d->ps, now);
	d->next_tick = rmp_paths_deadline(d->ps);
}

/**
 * rmp_rdp_pick() - the path of a sprayed READ response
 * @d: the responder's read response paths
 * @psn: the response's PSN
 * @len: its payload (bytes)
 * @now: the time (ns)
 *
 * A response sent for the first time takes a dead path due a probe (one
 * each), or the next live one round-robin; one sent again (a repair asked
 * for it) takes a live one, and its first copy, if still in flight,
 * counts lost on its path if a report showed a later response received,
 * else is forgotten. Ticks the path set if its deadline has passed.
 *
 * Return: the index of the path in &rmp_rdp.ps.
 */
u32 rmp_rdp_pick(struct rmp_rdp *d, u32 psn, u32 len, u64 now)
{
	u32 nrec = d->sb->mask + 1, path;
	enum rmp_sb_state state;
	int probe = -ENOENT;
	u64 live;

	psn = rmp_psn_mask(psn);
	if (d->next_tick && now >= d->next_tick)
		rmp_rdp_tick(d, d->ps->live_mask, now);
	/* Before the reports' cumulative part: nothing to learn from it. */
	if (rmp_psn_before(psn, d->una))
		return rmp_paths_pick(d->ps, now);
	if (rmp_psn_sub(psn, d->una) >= nrec)
		rmp_rdp_advance(d, rmp_psn_sub(psn, nrec - 1), false, now);
	if (!rmp_psn_before(psn, d->end))
		state = RMP_SB_NONE;
	else
		state = rmp_sb_state(d->sb, psn);
	if (state == RMP_SB_SENT && !rmp_psn_before(psn, d->seen)) {
		/* Asked for blindly: no evidence against its path. */
		rmp_sb_timeout(d->sb, d->ps, psn, rmp_psn_add(psn, 1));
		state = RMP_SB_LOST;
		d->stats.blind++;
	}
	if (state == RMP_SB_NONE)
		probe = rmp_paths_take_probe(d->ps, &d->probes);
	path = probe >= 0 ? (u32)probe : rmp_paths_pick(d->ps, now);
	if (state == RMP_SB_SENT)
		d->stats.again++;
	live = d->ps->live_mask;
	rmp_sb_sent(d->sb, d->ps, psn, len, path,
		    probe >= 0 ? RMP_SB_PROBE_DEAD : RMP_SB_NO_PROBE, now);
	if (!rmp_psn_before(psn, d->end))
		d->end = rmp_psn_add(psn, 1);
	if (live != d->ps->live_mask) {
		rmp_rdp_deaths(d, live, now);
		d->next_tick = rmp_paths_deadline(d->ps);
	}
	return path;
}

/**
 * rmp_rdp_report() - take in a requester's report of READ responses
 * @d: the responder's read response paths
 * @s: the report's SACK block, decoded (rmp_sack_decode())
 * @epsn: the responder's expected PSN: it took nothing from there on
 * @now: the time (ns)
 *
 * The responses before @s->cum_ack + 1, and those its bitmap holds, are
 * delivered; those overtaken on their path by a delivered one are lost;
 * silent paths die (see the DOC: block); the path set is ticked with the
 * news.
 *
 * A report may lag behind responses forgotten to make room (its
 * cumulative part before &rmp_rdp.una, but not before the last one
 * taken): only what it says of those still watched counts.
 *
 * Return: 0; -ESTALE, and nothing changes, if its cumulative part is
 * older than one taken; -EINVAL, and nothing changes, if it claims a PSN
 * at or after @epsn.
 */
int rmp_rdp_report(struct rmp_rdp *d, const struct rmp_sack *s, u32 epsn,
		   u64 now)
{
	u32 next = rmp_psn_add(s->cum_ack, 1);
	u32 span = rmp_psn_sub(epsn, d->reported);
	u64 live;

	if (rmp_psn_before(next, d->reported)) {
		d->stats.stale++;
		return -ESTALE;
	}
	if (rmp_psn_sub(next, d->reported) > span ||
	    rmp_psn_sub(rmp_psn_add(s->highest, 1), d->reported) > span ||
	    rmp_psn_before(s->highest, s->cum_ack)) {
		d->stats.forged++;
		return -EINVAL;
	}
	d->stats.reports++;
	d->reported = next;
	if (!rmp_psn_before(s->highest, d->seen))
		d->seen = rmp_psn_add(s->highest, 1);
	live = d->ps->live_mask;
	if (rmp_psn_after(next, d->una))
		rmp_rdp_advance(d, next, true, now);
	rmp_sb_sack(d->sb, d->ps, d->una, d->end, s, now);
	rmp_rdp_silence(d, now);
	rmp_rdp_tick(d, live, now);
	return 0;
}
