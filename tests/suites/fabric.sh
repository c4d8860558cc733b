#!/bin/bash
# Multipath across a leaf-spine fabric, in the test guest:
#   tests/vm/run --timeout 1500 -- tests/suites/fabric.sh
# FABRIC_HOSTS senders behind one leaf, as many receivers behind the other,
# FABRIC_SPINES spines between them (tests/lib/fabric.sh), each spine link
# limited to FABRIC_RATE (tc's units, Mbit/s: e.g. 5mbit), every link's
# MTU FABRIC_MTU: the fabric's capacity, its bisection, is spines x rate.
# Measured, each figure printed and the issue's targets asserted with the
# margins below:
# - one QP (s1 to r1), one path (it hashes to one spine) and 8 under each
#   spraying policy;
# - FABRIC_HOSTS QPs at once, sN to rN, with 1 path once and 8 paths
#   (weighted) FABRIC_RUNS times: the aggregate, slowest and fastest flow;
# - one QP while one spine's delay keeps changing: the repairs it costs,
#   and verified transfers;
# - failover: one QP while a spine is blackholed, the time to detect it and
#   the goodput after; verified transfers while a spine is blackholed and
#   while its links are down;
# - interop: rmp (ext auto, 8 paths) and rxe, in the initial namespace
#   behind the receivers' leaf, across the same fabric, both ways.
# Goodput is what the senders' QPs saw acknowledged over a window in which
# every flow runs (tests/lib/goodput.sh). FABRIC_CC sets the cc knob of
# every device, and link_rate the share of the fabric a receiver grants
# under rcc: all of it for one QP, a FABRIC_HOSTS-th for many;
# FABRIC_KNOBS other knobs, "NAME=VALUE ...". FABRIC_CASES picks the
# cases, any of "one many delay blackhole failover interop" (default all).
# FABRIC_OP is the operation the flows of perftest carry: write (the
# default, ib_write_bw) or send (ib_send_bw). FABRIC_ONE_PATH_TIMEOUT is
# the local ACK timeout code of the one-path QP (default 16, 268 ms).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/../lib/hosts.sh
. "$here/../lib/hosts.sh"
# shellcheck source=SCRIPTDIR/../lib/rdma.sh
. "$here/../lib/rdma.sh"
# shellcheck source=SCRIPTDIR/../lib/fabric.sh
. "$here/../lib/fabric.sh"
# shellcheck source=SCRIPTDIR/../lib/goodput.sh
. "$here/../lib/goodput.sh"
spines=${FABRIC_SPINES:-4}
hosts=${FABRIC_HOSTS:-4}
rate=${FABRIC_RATE:-5mbit}
# Jumbo frames, as RoCE fabrics run: 4096-byte RDMA packets, whose headers
# take 2% of the links (with 1500, 1024-byte packets, 7%: goodput could
# not pass 0.93 of the capacity).
export FABRIC_MTU=${FABRIC_MTU:-9000}
runs=${FABRIC_RUNS:-2}
cc=${FABRIC_CC:-rcc}
# Credit windows of 7 packets whatever their size (the incast suite's 8
# KiB with 1098-byte packets; with 8 KiB of 4170-byte packets a QP waited
# on every grant, and its goodput fell to nothing once a spine was
# blackholed), and a burst of 8 KiB unscheduled (with 30 KiB, the QP on
# one path ran out of retries).
window_kib=$(($(fabric_packet) * 8 / 1098))
knobs=${FABRIC_KNOBS-rcc_unsched=8 rcc_window=$window_kib rcc_overcommit=2}
# perftest's -D; the goodput window runs from 2 s after the last flow
# started to seconds - 4 after the first did.
seconds=${FABRIC_SECONDS:-12}
[ "$seconds" -ge 10 ] || { echo "FABRIC_SECONDS: 10 at least" >&2; exit 2; }
capacity=$((spines * ${rate%mbit}))
limit=$((seconds + 60))
cases=${FABRIC_CASES:-one many delay blackhole failover interop}
op=${FABRIC_OP:-write}
one_path_timeout=${FABRIC_ONE_PATH_TIMEOUT:-16}
case $op in
write | send) ;;
*) echo "FABRIC_OP: write or send" >&2; exit 2 ;;
esac
work=${FABRIC_WORK:-/tmp/fabric}
mkdir -p "$work"
port=22000
declare -A gid
devs=()

