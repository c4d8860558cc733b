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
# link is rate-limited by a token bucket: the fabric, not the emulated CPU,
# is the bottleneck.

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
	ip -n "$1" link set dev "$2" up
	ip -n "$4" link set dev "$5" up
	for ns in "$1:$2" "$4:$5"; do
		tc -n "${ns%%:*}" qdisc add dev "${ns#*:}" root tbf rate "$7" \
			burst 4kb limit 32kb
	done
}

# fabric_host NS LEAF NET: host NS with eth0 at NET.2/24 behind LEAF's
# NET.1, its default route through it.
fabric_host() {
	ip netns add "$1"
	ip link add eth0 netns "$1" type veth peer name "$1" netns "$2"
	ip -n "$1" addr add "$3.2/24" dev eth0
	ip -n "$2" addr add "$3.1/24" dev "$1"
	ip -n "$1" link set lo up
	ip -n "$1" link set dev eth0 up
	ip -n "$2" link set dev "$1" up
	ip -n "$1" route add default via "$3.1"
}

# fabric_spine_bytes K: bytes leafa has sent towards spine K.
fabric_spine_bytes() {
	ip -n leafa -s -j link show "sp$1" |
		grep -o '"tx":{"bytes":[0-9]*' | grep -o '[0-9]*$'
}
