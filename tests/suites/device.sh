#!/bin/bash
# rmp device lifecycle and bad input, in the test guest:
#   tests/vm/run [--debug] -- tests/suites/device.sh [CYCLES]
# CYCLES is the number of add/delete rounds of the leak check (default 100).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/hosts.sh"
. "$here/../lib/rdma.sh"
cycles=${1:-100}

devinfo() { ip netns exec "$1" ibv_devinfo -v -d "$2" 2>&1; }
port_state_is() { devinfo "$1" "$2" | grep -q "state:.*$3"; }
kmsg_has() { dmesg | grep -qF -- "$1"; }

check "modprobe rdma_rmp" modprobe rdma_rmp
hosts_pair h1 h2

check "rdma link add rmp1 on h1's eth0" rdma_in h1 link add rmp1 type rmp netdev eth0
check "rdma link add rmp2 on h2's eth0" rdma_in h2 link add rmp2 type rmp netdev eth0
check "rdma link lists rmp1 bound to eth0" \
	bash -c "ip netns exec h1 rdma link show rmp1/1 | grep -q 'netdev eth0'"
check "rdma link lists rmp2 ACTIVE" \
	bash -c "rdma link show rmp2/1 | grep -q 'state ACTIVE'"
check "ibv_devinfo binds the stock provider and shows PORT_ACTIVE" \
	port_state_is h1 rmp1 PORT_ACTIVE
check "link_layer is Ethernet" bash -c "ip netns exec h1 ibv_devinfo -d rmp1 | grep -q 'link_layer:.*Ethernet'"
check "transport is InfiniBand (RoCE)" bash -c "ip netns exec h1 ibv_devinfo -d rmp1 | grep -q 'transport:.*InfiniBand'"
check "IPv4 address appears as a RoCEv2 GID" \
	wait_for 10 bash -c "ip netns exec h1 ibv_devinfo -v -d rmp1 | grep -qiE 'GID\[ *[0-9]+\]:.*::ffff:10\.0\.0\.1, RoCE v2'"
check "IPv6 address appears as a RoCEv2 GID" \
	wait_for 10 bash -c "ip netns exec h1 ibv_devinfo -v -d rmp1 | grep -qiE 'GID\[ *[0-9]+\]:.*fd00::1, RoCE v2'"
check "a new address adds a GID" bash -c "
	ip -n h1 addr add 10.9.9.9/32 dev eth0 &&
	for i in \$(seq 50); do ip netns exec h1 ibv_devinfo -v -d rmp1 | grep -q '::ffff:10.9.9.9' && exit 0; sleep 0.2; done; exit 1"
check "a removed address drops its GID" bash -c "
	ip -n h1 addr del 10.9.9.9/32 dev eth0 &&
	for i in \$(seq 50); do ip netns exec h1 ibv_devinfo -v -d rmp1 | grep -q '::ffff:10.9.9.9' || exit 0; sleep 0.2; done; exit 1"
check "sysfs rmp/netdev names the bound netdev" \
	bash -c "[ \"\$(cat /sys/class/infiniband/rmp1/rmp/netdev)\" = eth0 ]"

# Port state and MTU follow the netdev.
ip -n h1 link set eth0 down
check "netdev down: port goes DOWN" wait_for 5 port_state_is h1 rmp1 PORT_DOWN
ip -n h1 link set eth0 up
check "netdev up: port comes back ACTIVE" wait_for 10 port_state_is h1 rmp1 PORT_ACTIVE
ip -n h1 link set eth0 mtu 9000
check "MTU 9000: active_mtu 4096" bash -c "ip netns exec h1 ibv_devinfo -d rmp1 | grep -q 'active_mtu:.*4096'"
ip -n h1 link set eth0 mtu 1500
check "MTU 1500: active_mtu 1024" bash -c "ip netns exec h1 ibv_devinfo -d rmp1 | grep -q 'active_mtu:.*1024'"

# Sockets live in the netdev's namespace, not in init_net.
check "UDP 4791 bound in h1" bash -c "ip netns exec h1 ss -Hlun | grep -q ':4791 '"
check "UDP 4791 not bound in init_net" bash -c "! ss -Hlun | grep -q ':4791 '"
# rxe shares rmp's driver id; its netdev notifier must leave rmp alone.
check "rdma_rxe loads beside rmp devices" modprobe rdma_rxe

# Bad packets are dropped, each under the counter that names the reason.
inject() { ip netns exec h1 "$here/../tools/roce-inject.py" 10.0.0.1 10.0.0.2 "$@"; }
check "packet for a QP that does not exist: rx_drop_no_qp" \
	counter_rises rmp2 rx_drop_no_qp inject --qpn 0x1234
check "bad ICRC: rx_drop_icrc" counter_rises rmp2 rx_drop_icrc inject --bad-icrc
check "runt datagram: rx_drop_malformed" \
	counter_rises rmp2 rx_drop_malformed inject --raw 0400
check "reserved opcode: rx_drop_malformed" \
	counter_rises rmp2 rx_drop_malformed inject --opcode 0x1f