# Targets (the issue's) and what is asserted here: a fraction of the
# capacity each, the margin left for an emulated guest on a shared host.
# One QP: 0.758 to 0.980 under weighted in the eight runs of December 6
# and 7 (the lowest with spine shares of 29%, 14%, 28% and 28%: its paths
# hashed unevenly, and weighted spraying moved too few packets off the
# spines with more of them).
one_qp_min=${FABRIC_ONE_QP_MIN:-0.70}       # target 0.90
many_min=${FABRIC_MANY_MIN:-0.80}           # target 0.95
fair_min=${FABRIC_FAIR_MIN:-0.75}           # target 0.90, slowest / fastest
recovered_min=${FABRIC_RECOVERED_MIN:-0.70} # target 0.90 of 3 spines

check "modprobe rdma_rmp" modprobe rdma_rmp
# Path changes are traced for the whole suite, turned on here while no
# traffic runs and off at the end: turning a trace event on or off
# patches kernel text, which waits for every CPU, and once (a CI run in
# December 2026) a guest stayed stuck in it with flows running, the
# write to the event's enable never returning. Nor does the tracer hook
# the scheduler to record command names (record-cmd 0): that is more
# text patched, in the hottest code, for names the suite does not read.
trace=/sys/kernel/tracing
# trace_paths 0|1: the rmp_path event off or on.
trace_paths() {
	echo "$1" >"$trace/events/rmp/rmp_path/enable"
}
check "no command names recorded in traces" \
	sh -c "echo 0 >$trace/options/record-cmd"
check "rmp_path traced" trace_paths 1
check "fabric: $spines spines at $rate, $hosts hosts a side" \
	fabric_up "$spines" "$hosts" "$rate"
for n in $(seq 1 "$hosts"); do
	for side in s r; do
		h=$side$n
		net=10.1.$n.2
		[ $side = s ] || net=10.2.$n.2
		check "rmp_$h on $h" rmp_on "$h" "rmp_$h" "$net"
		gid[$h]=$(gid_index "rmp_$h" "$net")
		devs+=("$h")
	done
done

# wanted CASE: CASE is one of FABRIC_CASES.
wanted() {
	case " $cases " in *" $1 "*) return 0 ;; esac
	return 1
}

# knob NAME VALUE: a knob of every rmp device.
knob() {
	knob_on_hosts "$1" "$2" "${devs[@]}"
}

# one_sprayed [POLICY]: the knobs of one QP sprayed over 8 paths by
# POLICY (default rr) and granted the whole fabric.
one_sprayed() {
	knob paths 8 && knob spray "${1:-rr}" && knob link_rate "$capacity"
}

# window PREFIX: the default measurement of flows (goodput_window).
window() {
	goodput_window "$1" "$seconds"
}

