#!/bin/bash
# Multipath across a leaf-spine fabric, in the test guest:
#   tests/vm/run --timeout 1500 -- tests/suites/fabric.sh
# One sender behind one leaf, one receiver behind the other, SPINES spines
# between them (tests/lib/fabric.sh), each spine link limited to
# FABRIC_RATE (tc's units, Mbit/s: e.g. 10mbit). One ib_write_bw QP, first
# with one path (it hashes to one spine), then with 8, under each spraying
# policy: the goodput, the share of the bytes each spine carried, and the
# repairs are printed. FABRIC_CC sets the cc knob of both devices (default
# none), with link_rate the spines' sum: the receiver's share of the
# fabric, which credit (rcc) or DCQCN keep the sender to.
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
spines=${FABRIC_SPINES:-4}
rate=${FABRIC_RATE:-10mbit}
seconds=${FABRIC_SECONDS:-5}
cc=${FABRIC_CC:-none}
limit=$((seconds + 60))
work=/tmp/fabric
mkdir -p "$work"
port=22000

check "modprobe rdma_rmp" modprobe rdma_rmp
check "fabric: $spines spines at $rate" fabric_up "$spines" 1 "$rate"
check "rmp_s1 on s1" rmp_on s1 rmp_s1 10.1.1.2
check "rmp_r1 on r1" rmp_on r1 rmp_r1 10.2.1.2
sgid=$(gid_index rmp_s1 10.1.1.2)
rgid=$(gid_index rmp_r1 10.2.1.2)

# knob NAME VALUE: a multipath knob of both devices.
knob() {
	in_ns s1 sh -c "echo $2 > /sys/class/infiniband/rmp_s1/rmp/$1" &&
		in_ns r1 sh -c "echo $2 > /sys/class/infiniband/rmp_r1/rmp/$1"
}

# write_bw DESC: one ib_write_bw QP from s1 to r1 for $seconds s, 64 KiB
# messages; sets GOODPUT (Mbit/s), SPINES_USED (spines that carried at
# least a tenth of the bytes) and REPORT (those, each spine's share of the
# bytes and the sender's repairs, one line).
write_bw() {
	local o=$work/bw$port k total=0 line shares='' used=0
	local -a before=() bytes=()
	local retrans sel
	retrans=$(dev_counter rmp_s1 tx_retransmits)
	sel=$(dev_counter rmp_s1 tx_selective_retransmits)
	for k in $(seq 1 "$spines"); do
		before[k]=$(fabric_spine_bytes "$k")
	done
	port=$((port + 1))
	run_pair "$limit" "$o" r1 "tcp:$port" s1 \
		-- ib_write_bw -d rmp_r1 -x "$rgid" -p "$port" -F -s 65536 \
		-D "$seconds" --report_gbits \
		-- ib_write_bw -d rmp_s1 -x "$sgid" -p "$port" -F -s 65536 \
		-D "$seconds" --report_gbits 10.2.1.2 || return 1
	line=$(perftest_result "$o.client") || { echo "no result"; return 1; }
	# 65536 iterations peak average msgrate: Gb/s, 10^9 bits.
	GOODPUT=$(echo "$line" | awk '{ printf "%d", $4 * 1000 }')
	for k in $(seq 1 "$spines"); do
		bytes[k]=$(($(fabric_spine_bytes "$k") - before[k]))
		total=$((total + bytes[k]))
	done
	for k in $(seq 1 "$spines"); do
		shares+=" $((bytes[k] * 100 / (total ? total : 1)))%"
		[ $((bytes[k] * 10)) -lt "$total" ] || used=$((used + 1))
	done
	SPINES_USED=$used
	retrans=$(($(dev_counter rmp_s1 tx_retransmits) - retrans))
	sel=$(($(dev_counter rmp_s1 tx_selective_retransmits) - sel))
	REPORT=$(printf '%s: %s Mbit/s, spine shares%s, %s resent (%s selectively)' \
		"$1" "$GOODPUT" "$shares" "$retrans" "$sel")
}

