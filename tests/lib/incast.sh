# shellcheck shell=bash
# An incast of network namespaces for rmp's congestion suites: many
# senders into one receiver through one rate-limited port. Needs hosts.sh
# and fabric.sh (fabric_host) sourced first.
#
#   s1 (10.1.1.2) ---\
#   ...               sw ==bottleneck==> r1 (10.2.1.2)
#   sN (10.1.N.2) ---/
#   p1 (10.3.1.2) --/
#
# Each host hangs off the router sw on a /24 of its own, its default
# route through sw. sw's port towards r1 is the bottleneck: htb holds it
# to a rate, and a RED queue behind it marks ECN-capable packets CE as it
# builds, like a datacenter switch, and drops only what is not
# ECN-capable, or what finds it full; control packets take a
# strict-priority queue ahead of it. p1 is a host of its own for a
# latency probe that crosses the bottleneck beside the senders' flows.
#
# Every host also has eth1 on a bridge of its own (namespace oob,
# 10.9.0.0/24: r1 at .1, sN at .(10 + N), p1 at .20): the out-of-band
# network that perftest's TCP exchange takes, so that setting up and
# ending a run does not queue behind the load it measures.

# incast_up SENDERS: the incast with SENDERS senders, p1 and r1, all
# reachable through sw and over oob.
incast_up() {
	local n
	ip netns add sw
	ip -n sw link set lo up
	ip netns exec sw sysctl -qw net.ipv4.ip_forward=1
	ip netns add oob
	ip -n oob link add br0 type bridge
	ip -n oob link set br0 up
	for n in $(seq 1 "$1"); do
		fabric_host "s$n" sw "10.1.$n"
		incast_pin "s$n" "10.1.$n"
		incast_oob "s$n" "10.9.0.$((10 + n))"
	done
	fabric_host p1 sw 10.3.1
	incast_pin p1 10.3.1
	incast_oob p1 10.9.0.20
	fabric_host r1 sw 10.2.1
	incast_pin r1 10.2.1
	incast_oob r1 10.9.0.1
}

# incast_pin NS NET: permanent neighbour entries both ways on NS's link
# to sw (NET.1 on NS's eth0, NET.2 on sw's port NS). ARP has no place in
# the measurement: across the congested port its requests and replies
# are lost with the data, and a neighbour that cannot be confirmed drops
# what is sent through it (without this, r1 failed to move probe QPs to
# RTR while the queue was full).
incast_pin() {
	ip -n "$1" neigh replace "$2.1" dev eth0 nud permanent \
		lladdr "$(incast_mac sw "$1")" &&
		ip -n sw neigh replace "$2.2" dev "$1" nud permanent \
			lladdr "$(incast_mac "$1" eth0)"
}

# incast_mac NS DEV: DEV's MAC address in NS.
incast_mac() {
	ip -n "$1" -o link show dev "$2" | grep -o 'link/ether [0-9a-f:]*' |
		cut -d ' ' -f 2
}

# incast_oob NS ADDR: NS's eth1 at ADDR/24 on oob's bridge.
incast_oob() {
	ip link add eth1 netns "$1" type veth peer name "$1" netns oob
	ip -n "$1" addr add "$2/24" dev eth1
	ip -n "$1" link set dev eth1 up
	ip -n oob link set dev "$1" master br0 up
}

# incast_addr NS: host NS's address behind sw (its GID's address).
incast_addr() {
	case $1 in
	s*) echo "10.1.${1#s}.2" ;;
	p1) echo 10.3.1.2 ;;
	r1) echo 10.2.1.2 ;;
	*) return 1 ;;
	esac
}

# incast_reachable PORT NS...: a TCP connection from each NS to r1, through
# sw and over oob, to a listener on PORT (the guest has no ping).
incast_reachable() {
	local port=$1 ns addr pid status=0
	shift
	ip netns exec r1 timeout 60 /usr/bin/python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("", int(sys.argv[1])))
s.listen(64)
while True:
	s.accept()[0].close()' "$port" &
	pid=$!
	wait_for 30 tcp_listening r1 "$port" || { kill "$pid"; return 1; }
	for ns in "$@"; do
		for addr in 10.2.1.2 10.9.0.1; do
			ip netns exec "$ns" timeout 10 bash -c \
				": <>/dev/tcp/$addr/$port" 2>/dev/null ||
				{ echo "$ns cannot reach $addr"; status=1; }
		done
	done
	kill "$pid"
	wait "$pid" 2>/dev/null
	return $status
}