# flows N DESC [DURING]: N ib_write_bw (ib_send_bw) QPs at once, sk to rk
# (k = 1..N), 64 KiB WRITEs (SENDs) for $seconds s; once every client started, DURING PREFIX
# (default window) takes the acknowledged packets PREFIX.acked.0 and .1.
# The clients, which poll their CQs without rest, run at the lowest
# priority, as in the incast suite. QP_TIMEOUT, if set, is the QPs' local
# ACK timeout (perftest's -u, an IB timeout code; default 14, 67 ms).
# Sets MBPS[k] (goodputs), AGGREGATE, FLOW_MIN, FLOW_MAX (Mbit/s), FAIR
# (slowest / fastest), SPINES_USED (spines that carried at least a tenth
# of the bytes), SPRAYED and RESENT (the senders' packets sprayed and
# sent again), TIMEOUTS (their ACK timeouts) and REPORT (one line); fails, saying why (with what
# run_pair said of each pair that failed), unless every pair ended well
# with a goodput. The report also counts the senders'
# QPs that found their peer agreed to the extensions, and standard.
flows() {
	local n=$1 during=${3:-window} k o=$work/flows$port total=0 shares=''
	local why='' failed='' sprayed0 resent0 timeouts0 agreed0 standard0
	local -a before=() bytes=() pid=() clients=()
	sprayed0=$(counters_sum tx_sprayed "$n")
	resent0=$(counters_sum tx_retransmits "$n")
	timeouts0=$(counters_sum ack_timeouts "$n")
	agreed0=$(counters_sum ext_agreed "$n")
	standard0=$(counters_sum ext_standard "$n")
	for k in $(seq 1 "$spines"); do
		before[k]=$(fabric_spine_bytes "$k")
	done
	MBPS=()
	for k in $(seq 1 "$n"); do
		clients[k]=$o.s$k.client
		: >"${clients[k]}"
		run_pair "$limit" "$o.s$k" "r$k" "tcp:$((port + k))" "s$k" \
			-- "ib_${op}_bw" -d "rmp_r$k" -x "${gid[r$k]}" \
			-p $((port + k)) -F -s 65536 -D "$seconds" \
			${QP_TIMEOUT:+-u "$QP_TIMEOUT"} \
			-- nice -n 19 "ib_${op}_bw" -d "rmp_s$k" -x "${gid[s$k]}" \
			-p $((port + k)) -F -s 65536 -D "$seconds" "10.2.$k.2" \
			${QP_TIMEOUT:+-u "$QP_TIMEOUT"} \
			>"$o.s$k.why" &
		pid[k]=$!
	done
	port=$((port + n + 1))
	if all_started "$limit" "${clients[@]}"; then
		"$during" "$o"
	else
		why+="not every client started in $limit s; "
	fi
	for k in $(seq 1 "$n"); do
		wait "${pid[k]}" ||
			{ why+="s$k: $(head -n 1 "$o.s$k.why"); "; failed+=" $k"; }
	done
	goodputs "$o" "$n"
	for k in $(seq 1 "$n"); do
		[ -n "${MBPS[k]:-}" ] || why+="s$k: no goodput; "
	done
	for k in $(seq 1 "$spines"); do
		bytes[k]=$(($(fabric_spine_bytes "$k") - before[k]))
		total=$((total + bytes[k]))
	done
	SPINES_USED=0
	for k in $(seq 1 "$spines"); do
		shares+=" $((bytes[k] * 100 / (total ? total : 1)))%"
		[ $((bytes[k] * 10)) -lt "$total" ] ||
			SPINES_USED=$((SPINES_USED + 1))
	done
	SPRAYED=$(($(counters_sum tx_sprayed "$n") - sprayed0))
	RESENT=$(($(counters_sum tx_retransmits "$n") - resent0))
	TIMEOUTS=$(($(counters_sum ack_timeouts "$n") - timeouts0))
	read -r AGGREGATE FLOW_MIN FLOW_MAX FAIR <<<"$(printf '%s\n' "${MBPS[@]}" |
		awk 'NR == 1 { lo = hi = $1 } { s += $1; if ($1 < lo) lo = $1
			if ($1 > hi) hi = $1 }
			END { printf "%.2f %.2f %.2f %.3f", s, lo, hi, hi ? lo / hi : 0 }')"
	REPORT=$(printf '%s: %s Mbit/s of %s (%s), flows %s to %s (started within %s s), spine shares%s, %s sprayed, %s resent, %s ACK timeouts, ext %s agreed %s standard' \
		"$2" "$AGGREGATE" "$capacity" \
		"$(share "$AGGREGATE")" \
		"$FLOW_MIN" "$FLOW_MAX" "${SKEW:-?}" "$shares" "$SPRAYED" "$RESENT" \
		"$TIMEOUTS" \
		$(($(counters_sum ext_agreed "$n") - agreed0)) \
		$(($(counters_sum ext_standard "$n") - standard0)))
	[ -z "$why" ] || {
		echo "$why"
		# What run_pair said of each pair that failed: the first error
		# line and the tail of each side's output.
		for k in $failed; do
			cat "$o.s$k.why"
		done
		return 1
	}
}

