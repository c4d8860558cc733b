#!/bin/bash
# Data integrity on a faulty link, in the test guest:
#   tests/vm/run --timeout 1500 -- tests/suites/faults.sh
# rmp1 on h1 and rmp2 on h2 talk over a veth pair whose two ends run netem
# (loss, duplication, reordering, corruption). Every transfer must complete
# with every byte checked by the application (ibv_rc_pingpong -c, rping -V),
# and the counters must show that the fault happened and was repaired.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/../lib/hosts.sh
. "$here/../lib/hosts.sh"
# shellcheck source=SCRIPTDIR/../lib/rdma.sh
. "$here/../lib/rdma.sh"
limit=${FAULTS_TIMEOUT:-120}
rping_size=4096
work=/tmp/faults
mkdir -p "$work"

check "modprobe rdma_rmp" modprobe rdma_rmp
hosts_pair h1 h2
check "rmp1 on h1's eth0" rmp_on h1 rmp1 10.0.0.1
check "rmp2 on h2's eth0" rmp_on h2 rmp2 10.0.0.2
g1=$(gid_index rmp1 10.0.0.1)
g2=$(gid_index rmp2 10.0.0.2)
port=21000

# netem ARGS...: the same netem discipline on both ends of the link.
netem() {
	local ns
	for ns in h1 h2; do
		tc -n "$ns" qdisc replace dev eth0 root netem "$@" || return 1
	done
}

# sum NAME: a counter summed over both devices.
sum() {
	echo $(($(dev_counter rmp1 "$1") + $(dev_counter rmp2 "$1")))
}

# pingpong [strict]: 64 KiB RC round trips, each side checking its buffer
# when it leaves. ibv_rc_pingpong has no goodbye: a side leaves once its
# last SEND is acknowledged and its last RECV has arrived. If the ACK of the
# other side's last SEND is lost just then, that side retries against a QP
# that is gone and fails with "transport retry counter exceeded" for wr_id 2
# (its SEND), as it would on any RC link that loses packets: the right error
# completion, not a failed transfer. On a lossy link that one failure is
# accepted when the other side finished all 40; "strict" accepts nothing.
pingpong() {
	local o=$work/pingpong$port a b
	port=$((port + 1))
	run_pair "$limit" "$o" h1 "tcp:$port" h2 \
		-- ibv_rc_pingpong -d rmp1 -g "$g1" -p "$port" -s 65536 -n 40 -c \
		-- ibv_rc_pingpong -d rmp2 -g "$g2" -p "$port" -s 65536 -n 40 -c \
		10.0.0.1 >"$o.why" && return 0
	[ "${1:-}" = strict ] || for a in server client; do
		b=server
		[ $a = server ] && b=client
		if grep -q '^40 iters in' "$o.$a" &&
			[ "$(grep -c 'Failed status' "$o.$b")" = 1 ] &&
			grep -q 'transport retry counter exceeded (12) for wr_id 2$' \
				"$o.$b"; then
			echo "$b: last ACK lost at teardown (retry exceeded)"
			return 0
		fi
	done
	cat "$o.why"
	return 1
}

# srq_pingpong: ibv_srq_pingpong's 4 QPs on each side receiving from one
# SRQ, 20 round trips of 64 KiB each, received buffers checked (-c).
srq_pingpong() {
	local o=$work/srq$port
	port=$((port + 1))
	run_pair "$limit" "$o" h1 "tcp:$port" h2 \
		-- ibv_srq_pingpong -d rmp1 -g "$g1" -p "$port" -q 4 -s 65536 \
		-n 20 -c \
		-- ibv_srq_pingpong -d rmp2 -g "$g2" -p "$port" -q 4 -s 65536 \
		-n 20 -c 10.0.0.1 >"$o.why" && return 0
	cat "$o.why"
	return 1
}

# rping_verified: an rdma_cm connection and 20 verified pings of
# $rping_size bytes, each an RDMA READ and an RDMA WRITE of that size. The
# rping server has no count of its own: it serves until the client's
# disconnect request (DREQ) arrives. The client sends one and destroys its
# connection at once, which stops ib_cm from sending it again; if the link
# loses that one packet, the server waits for ever, as it would over any
# device. On a lossy link that outcome is accepted when the client finished
# (its 20 pings verified) and the server had served all 20.
rping_verified() {
	local o=$work/rping$port
	port=$((port + 1))
	run_pair "$limit" "$o" h1 "cm:$port" h2 \
		-- rping -s -v -a 10.0.0.1 -p "$port" -S "$rping_size" -C 20 -V \
		-- rping -c -a 10.0.0.1 -p "$port" -S "$rping_size" -C 20 -V \
		>"$o.why" && return 0
	if [ "$(head -n 1 "$o.why")" = "server timed out after ${limit}s" ] &&
		[ "$(grep -c '^server ping data: rdma-ping-' "$o.server")" = 20 ]; then
		echo "server: served 20 pings, the client's DREQ was lost"
		return 0
	fi
	cat "$o.why"
	return 1
}

# knob NAME VALUE: set a device knob on both devices.
knob() {
	in_ns h1 sh -c "echo $2 > /sys/class/infiniband/rmp1/rmp/$1" &&
		in_ns h2 sh -c "echo $2 > /sys/class/infiniband/rmp2/rmp/$1"
}

