#!/bin/bash
# Stock RDMA applications (ibverbs-utils, perftest, rdmacm-utils, UCX), each
# as a server and a client, in the test guest:
#   tests/vm/run --timeout 900 -- tests/suites/apps.sh [rmp|rxe|rmp-rxe|rxe-rmp]
# rmp (default): rmp1 on h1's eth0 serves, rmp2 on h2's eth0 is the client.
# rxe: one rxe device in init_net serves its own client (loopback): the only
#      way rxe carries traffic between two of its devices in 6.1.
# rmp-rxe, rxe-rmp: interoperation, server first: rmp1 on h1's eth0 and rxe0
#      on the initial namespace's end of the veth.
# Each server/client pair gets APPS_TIMEOUT seconds (default 60). rmp
# devices spray over APPS_PATHS paths (default 8): between two rmp devices
# the applications' RDMA WRITEs are sprayed; towards rxe nothing changes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/../lib/hosts.sh
. "$here/../lib/hosts.sh"
# shellcheck source=SCRIPTDIR/../lib/rdma.sh
. "$here/../lib/rdma.sh"
provider=${1:-rmp}
addr6=''
limit=${APPS_TIMEOUT:-60}
work=/tmp/apps
mkdir -p "$work"
check "rc-ping built" cc -O2 -Wall -o "$work/rc-ping" "$here/../tools/rc-ping.c" \
	-libverbs

case $provider in
rmp)
	check "modprobe rdma_rmp" modprobe rdma_rmp
	hosts_pair h1 h2
	check "rmp1 on h1's eth0" rmp_on h1 rmp1 10.0.0.1
	check "rmp2 on h2's eth0" rmp_on h2 rmp2 10.0.0.2
	srv_ns=h1 srv_dev=rmp1 cli_ns=h2 cli_dev=rmp2 addr=10.0.0.1 cli_addr=10.0.0.2
	addr6=fd00::1
	;;
rxe)
	check "rxe0 on rxev0 in init_net" rxe_loopback rxe0 10.9.0.1
	srv_ns='' srv_dev=rxe0 cli_ns='' cli_dev=rxe0 addr=10.9.0.1 cli_addr=10.9.0.1
	;;
rmp-rxe | rxe-rmp)
	check "modprobe rdma_rmp" modprobe rdma_rmp
	host_and_init h1
	check "rmp1 on h1's eth0" rmp_on h1 rmp1 10.0.0.1
	check "rxe0 on vpeer0 in init_net" rxe_on vpeer0 rxe0 10.0.0.2
	if [ "$provider" = rmp-rxe ]; then
		srv_ns=h1 srv_dev=rmp1 cli_ns='' cli_dev=rxe0
		addr=10.0.0.1 cli_addr=10.0.0.2 addr6=fd00::1
	else
		srv_ns='' srv_dev=rxe0 cli_ns=h1 cli_dev=rmp1
		addr=10.0.0.2 cli_addr=10.0.0.1 addr6=fd00::2
	fi
	;;
*)
	echo "usage: $0 [rmp|rxe|rmp-rxe|rxe-rmp]" >&2
	exit 2
	;;
esac
# paths_knob NS DEV N: DEV's multipath knob "paths" set to N.
paths_knob() {
	in_ns "$1" sh -c "echo $3 > /sys/class/infiniband/$2/rmp/paths"
}
for d in "$srv_ns:$srv_dev" "$cli_ns:$cli_dev"; do
	case ${d#*:} in
	rmp*) check "${d#*:} sprays over ${APPS_PATHS:-8} paths" \
		paths_knob "${d%%:*}" "${d#*:}" "${APPS_PATHS:-8}" ;;
	esac
done
srv_gid=$(gid_index "$srv_dev" "$addr")
cli_gid=$(gid_index "$cli_dev" "$cli_addr")
if [ -z "$srv_gid" ] || [ -z "$cli_gid" ]; then
	t_not_ok "IPv4 RoCE v2 GIDs of $srv_dev and $cli_dev"
	t_done
	exit
fi
echo "# server $srv_dev GID index $srv_gid${srv_ns:+ in $srv_ns}," \
	"client $cli_dev GID index $cli_gid${cli_ns:+ in $cli_ns}, address $addr"