# baseline DESC N PREFIX: flows N PREFIX as a reference figure, not a
# check. A QP on one path loses tails its credit let out onto a loaded
# spine, which only its ACK timer repairs (see the one-QP case), and can
# run out of retries: with the 268 ms timer, 4 QPs on one path each
# failed so once in about ten runs (December 2026). A failure is then
# reported, with why, and AGGREGATE left empty.
baseline() {
	local desc=$1 log=$work/baseline.log
	shift
	flows "$@" >"$log" 2>&1 && return 0
	AGGREGATE=
	echo "# $desc: no figure, a flow failed:"
	head -n 20 "$log" | sed 's/^/#   /'
}

# share MBIT [OF]: MBIT as a fraction of OF Mbit/s (default the capacity).
share() {
	awk -v a="$1" -v c="${2:-$capacity}" 'BEGIN { printf "%.3f", a / c }'
}

# report: what the last measurement said, as TAP comments.
report() {
	printf '%s\n' "$REPORT" | sed 's/^/# /'
}

# spine_fails K HOW [LEAF]: spine K fails HOW ("blackhole": every packet
# towards it silently dropped; "down": its links down, so the leaves
# route around it) or, with HOW "back", comes back; at LEAF's end of its
# links only, or at both leaves' (leafa's first).
spine_fails() {
	local leaf
	for leaf in ${3:-leafa leafb}; do
		case $2 in
		blackhole) tc -n $leaf qdisc replace dev "sp$1" root netem \
			loss 100% ;;
		down) ip -n $leaf link set dev "sp$1" down ;;
		back)
			ip -n $leaf link set dev "sp$1" up
			fabric_queue $leaf "sp$1" "$rate"
			;;
		esac
	done
}

# delay_varies: spine 1's delay moves between 0 and 8 ms every half
# second (the other spines add none), until killed.
delay_varies() {
	local d
	while :; do
		for d in 2ms 8ms 4ms 0ms 6ms 1ms; do
			fabric_spine_delay 1 "$d"
			sleep 0.5
		done
	done
}

# delay_varying CMD...: CMD while spine 1's delay varies (delay_varies);
# then its queue is put back. CMD's status.
delay_varying() {
	local job status
	delay_varies &
	job=$!
	"$@"
	status=$?
	kill "$job"
	wait "$job" 2>/dev/null
	spine_fails 1 back
	return $status
}

# varying_delay PREFIX: flows' window while spine 1's delay varies.
varying_delay() {
	delay_varying window "$1"
}