check "pad larger than the payload: rx_drop_malformed" \
	counter_rises rmp2 rx_drop_malformed inject --payload 0 --pad 3
check "every datagram counted in rx_packets" counter_above rmp2 rx_packets 4

# Bad input: each refused with a clear error, nothing left behind.
ndevs() { rdma link show | grep -c .; }
before=$(ndevs)
check_fails "missing netdev: ENODEV" "No such device" rdma_in h1 link add bad0 type rmp netdev nosuch0
ip -n h1 link add dummy0 type dummy
check_fails "down netdev: ENETDOWN" "Network is down" rdma_in h1 link add bad0 type rmp netdev dummy0
check "down netdev: kernel log names it" kmsg_has "rmp: dummy0 is down"
check_fails "loopback netdev: EINVAL" "Invalid argument" rdma_in h1 link add bad0 type rmp netdev lo
check "loopback netdev: kernel log names it" kmsg_has "rmp: lo is a loopback device"
ip -n h1 tuntap add mode tun name tun0
ip -n h1 link set tun0 up
check_fails "non-Ethernet netdev: EINVAL" "Invalid argument" rdma_in h1 link add bad0 type rmp netdev tun0
check "non-Ethernet netdev: kernel log names it" kmsg_has "rmp: tun0 is not an Ethernet device"
check_fails "second device on the same netdev: EEXIST" "File exists" rdma_in h1 link add bad0 type rmp netdev eth0
check "second device: kernel log names it" kmsg_has "rmp: eth0 already has an rmp device"
ip -n h1 link set dummy0 up
check_fails "duplicate device name: EEXIST" "File exists" rdma_in h1 link add rmp2 type rmp netdev dummy0
check "duplicate device name: kernel log names it" kmsg_has "rmp: an RDMA device named rmp2 exists"
check "failed adds left no device behind" bash -c "[ \$(rdma link show | grep -c .) = $before ]"
check "dummy0 still free after the refusals" rdma_in h1 link add rmp3 type rmp netdev dummy0
check "rmp3 removed" rdma link delete rmp3
ip -n h1 link set dummy0 down
ip -n h1 link del dummy0

# Lifecycle.
check "rdma link delete rmp1" rdma link delete rmp1
check "rmp1 is gone" bash -c "! rdma link show rmp1/1"
check "h1's sockets closed with its last device" bash -c "! ip netns exec h1 ss -Hlun | grep -q ':4791 '"
check "re-adding after delete works" rdma_in h1 link add rmp1 type rmp netdev eth0
check "re-added device is ACTIVE" wait_for 10 port_state_is h1 rmp1 PORT_ACTIVE

ip netns add h3
ip link add eth0 netns h3 type veth peer name eth1 netns h3
ip -n h3 link set eth0 up
ip -n h3 link set eth1 up
check "device on h3's eth0" rdma_in h3 link add rmp4 type rmp netdev eth0
ip -n h3 link del eth0
check "netdev delete removes the device" wait_for 10 bash -c "! rdma link show rmp4/1"
ip -n h3 link add eth0 type veth peer name eth1
ip -n h3 link set eth0 up
ip -n h3 link set eth1 up
check "device on a fresh h3 eth0" rdma_in h3 link add rmp4 type rmp netdev eth0
ip netns del h3
check "namespace delete removes the device" wait_for 20 bash -c "! rdma link show rmp4/1"

check "rmp is refused a netdev that has an rxe device" bash -c "
	ip link add rxev0 type veth peer name rxev1 && ip link set rxev0 up &&
	rdma link add rxe9 type rxe netdev rxev0 || exit 1
	rdma link add rmp9 type rmp netdev rxev0 2>&1 | grep -q 'File exists'; rc=\$?
	rdma link delete rxe9; ip link del rxev0; exit \$rc"
check "rxe netdev events leave rmp devices alone" bash -c "
	ip -n h2 link set eth0 down && ip -n h2 link set eth0 up &&
	for i in \$(seq 50); do ip netns exec h2 ibv_devinfo -d rmp2 | grep -q PORT_ACTIVE && exit 0; sleep 0.2; done; exit 1"

ip -n h1 link add cyc0 type dummy
ip -n h1 link set cyc0 up
check "$cycles add/delete cycles" bash -c "
	for i in \$(seq $cycles); do
		ip netns exec h1 rdma link add cyc0 type rmp netdev cyc0 || exit 1
		rdma link delete cyc0 || exit 1
	done"
check "no device left from the cycles" bash -c "! rdma link show cyc0/1"

check "rmmod with devices present" modprobe -r rdma_rmp
check "rmmod removed every rmp device" bash -c "! rdma link show | grep -qE '^link rmp'"
check "sockets gone after rmmod" bash -c "! ip netns exec h2 ss -Hlun | grep -q ':4791 '"
check "module reloads" modprobe rdma_rmp
check "device works after reload" rdma_in h2 link add rmp2 type rmp netdev eth0
check "final delete" rdma link delete rmp2
check "final rmmod" modprobe -r rdma_rmp rdma_rxe

t_done