port=20000
# app DESC CMD...: check DESC CMD..., with a fresh port for CMD in $port.
app() {
	port=$((port + 1))
	check "$@"
}

# in_all PATTERN FILE...: every FILE has a line matching extended regex PATTERN.
in_all() {
	local pattern=$1 f
	shift
	for f; do
		grep -qE -- "$pattern" "$f" || { echo "no /$pattern/ in $f"; return 1; }
	done
}

# pingpong rc|ud: ibv_{rc,ud}_pingpong with -c (each side checks the
# buffers it receives), 100 round trips.
pingpong() {
	local tool=ibv_$1_pingpong o=$work/$1_pingpong
	run_pair "$limit" "$o" "$srv_ns" "tcp:$port" "$cli_ns" \
		-- "$tool" -d "$srv_dev" -g "$srv_gid" -p "$port" -n 100 -c \
		-- "$tool" -d "$cli_dev" -g "$cli_gid" -p "$port" -n 100 -c "$addr" &&
		in_all '^100 iters in' "$o.server" "$o.client"
}

# perftest TOOL ARGS...: one of perftest's ib_* tools with ARGS on both
# sides (-F: no CPU frequency check, meaningless in a guest); the client
# must print its result line.
perftest() {
	local tool=$1 o=$work/$1
	shift
	run_pair "$limit" "$o" "$srv_ns" "tcp:$port" "$cli_ns" \
		-- "$tool" -d "$srv_dev" -x "$srv_gid" -p "$port" -F "$@" \
		-- "$tool" -d "$cli_dev" -x "$cli_gid" -p "$port" -F "$@" "$addr" &&
		perftest_result "$o.client"
}

# rc_ping ITERS: ITERS round trips of rc-ping, every one accounted for.
rc_ping() {
	local o=$work/rc_ping
	run_pair "$limit" "$o" "$srv_ns" "tcp:$port" "$cli_ns" \
		-- "$work/rc-ping" -d "$srv_dev" -x "$srv_gid" -p "$port" -n "$1" \
		-- "$work/rc-ping" -d "$cli_dev" -x "$cli_gid" -p "$port" -n "$1" \
		"$addr" || return 1
	[ "$(grep -cE '^[0-9]+, [0-9.]+$' "$o.client")" = "$1" ] ||
		{ echo "fewer than $1 round trips"; return 1; }
}

# rping_verified [ADDR]: rdma_cm connection to ADDR (default: the server's
# IPv4 address), 10 pings, each verified (-V) on both sides.
rping_verified() {
	local o=$work/rping a=${1:-$addr}
	run_pair "$limit" "$o" "$srv_ns" "cm:$port" "$cli_ns" \
		-- rping -s -a "$a" -p "$port" -C 10 -V -v \
		-- rping -c -a "$a" -p "$port" -C 10 -V -v || return 1
	if [ "$(grep -c 'ping data: rdma-ping-' "$o.client")" != 10 ] ||
		[ "$(grep -c 'server ping data: rdma-ping-' "$o.server")" != 10 ]; then
		echo "fewer than 10 verified pings"
		return 1
	fi
}

# ucx_tag_bw: UCX's tag-matching bandwidth test over rc_verbs with ud_verbs
# for wire-up, 64 KiB messages (rendezvous: RDMA reads). UCX's UD transport
# checks the destination GID in the GRH of every packet it receives
# (UCX_UD_ETH_DGID_CHECK, on by default); that check rejects the
# completions of soft RoCE devices, rxe's and rmp's alike, so every wire-up
# packet is dropped inside UCX and the endpoint times out. It is off here;
# see Documentation/rmp/testing.rst.
ucx_tag_bw() {
	local o=$work/ucx
	run_pair "$limit" "$o" "$srv_ns" "tcp:$port" "$cli_ns" \
		-- env UCX_TLS=rc_verbs,ud_verbs UCX_NET_DEVICES="$srv_dev:1" \
		UCX_IB_GID_INDEX="$srv_gid" UCX_UD_ETH_DGID_CHECK=n \
		ucx_perftest -p "$port" \
		-- env UCX_TLS=rc_verbs,ud_verbs UCX_NET_DEVICES="$cli_dev:1" \
		UCX_IB_GID_INDEX="$cli_gid" UCX_UD_ETH_DGID_CHECK=n \
		ucx_perftest -p "$port" -t tag_bw -s 65536 -n 100 "$addr" &&
		in_all '^Final:' "$o.client"
}