# blackhole_sampled PREFIX: during flows (one QP), spine 2 blackholed
# from 8 s to 12 s (a new QP's paths take a few seconds to settle on the
# spines: the balance epochs); meanwhile the packets s1 saw acknowledged
# sampled every 20 ms, "time packets" a line, into PREFIX.samples (no
# process started for a sample: the sampler takes next to no CPU from the
# guest's datapath); the clock as the senders' leaf starts to blackhole
# spine 2 into PREFIX.failed; the path changes traced into PREFIX.trace,
# that moment and the one the leaf's tc returned marked in it (the
# trace's clock is not the wall clock); SPINE2_BACK_SHARE, the percentage
# of the spines' bytes spine 2 carried in the last second or more, once
# back. The window is the whole sampling.
blackhole_sampled() {
	local sampler counter
	counter=$(acked_counter 1)
	rm -f "$1.stop" "$1.tick"
	echo >"$trace/trace"
	# A FIFO no one writes to: a read of it times out, a sleep that
	# starts no process.
	mkfifo "$1.tick"
	(exec {tick}<>"$1.tick"
	while [ ! -e "$1.stop" ]; do
		read -r n <"$counter"
		echo "$EPOCHREALTIME $n"
		read -r -t 0.02 -u "$tick" || :
	done >"$1.samples") &
	sampler=$!
	sleep 8
	# Marked before and after the data's way through spine 2 goes dark:
	# a tc command takes a third of a second to start in the emulated
	# guest, and paths may die before it returns.
	echo "$EPOCHREALTIME" >"$1.failed"
	echo "rmp-fabric blackhole" >"$trace/trace_marker"
	spine_fails 2 blackhole leafa
	echo "rmp-fabric blackhole set" >"$trace/trace_marker"
	spine_fails 2 blackhole leafb
	sleep 4
	spine_fails 2 back
	echo "rmp-fabric back" >"$trace/trace_marker"
	local k back_bytes=() back_total=0
	for k in $(seq 1 "$spines"); do
		back_bytes[k]=$(fabric_spine_bytes "$k")
	done
	sleep $((seconds - 16 > 1 ? seconds - 16 : 1))
	SPINE2_BACK_SHARE=0
	for k in $(seq 1 "$spines"); do
		back_bytes[k]=$(($(fabric_spine_bytes "$k") - back_bytes[k]))
		back_total=$((back_total + back_bytes[k]))
	done
	SPINE2_BACK_SHARE=$((back_bytes[2] * 100 / (back_total ? back_total : 1)))
	: >"$1.stop"
	wait "$sampler"
	cp "$trace/trace" "$1.trace"
	head -n 1 "$1.samples" | awk '{ print $1, $1; print 1, $2 }' >"$1.acked.0"
	tail -n 1 "$1.samples" | awk '{ print $1, $1; print 1, $2 }' >"$1.acked.1"
	FAILOVER_PREFIX=$1
}

# failover_figures PREFIX MTU: from blackhole_sampled's files, "before
# detect after set": the goodput over the 2 s before the blackhole
# (Mbit/s), the time from its start to rmp_s1's first path death after
# it (ms, by the trace's clock; paths also die of congestion), the
# goodput from 200 ms after that death for 1.5 s (Mbit/s), and the time
# from the leaf's tc returning to that death (ms, negative if before).
failover_figures() {
	local died failed set
	failed=$(grep 'tracing_mark_write: rmp-fabric blackhole$' "$1.trace" |
		sed -E 's/.* ([0-9]+\.[0-9]+): tracing_mark_write:.*/\1/')
	set=$(grep 'tracing_mark_write: rmp-fabric blackhole set' "$1.trace" |
		sed -E 's/.* ([0-9]+\.[0-9]+): tracing_mark_write:.*/\1/')
	died=$(grep 'rmp_s1 qpn .* died' "$1.trace" |
		sed -E 's/.* ([0-9]+\.[0-9]+): rmp_path:.*/\1/' |
		awk -v failed="${failed:-0}" '$1 > failed { print; exit }')
	[ -n "$failed" ] && [ -n "$died" ] && [ -n "$set" ] ||
		{ echo "none"; return 1; }
	awk -v died="$died" -v failed="$failed" -v set="$set" -v mtu="$2" '
		function mbit(a, b) { return (p[b] - p[a]) * mtu * 8 / (t[b] - t[a]) / 1e6 }
		FILENAME == ARGV[1] { t0 = $1; td = $1 + died - failed; next }
		{ n++; t[n] = $1; p[n] = $2 }
		END {
			for (i = 1; i <= n && t[i] < t0; i++) last = i
			for (i = 1; i <= n && t[i] < t0 - 2; i++) first = i
			for (i = 1; i <= n && t[i] < td + 0.2; i++) a = i + 1
			for (i = 1; i <= n && t[i] <= td + 1.7; i++) b = i
			if (!first || b <= a) { print "none"; exit 1 }
			printf "%.2f %d %.2f %d\n", mbit(first, last), (td - t0) * 1000,
				mbit(a, b), (died - set) * 1000 }' \
		"$1.failed" "$1.samples"
}

