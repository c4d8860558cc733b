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
