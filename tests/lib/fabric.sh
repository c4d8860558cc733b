# shellcheck shell=bash
# A leaf-spine fabric of network namespaces for rmp's multipath suites.
# Needs hosts.sh and rdma.sh sourced first.
#
#   sN (10.1.N.2) --- leafa --- spine1..spineK --- leafb --- rN (10.2.N.2)
#
# Each host hangs off its leaf on a /24 of its own (10.1.N.0 behind leafa,
# 10.2.N.0 behind leafb). Spine k joins leafa on 10.10.k.0/24 and leafb on
# 10.20.k.0/24. The leaves route to the other side over every spine at
# once (ECMP) and hash the UDP ports into the choice
# (fib_multipath_hash_policy=1), as datacenter switches do; so a flow, one
# UDP source port, takes one spine. Every leaf-to-spine and spine-to-leaf
# link is rate-limited by a token bucket and marks ECN (fabric_queue): the
# fabric, not the emulated CPU, is the bottleneck. Every link of the
# fabric, the hosts' included, has the MTU FABRIC_MTU (default 1500).

# fabric_up SPINES HOSTS RATE: the fabric, SPINES spines, HOSTS hosts on
# each side, every spine link limited to RATE (tc's units, e.g. 40mbit).
fabric_up() {
	local spines=$1 hosts=$2 rate=$3 k n hops_a='' hops_b=''
	for ns in leafa leafb; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv4.fib_multipath_hash_policy=1
	done
	for k in $(seq 1 "$spines"); do
		ip netns add "spine$k"
		ip -n "spine$k" link set lo up
		ip netns exec "spine$k" sysctl -qw net.ipv4.ip_forward=1
		fabric_link leafa "sp$k" "10.10.$k.1" "spine$k" a "10.10.$k.2" "$rate"
		fabric_link leafb "sp$k" "10.20.$k.1" "spine$k" b "10.20.$k.2" "$rate"
		ip -n "spine$k" route add 10.1.0.0/16 via "10.10.$k.1"
		ip -n "spine$k" route add 10.2.0.0/16 via "10.20.$k.1"
		hops_a+=" nexthop via 10.10.$k.2 dev sp$k"
		hops_b+=" nexthop via 10.20.$k.2 dev sp$k"
	done
	# shellcheck disable=SC2086 # one word per nexthop argument
	ip -n leafa route add 10.2.0.0/16 $hops_a
	# shellcheck disable=SC2086
	ip -n leafb route add 10.1.0.0/16 $hops_b
	for n in $(seq 1 "$hosts"); do
		fabric_host "s$n" leafa "10.1.$n"
		fabric_host "r$n" leafb "10.2.$n"
	done
}

# fabric_link NS1 DEV1 ADDR1 NS2 DEV2 ADDR2 RATE: a veth between two
# routers, /24 addresses, both directions limited to RATE.
fabric_link() {
	local ns
	ip link add "$2" netns "$1" type veth peer name "$5" netns "$4"
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$4" addr add "$6/24" dev "$5"
	ip -n "$1" link set dev "$2" mtu "$(fabric_mtu)" up
	ip -n "$4" link set dev "$5" mtu "$(fabric_mtu)" up
	fabric_queue "$1" "$2" "$7"
	fabric_queue "$4" "$5" "$7"
}

# fabric_mtu: the MTU of the fabric's links.
fabric_mtu() {
	echo "${FABRIC_MTU:-1500}"
}

# fabric_packet: the bytes of a full RoCEv2 WRITE packet on the fabric's
# links: the RDMA MTU a device takes from the link's MTU (the largest of
# 256 to 4096 that leaves room for 96 bytes of the largest headers, as
# iboe_get_mtu() reckons), plus an Ethernet, IPv4, UDP, BTH, RETH and ICRC
# header (74 bytes).
fabric_packet() {
	local mtu=4096
	while [ $((mtu + 96)) -gt "$(fabric_mtu)" ] && [ $mtu -gt 256 ]; do
		mtu=$((mtu / 2))
	done
	echo $((mtu + 74))
}

# fabric_queue NS DEV RATE: DEV's egress in NS as a switch port's: a token
# bucket at RATE over a 32 KB RED queue that marks ECN-capable packets CE
# once 5.5 KB are queued, with a probability rising to 0.1 at 16.5 KB
# (and drops the others so), its average packet fabric_packet's. Replaces
# what was there. The bucket holds
# FABRIC_BURST (default 30 KB): a port sends at its rate while data waits,
# but the bucket's timer runs late in a loaded emulated guest and it sends
# no more than it holds then (with 4 KB, one QP on 8 paths got 0.49 to
# 0.51 of the capacity, with 30 KB 0.69 to 0.87; Documentation/rmp/
# testing.rst).
fabric_queue() {
	tc -n "$1" qdisc replace dev "$2" root handle 1: tbf rate "$3" \
		burst "${FABRIC_BURST:-30kb}" limit 32kb &&
		tc -n "$1" qdisc replace dev "$2" parent 1:1 handle 10: red \
			limit 32000 min 5500 max 16500 avpkt "$(fabric_packet)" \
			bandwidth "$3" probability 0.1 ecn
}

# fabric_host NS LEAF NET: host NS with eth0 at NET.2/24 behind LEAF's
# NET.1, its default route through it.
fabric_host() {
	ip netns add "$1"
	ip link add eth0 netns "$1" type veth peer name "$1" netns "$2"
	ip -n "$1" addr add "$3.2/24" dev eth0
	ip -n "$2" addr add "$3.1/24" dev "$1"
	ip -n "$1" link set lo up
	ip -n "$1" link set dev eth0 mtu "$(fabric_mtu)" up
	ip -n "$2" link set dev "$1" mtu "$(fabric_mtu)" up
	ip -n "$1" route add default via "$3.1"
}

# fabric_spine_bytes K: bytes leafa has sent towards spine K.
fabric_spine_bytes() {
	ip -n leafa -s -j link show "sp$1" |
		grep -o '"tx":{"bytes":[0-9]*' | grep -o '[0-9]*$'
}

# fabric_init_host LEAF NET: the initial namespace as one more host behind
# LEAF: veth fab0 at NET.2/24, the leaf's end named init at NET.1, and a
# route to the hosts of the other leaf (10.1.0.0/16) through it. rxe,
# whose socket lives in the initial namespace only, joins the fabric so.
fabric_init_host() {
	ip link add fab0 type veth peer name init netns "$1"
	ip addr add "$2.2/24" dev fab0
	ip -n "$1" addr add "$2.1/24" dev init
	ip link set dev fab0 mtu "$(fabric_mtu)" up
	ip -n "$1" link set dev init mtu "$(fabric_mtu)" up
	ip route add 10.1.0.0/16 via "$2.1"
}

# fabric_spine_delay K DELAY: spine K's links, both leaves' ends, delay
# every packet by DELAY (tc's units) behind their token buckets, in a
# queue of 30 packets (about the RED queue's 32 KB, which this replaces
# until fabric_queue puts it back).
fabric_spine_delay() {
	local leaf
	for leaf in leafa leafb; do
		tc -n "$leaf" qdisc replace dev "sp$1" parent 1:1 handle 10: \
			netem delay "$2" limit 30
	done
}