# rping_verified FROM TO ADDR COUNT: COUNT rping round trips of 60000 bytes
# between TO (the server, at ADDR, whose RDMA WRITEs are sprayed) and FROM,
# each checked (-V: rping fails on a mismatch). "" is the initial
# namespace.
rping_verified() {
	local o=$work/rping$port
	port=$((port + 1))
	run_pair "$limit" "$o" "$2" "cm:$port" "$1" \
		-- rping -s -a "$3" -p "$port" -S 60000 -C "$4" -V \
		-- rping -c -a "$3" -p "$port" -S 60000 -C "$4" -V \
		>"$o.why" || { cat "$o.why"; return 1; }
}

# failover HOW: 60 verified pings while spine 2 fails HOW for 3 s, then
# comes back. FAILOVER_DEATHS: the paths that died meanwhile, of the
# server's WRITEs (rmp_r1) and of the client's READ responses (rmp_s1).
failover() {
	local deaths sprayed job status start
	deaths=$(($(dev_counter rmp_r1 path_deaths) +
		$(dev_counter rmp_s1 path_deaths)))
	sprayed=$(dev_counter rmp_r1 tx_sprayed)
	start=$SECONDS
	echo >"$trace/trace"
	rping_verified s1 r1 10.2.1.2 60 &
	job=$!
	sleep 2
	spine_fails 2 "$1"
	sleep 3
	spine_fails 2 back
	wait "$job"
	status=$?
	FAILOVER_DEATHS=$(($(dev_counter rmp_r1 path_deaths) +
		$(dev_counter rmp_s1 path_deaths) - deaths))
	REPORT=$(printf '%s: %s s, %s packets sprayed, %s path deaths; traced:\n' \
		"$1" $((SECONDS - start)) \
		$(($(dev_counter rmp_r1 tx_sprayed) - sprayed)) "$FAILOVER_DEATHS"
		grep -oE 'rmp_[rs]1 qpn .*' "$trace/trace" | head -n 20)
	return $status
}

for kv in $knobs; do
	check "knob ${kv%%=*} ${kv#*=}" knob "${kv%%=*}" "${kv#*=}"
done
check "cc $cc on every device" knob cc "$cc"

if wanted one; then
	# One QP.
	check "link_rate $capacity on every device" knob link_rate "$capacity"
	check "paths 1" knob paths 1
	# A QP on one path loses the tail of what its credit let out on a
	# spine a quarter as fast as the credit (RED drops), and with nothing
	# after the loss to show it, only its ACK timer repairs it; the
	# go-back's burst loses the next tail. At perftest's 67 ms (the timer
	# follows the round trips, 15-45 ms here) it fired 59 to 90 times in
	# 12 s, and twice in a dozen runs the QP ran out of retries. 268 ms,
	# as a fabric with deep queues would set it: 4 times.
	QP_TIMEOUT=$one_path_timeout \
		baseline "one QP, one path (ACK timeout code $one_path_timeout)" \
		1 "one QP, paths=1"
	report
	one=${AGGREGATE:-0}
	check "paths 8" knob paths 8
	for policy in rr weighted flowlet; do
		check "spray $policy" knob spray "$policy"
		# 8 s more than one path: 8 paths leave a spine of 4 unused
		# in more than a third of the QPs, and the exploring that
		# finds it moves a path to a port that lands on it one time
		# in four, one a balance epoch (half a second here): the
		# seconds before it is found weigh less in a longer run.
		seconds=$((seconds + 8)) check_here "one QP, 8 paths, $policy" \
			flows 1 "one QP, paths=8 $policy"
		report
		printf '# one QP, paths=8 %s against paths=1: %s\n' "$policy" \
			"$(awk -v a="${AGGREGATE:-0}" -v b="$one" \
				'BEGIN { if (b) printf "%.2fx", a / b; else print "n/a (no baseline)" }')"
		case $policy in
		rr)
			# Round-robin puts the same share on every path; the
			# others may rightly leave a congested spine.
			check "one QP, paths=8 rr: every spine carried a tenth or more" \
				test "${SPINES_USED:-0}" = "$spines"
			;;
		weighted)
			# The target, asserted for the policy the tuning guide
			# gives a fabric: rr's goodput hangs on how evenly its
			# paths hash onto the spines until the balance epochs
			# even them out (0.46 to 0.99 in runs of December
			# 2026), flowlet's on finding every spine (0.68 once,
			# with a spine unused).
			check "one QP, paths=8 weighted: goodput $(share "${AGGREGATE:-0}") of the capacity, $one_qp_min at least" \
				at_least "$(share "${AGGREGATE:-0}")" "$one_qp_min"
			;;
		esac
	done