# rping_verified COUNT: COUNT rping round trips of 60000 bytes between r1
# (the server, whose RDMA WRITEs are sprayed) and s1, each checked (-V:
# rping fails on a mismatch).
rping_verified() {
	local o=$work/rping$port
	port=$((port + 1))
	run_pair "$limit" "$o" r1 "cm:$port" s1 \
		-- rping -s -a 10.2.1.2 -p "$port" -S 60000 -C "$1" -V \
		-- rping -c -a 10.2.1.2 -p "$port" -S 60000 -C "$1" -V \
		>"$o.why" || { cat "$o.why"; return 1; }
}

# failover HOW: a verified transfer while spine 2 fails HOW ("blackhole":
# every packet towards it silently dropped; "down": its links down, so
# the leaves route around it), then comes back.
failover() {
	local trace=/sys/kernel/tracing deaths sprayed job status start leaf
	deaths=$(dev_counter rmp_r1 path_deaths)
	sprayed=$(dev_counter rmp_r1 tx_sprayed)
	start=$SECONDS
	echo 1 >"$trace/events/rmp/rmp_path/enable"
	echo >"$trace/trace"
	rping_verified 60 &
	job=$!
	sleep 2
	for leaf in leafa leafb; do
		case $1 in
		blackhole) tc -n $leaf qdisc replace dev sp2 root netem \
			loss 100% ;;
		down) ip -n $leaf link set dev sp2 down ;;
		esac
	done
	sleep 3
	for leaf in leafa leafb; do
		case $1 in
		blackhole) tc -n $leaf qdisc replace dev sp2 root tbf \
			rate "$rate" burst 4kb limit 32kb ;;
		down) ip -n $leaf link set dev sp2 up ;;
		esac
	done
	wait "$job"
	status=$?
	echo 0 >"$trace/events/rmp/rmp_path/enable"
	REPORT=$(printf '%s: %s s, %s packets sprayed, %s path deaths; traced:\n' \
		"$1" $((SECONDS - start)) \
		$(($(dev_counter rmp_r1 tx_sprayed) - sprayed)) \
		$(($(dev_counter rmp_r1 path_deaths) - deaths))
		grep -o 'rmp_r1 qpn .*' "$trace/trace" | head -n 20)
	return $status
}

# report: what the last measurement said, as TAP comments.
report() {
	printf '%s\n' "$REPORT" | sed 's/^/# /'
}

check "link_rate $((spines * ${rate%mbit})) on both devices" \
	knob link_rate $((spines * ${rate%mbit}))
check "cc $cc on both devices" knob cc "$cc"
check "paths 1" knob paths 1
check_here "one QP, one path" write_bw "paths=1"
report
one=${GOODPUT:-0}
check "paths 8" knob paths 8
for policy in rr weighted flowlet; do
	check "spray $policy" knob spray "$policy"
	check_here "one QP, 8 paths, $policy" write_bw "paths=8 spray=$policy"
	report
	# Round-robin puts the same share on every path; the others may
	# rightly leave a congested spine.
	[ "$policy" != rr ] ||
		check "paths=8 spray=rr: every spine carried a tenth or more" \
			test "${SPINES_USED:-0}" = "$spines"
	printf '# paths=8 spray=%s against paths=1: %s\n' "$policy" \
		"$(awk -v a="${GOODPUT:-0}" -v b="$one" \
			'BEGIN { printf "%.2fx", b ? a / b : 0 }')"
done
check "spray rr" knob spray rr
check_here "failover: spine 2 blackholed, 60 pings verified" \
	failover blackhole
report
check "a blackholed spine's paths died" \
	counter_above rmp_r1 path_deaths 0
check_here "failover: spine 2 down, 60 pings verified" failover down
report
t_done