# moved NAME BEFORE: the counter NAME (summed) has grown past BEFORE.
moved() {
	local now
	now=$(sum "$1")
	[ "$now" -gt "$2" ] || { echo "$1 stayed at $now"; return 1; }
}

# fault DESC COUNTER NETEM...: both transfers under NETEM, then COUNTER
# must have moved (the repair happened).
fault() {
	local desc=$1 cnt=$2 before
	shift 2
	check "netem $*" netem "$@"
	before=$(sum "$cnt")
	check "ibv_rc_pingpong -c, 64 KiB x 40, $desc" pingpong
	# How long the round trips took, the figure loss repair moves (the
	# checks run in subshells: every pingpong's output is pingpong$port).
	sed -n "s/^40 iters in /# $desc: 40 round trips in /p" \
		"$work/pingpong$port.client"
	check "rping -V, 20 x $rping_size bytes, $desc" rping_verified
	check "$desc: $cnt counted" moved "$cnt" "$before"
}

fault "1% loss" tx_retransmits loss 1%
fault "5% loss" tx_retransmits loss 5%
fault "5% duplication" rx_dup_requests duplicate 5%
fault "25% reordering" rx_out_of_seq delay 2ms reorder 75% 50%
fault "1% corruption" rx_drop_icrc corrupt 1%
# netem corrupts the bytes in front of a packet's fragments only; with the
# payloads copied into the packets, the corruption hits them too.
check "zcopy off on both devices" knob zcopy off
fault "1% corruption, payloads copied" rx_drop_icrc corrupt 1%
check "zcopy on on both devices" knob zcopy on
tc -n h1 qdisc del dev eth0 root
tc -n h2 qdisc del dev eth0 root
check "clean link after the faults" pingpong strict

# Multipath: both devices spray their WRITEs over 8 UDP source ports. On
# one veth link the ports change nothing on the way, so the link's own
# reordering and loss are what the receiver's out-of-order placement and
# the sender's selective repair must handle; rping's 60000-byte WRITEs are
# sprayed, and so are the responses of its READs of that size (the
# requester places them in any order, asks again for the missing ones and
# reports what it received, by which the responder's paths live or die);
# the SENDs of both, ibv_rc_pingpong's of 64 KiB checked byte for byte,
# are sprayed too, in pieces each placed in its receive buffer; so are
# ibv_srq_pingpong's, to QPs that receive from an SRQ (each QP takes the
# SRQ's WQEs up to the one a piece ahead names, in order).
check "paths 8 on both devices" knob paths 8
rping_size=60000
sprayed=$(sum tx_sprayed)
read_sprayed=$(sum tx_read_sprayed)
read_reports=$(sum rx_read_reports)
sacks=$(sum rx_sacks)
fault "multipath, 25% reordering" rx_held delay 2ms reorder 75% 50%
sprayed_srq=$(sum tx_sprayed)
check "ibv_srq_pingpong -c, 4 QPs, 64 KiB x 20, multipath, 25% reordering" \
	srq_pingpong
check "multipath: SENDs to an SRQ sprayed" moved tx_sprayed "$sprayed_srq"
fault "multipath, 5% loss" tx_selective_retransmits loss 5%
check "multipath: packets sprayed" moved tx_sprayed "$sprayed"
check "multipath: READ responses sprayed" moved tx_read_sprayed \
	"$read_sprayed"
check "multipath: SACKs taken in" moved rx_sacks "$sacks"
check "multipath: READ reports taken in" moved rx_read_reports \
	"$read_reports"
for c in tx_sprayed rx_held rx_sacks tx_selective_retransmits \
	tx_read_sprayed rx_read_ooo tx_read_repairs tx_read_reports \
	rx_read_reports rx_bad_read_reports path_deaths tx_retransmits \
	ack_timeouts; do
	printf '# %s %s\n' "$c" "$(sum $c)"
done
tc -n h1 qdisc del dev eth0 root
tc -n h2 qdisc del dev eth0 root
check "multipath: clean link" pingpong strict
check "paths back to 1" knob paths 1

# Congestion marks: netem marks CE, as a congested switch would, a fifth
# of the ECN-capable packets (rmp's data packets are, knob ecn) and drops a
# fifth of the others. Each receiver answers marked packets with CNPs; with
# cc=dcqcn each sender cuts its rate. Data still arrives whole.
check "cc dcqcn on both devices" knob cc dcqcn
marked=$(sum rx_ecn_marked)
sent=$(sum tx_cnps)
cnps=$(sum rx_cnps)
cuts=$(sum cc_rate_cuts)
check "netem: a fifth CE-marked" netem loss 20% ecn
check "ibv_rc_pingpong -c, 64 KiB x 40, CE marks" pingpong strict
check "CE marks: rx_ecn_marked counted" moved rx_ecn_marked "$marked"
check "CE marks: CNPs sent" moved tx_cnps "$sent"
check "CE marks: CNPs received" moved rx_cnps "$cnps"
check "CE marks: rates cut" moved cc_rate_cuts "$cuts"
for c in rx_ecn_marked tx_cnps rx_cnps cc_rate_cuts cc_rate_raises \
	tx_retransmits; do
	printf '# %s %s\n' "$c" "$(sum $c)"
done
tc -n h1 qdisc del dev eth0 root
tc -n h2 qdisc del dev eth0 root
check "cc back to none" knob cc none
t_done