fi

if wanted many; then
	# Many flows: each receiver grants its share of the fabric, so a
	# flow held back on a loaded spine is not made up for by the others.
	# Not round-robin: each QP's 8 paths hash unevenly onto the spines,
	# the QPs' excess piles up on some, and rr keeps its share on them
	# (aggregate 0.84, slowest/fastest 0.58 in a run on 2026-12-06;
	# flowlet 0.70 and 0.78); weighted moves packets off the marked paths
	# (0.95 and 0.93, slowest/fastest 0.92 and 0.85).
	check "spray weighted" knob spray weighted
	check "link_rate $((capacity / hosts)) on every device" \
		knob link_rate $((capacity / hosts))
	# paths=1 is the baseline, a figure only (see baseline()): one run
	# of it, with the one-path ACK timeout (see the one-QP case).
	for p in 1 8; do
		check "paths $p" knob paths "$p"
		n=$runs timeout=
		[ "$p" = 8 ] || n=1 timeout=$one_path_timeout
		for r in $(seq 1 "$n"); do
			if [ "$p" = 1 ]; then
				QP_TIMEOUT=$timeout baseline \
					"$hosts QPs at once, paths=1" \
					"$hosts" "$hosts QPs, paths=1 run $r"
				report
				continue
			fi
			check_here "$hosts QPs at once, paths=$p, run $r" \
				flows "$hosts" "$hosts QPs, paths=$p run $r"
			report
			check "$hosts QPs, paths=8 run $r: aggregate $(share "${AGGREGATE:-0}") of the capacity, $many_min at least" \
				at_least "$(share "${AGGREGATE:-0}")" "$many_min"
			check "$hosts QPs, paths=8 run $r: slowest/fastest flow ${FAIR:-0}, $fair_min at least" \
				at_least "${FAIR:-0}" "$fair_min"
		done
	done
fi

if wanted delay; then
	# Reordering: spine 1's delay varies under one QP on 8 paths.
	check "8 paths, rr, link_rate $capacity" one_sprayed
	check_here "one QP, 8 paths, spine 1's delay varying" \
		flows 1 "one QP, paths=8 rr, spine 1 delay 0-8 ms" varying_delay
	report
	check "delay varying: resent ${RESENT:-?} of ${SPRAYED:-?} sprayed, a tenth at most" \
		test $((${RESENT:-1} * 10)) -le "${SPRAYED:-0}"
	check_here "delay varying: 60 verified pings, in order" \
		delay_varying rping_verified s1 r1 10.2.1.2 60
fi