app "ibv_rc_pingpong -c (RC send/recv, buffers checked)" pingpong rc
app "ibv_ud_pingpong -c (UD send/recv, buffers checked)" pingpong ud
app "ib_send_bw (64 KiB x 200)" perftest ib_send_bw -n 200
app "ib_write_bw (64 KiB x 200)" perftest ib_write_bw -n 200
app "ib_read_bw (64 KiB x 200)" perftest ib_read_bw -n 200
app "ib_atomic_bw (fetch-and-add x 200)" perftest ib_atomic_bw -n 200
app "ib_send_lat (2 B x 200)" perftest ib_send_lat -n 200
# Sleeping on CQ events: rc-ping (tests/tools/rc-ping.c), not perftest's
# -e. ib_send_lat -e waits for its send CQ's event before the reply's and
# stalls when the reply's completion comes first, which no verbs rule
# forbids and which the guest's network can cause: the peer's ACK leaves
# from its receive path on one CPU and its reply from the doorbell on the
# other, and veth queues each packet on its sender's CPU, so under load
# the reply can overtake the ACK (Documentation/rmp/testing.rst).
app "rc-ping (2 B x 3000, CQ events, completions in either order)" rc_ping 3000
app "ib_write_lat (2 B x 200)" perftest ib_write_lat -n 200
app "ib_read_lat (2 B x 200)" perftest ib_read_lat -n 200
app "ucx_perftest tag_bw, UCX_TLS=rc_verbs,ud_verbs" ucx_tag_bw
# Last: when the connection cannot be made, the client's rdma_cm ID can be
# left waiting in the kernel for good (ib_cm waits for its MAD to complete).
app "rping -V (rdma_cm connection, 10 verified pings)" rping_verified
[ -z "$addr6" ] ||
	app "rping -V over IPv6 ($addr6)" rping_verified "$addr6"

# The RC QPs above asked their peers about rmp's extensions (wire.rst).
# ext_counters DEV: "asked agreed standard".
ext_counters() {
	echo "$(dev_counter "$1" ext_asked) $(dev_counter "$1" ext_agreed)" \
		"$(dev_counter "$1" ext_standard)"
}
# ext_saw DEV AGREED STANDARD: DEV asked, and found peers agreeing (or none
# that did) and standard peers (or none), as "yes"/"no" say.
ext_saw() {
	local asked agreed standard
	read -r asked agreed standard <<<"$(ext_counters "$1")"
	echo "$1: asked $asked, agreed $agreed, standard $standard"
	[ "$asked" -gt 0 ] &&
		{ [ "$2" = yes ] && [ "$agreed" -gt 0 ] ||
			{ [ "$2" = no ] && [ "$agreed" = 0 ]; }; } &&
		{ [ "$3" = yes ] && [ "$standard" -gt 0 ] ||
			{ [ "$3" = no ] && [ "$standard" = 0 ]; }; }
}
case $provider in
rmp)
	check "rmp1 and rmp2's RC QPs agreed on the extensions, none found a standard peer" \
		bash -c "$(declare -f dev_counter ext_counters ext_saw); ext_saw rmp1 yes no && ext_saw rmp2 yes no"
	[ "${APPS_PATHS:-8}" -gt 1 ] &&
		check "rmp2 sprayed its WRITEs and took SACKs" \
			bash -c "$(declare -f dev_counter counter_above); counter_above rmp2 tx_sprayed 0 && counter_above rmp2 rx_sacks 0"
	;;
rmp-rxe | rxe-rmp)
	check "rmp1 found rxe a standard peer and agreed with none" \
		bash -c "$(declare -f dev_counter ext_counters ext_saw); ext_saw rmp1 no yes"
	check "rmp1 sprayed nothing and took no SACK: plain RoCEv2 towards rxe" \
		bash -c "$(declare -f dev_counter counter_above); ! counter_above rmp1 tx_sprayed 0 && ! counter_above rmp1 rx_sacks 0"
	;;
esac

t_done
