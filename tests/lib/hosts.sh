# shellcheck shell=bash
# Namespace "hosts" for rmp's guest suites.

# hosts_pair NS1 NS2: two namespaces joined by veth (eth0 in each) with
# 10.0.0.1/24 + fd00::1/64 and 10.0.0.2/24 + fd00::2/64, links up.
hosts_pair() {
	local a=$1 b=$2
	ip netns add "$a"
	ip netns add "$b"
	ip link add eth0 netns "$a" type veth peer name eth0 netns "$b"
	ip -n "$a" addr add 10.0.0.1/24 dev eth0
	ip -n "$b" addr add 10.0.0.2/24 dev eth0
	ip -n "$a" addr add fd00::1/64 dev eth0 nodad
	ip -n "$b" addr add fd00::2/64 dev eth0 nodad
	for ns in "$a" "$b"; do
		ip -n "$ns" link set lo up
		ip -n "$ns" link set eth0 up
	done
}

# host_and_init NS: namespace NS joined by veth to the initial namespace
# (NS's eth0 with 10.0.0.1/24 + fd00::1/64, the initial namespace's vpeer0
# with 10.0.0.2/24 + fd00::2/64), links up: rxe, which works in the initial
# namespace only, talks to a device in NS.
host_and_init() {
	local ns=$1
	ip netns add "$ns"
	ip link add eth0 netns "$ns" type veth peer name vpeer0
	ip -n "$ns" addr add 10.0.0.1/24 dev eth0
	ip addr add 10.0.0.2/24 dev vpeer0
	ip -n "$ns" addr add fd00::1/64 dev eth0 nodad
	ip addr add fd00::2/64 dev vpeer0 nodad
	ip -n "$ns" link set lo up
	ip -n "$ns" link set eth0 up
	ip link set vpeer0 up
}

# rdma_in NS ARGS...: the rdma tool inside a namespace.
rdma_in() {
	local ns=$1
	shift
	ip netns exec "$ns" rdma "$@"
}

# rdma_dev_exists NAME
rdma_dev_exists() {
	rdma link show "$1/1" >/dev/null 2>&1
}