if wanted blackhole; then
	# Failover, measured. Not round-robin: it gives every path an
	# eighth, and 8 paths on the 3 spines left are 3, 3 and 2 at best,
	# so the spines with 3 set the pace and the QP gets 8/9 of what is
	# left at most, under the 0.9 target; weighted spraying shifts
	# packets, not paths, off the loaded spines.
	check "8 paths, weighted, link_rate $capacity" one_sprayed weighted
	# 8 s more than the others: the paths settle before the blackhole,
	# and spine 2's return takes the balance epochs of a few seconds to
	# show.
	seconds=$((seconds + 8)) check_here "one QP, 8 paths, spine 2 blackholed for 4 s" \
		flows 1 "one QP, paths=8 weighted, spine 2 blackholed" blackhole_sampled
	report
	mtu=$(grep -o 'Mtu *: *[0-9]*' "${FAILOVER_PREFIX:-none}.s1.client" 2>/dev/null |
		grep -o '[0-9]*$')
	# (No process substitution: the guest's /dev has no /dev/fd.)
	figures=$(failover_figures "${FAILOVER_PREFIX:-none}" "${mtu:-1024}")
	if [ "$figures" != none ] &&
		read -r before detect after set <<<"$figures"; then
		left=$(((spines - 1) * ${rate%mbit}))
		printf '# blackhole: %s Mbit/s before, detected in %s ms (%s ms after tc on leafa returned), %s Mbit/s from 200 ms after: %s of the %s Mbit/s left\n' \
			"$before" "$detect" "$set" "$after" "$(share "$after" "$left")" "$left"
		check "blackhole: goodput from 200 ms after detection $(share "$after" "$left") of the spines left, $recovered_min at least" \
			at_least "$(share "$after" "$left")" "$recovered_min"
	else
		t_not_ok "blackhole: the detection and the goodput after it measured"
	fi
	# Path revivals alone would not show it: paths also die of congestion and
	# come back all along.
	check "blackhole: spine 2 carried ${SPINE2_BACK_SHARE:-0}% of the bytes once back, 10% at least" \
		test "${SPINE2_BACK_SHARE:-0}" -ge 10
fi

if wanted failover; then
	# Failover, verified.
	check "8 paths, rr, link_rate $capacity" one_sprayed
	check_here "failover: spine 2 blackholed, 60 pings verified" \
		failover blackhole
	report
	check "a blackholed spine's paths died (${FAILOVER_DEATHS:-0})" \
		test "${FAILOVER_DEATHS:-0}" -gt 0
	check_here "failover: spine 2 down, 60 pings verified" failover down
	report
fi

if wanted interop; then
	# Interop: rxe behind leafb, rmp_s1 with ext auto and 8 paths.
	check "8 paths, rr, link_rate $capacity" one_sprayed
	check "the initial namespace a host behind leafb" fabric_init_host leafb 10.2.9
	check "rxe0 on fab0" rxe_on fab0 rxe0 10.2.9.2
	check "ext auto" knob ext auto
	standard=$(dev_counter rmp_s1 ext_standard)
	sprayed=$(dev_counter rmp_s1 tx_sprayed)
	sacks=$(dev_counter rmp_s1 rx_sacks)
	# rxe marks no packet ECN-capable, so the spines' RED queues drop
	# its packets where they mark rmp's, and a loss at the end of a
	# 60000-byte transfer waits for the ACK timeout rdma_cm sets (about
	# half a second), on either side: about 4 s a round trip here, and
	# 8 of them fit the time limit with room to spare.
	check_here "rmp_s1 to rxe0 (the server) across the fabric, 8 pings verified" \
		rping_verified s1 '' 10.2.9.2 8
	check_here "rxe0 to rmp_s1 (the server) across the fabric, 8 pings verified" \
		rping_verified '' s1 10.1.1.2 8
	check "rmp_s1 found rxe0 a standard peer" \
		counter_above rmp_s1 ext_standard "$standard"
	check "rmp_s1 sprayed nothing and took no SACK towards rxe0" \
		test "$(dev_counter rmp_s1 tx_sprayed)" = "$sprayed" -a \
		"$(dev_counter rmp_s1 rx_sacks)" = "$sacks"
fi
check "rmp_path no longer traced" trace_paths 0
t_done