# incast_bottleneck MBIT MIN MAX LIMIT PROB: sw's port towards r1 (its
# dev r1) held to MBIT Mbit/s by htb, behind it three strict-priority
# queues, as a datacenter switch has: packets with DSCP 46 or 48 (rmp's
# grants, credit requests and CNPs, knobs grant_dscp and cnp_dscp) go
# first, from a queue of their own; then those with DSCP 26 (knob
# rcc_unsched_dscp: the unscheduled start of a burst, short messages);
# the rest wait in a RED queue of LIMIT bytes. RED marks ECN-capable
# packets CE (drops others) once its average backlog passes MIN bytes,
# with a probability rising to PROB at MAX bytes, and every one beyond
# MAX; without harddrop an ECN-capable packet is dropped only when LIMIT
# bytes are queued. Replaces what was there, so the counters start from
# zero. htb may send 30 KB at once to catch up (INCAST_HTB_ARGS, its
# class's burst and cburst): a switch port sends at its rate while data
# waits, but htb's timer, late in a loaded emulated guest, would lose the
# time it was late (the port sent 0.57 of its rate with a queue waiting,
# at htb's default burst of about a packet).
incast_bottleneck() {
	local dscp band
	tc -n sw qdisc del dev r1 root 2>/dev/null
	# shellcheck disable=SC2086 # INCAST_HTB_ARGS is words
	tc -n sw qdisc add dev r1 root handle 1: htb default 1 &&
		tc -n sw class add dev r1 parent 1: classid 1:1 htb \
			rate "${1}mbit" ceil "${1}mbit" quantum 1514 \
			${INCAST_HTB_ARGS:-burst 30k cburst 30k} &&
		tc -n sw qdisc add dev r1 parent 1:1 handle 2: prio bands 3 \
			priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 &&
		tc -n sw qdisc add dev r1 parent 2:1 handle 20: pfifo limit 1000 &&
		tc -n sw qdisc add dev r1 parent 2:2 handle 30: pfifo limit 1000 &&
		tc -n sw qdisc add dev r1 parent 2:3 handle 10: red \
			limit "$4" min "$2" max "$3" avpkt 1100 \
			bandwidth "${1}mbit" probability "$5" ecn || return 1
	for dscp in 46:1 48:1 26:2; do
		band=${dscp#*:}
		dscp=${dscp%:*}
		tc -n sw filter add dev r1 parent 2: protocol ip prio 1 u32 \
			match ip dsfield $((dscp << 2)) 0xfc flowid "2:$band" ||
			return 1
	done
}

# incast_red_json: the bottleneck's RED queue and its counters, as tc's
# JSON (bytes, packets, drops, overlimits, backlog, qlen, marked, early,
# pdrop, other).
incast_red_json() {
	tc -n sw -s -j qdisc show dev r1 parent 2:3
}

# incast_control_json: the bottleneck's queue of control packets, as
# tc's JSON (bytes, packets, drops, backlog, qlen).
incast_control_json() {
	tc -n sw -s -j qdisc show dev r1 parent 2:1
}

# incast_unsched_json: the bottleneck's queue of unscheduled data, as
# tc's JSON (bytes, packets, drops, backlog, qlen).
incast_unsched_json() {
	tc -n sw -s -j qdisc show dev r1 parent 2:2
}

# incast_red_stat JSON NAME: counter NAME of incast_red_json's output.
incast_red_stat() {
	grep -o "\"$2\":[0-9]*" <<<"$1" | head -n 1 | grep -o '[0-9]*$'
}

# incast_sample_queue FILE: the RED queue appended to FILE every 0.1 s,
# one line each (the time, then incast_red_json's output), until killed.
# One fork per sample: a loaded emulated guest is slow to fork. Give it a
# real-time priority (chrt -p) to keep it on time.
incast_sample_queue() {
	local fifo
	fifo=$(mktemp -u) && mkfifo "$fifo" && exec 3<>"$fifo" && rm "$fifo" ||
		return 1
	while :; do
		printf '%s ' "$EPOCHREALTIME" >>"$1"
		incast_red_json >>"$1"
		# Nothing ever writes to it: a 0.1 s sleep without a fork.
		read -rt 0.1 -u 3 _
	done
}
