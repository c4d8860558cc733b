#!/bin/bash
# Lifecycle under traffic, in the test guest:
#   tests/vm/run --timeout 1500 -- tests/suites/lifecycle.sh
# rmp1 on h1 and rmp2 on h2 carry perftest traffic while a process is killed
# with SIGKILL, the link goes down and up, or the MTU changes; devices are
# removed with their namespace and with the module. After each event no
# process may hang, no object of a dead process may stay behind, and the
# devices must carry a verified transfer again. The test harness fails the
# run on any kernel report (KASAN, lockdep, WARN, hung task).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$here/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/../lib/hosts.sh
. "$here/../lib/hosts.sh"
# shellcheck source=SCRIPTDIR/../lib/rdma.sh
. "$here/../lib/rdma.sh"
limit=${LIFECYCLE_TIMEOUT:-60}
work=/tmp/lifecycle
mkdir -p "$work"
port=22000

# user_objects DEV: the QPs, CQs, MRs and PDs of DEV that belong to a
# process (kernel ones, such as QP1's, show their owner in brackets).
user_objects() {
	local kind
	for kind in qp cq mr pd; do
		rdma resource show "$kind" 2>/dev/null |
			grep -E "(^| )(dev|link) $1(/| )" | grep -v 'comm \[' |
			sed "s/^/$kind /"
	done
}

# has_user_objects DEV...: every device has a process's QP, CQ, MR and PD
# (while traffic runs: the check below can see what it looks for).
has_user_objects() {
	local dev kind
	for dev in "$@"; do
		for kind in qp cq mr pd; do
			user_objects "$dev" | grep -q "^$kind " ||
				{ echo "no $kind of a process on $dev"; return 1; }
		done
	done
}

# qp_details DEV: rdma -dd shows rmp's transport state of DEV's RC QPs.
qp_details() {
	rdma -dd resource show qp | grep -E "link $1/1 .*type RC" |
		grep -qE 'drv_cpu [0-9]+ .*drv_una 0x[0-9a-f]+ .*drv_epsn 0x'
}

# no_user_objects DEV...: none of the devices keeps a process's object.
no_user_objects() {
	local dev left=0
	for dev in "$@"; do
		if user_objects "$dev" | grep -q .; then
			user_objects "$dev"
			left=1
		fi
	done
	return $left
}

# pingpong: a verified RC transfer from rmp2 to rmp1, the devices' health.
pingpong() {
	local o=$work/pingpong$port
	port=$((port + 1))
	run_pair "$limit" "$o" h1 "tcp:$port" h2 \
		-- ibv_rc_pingpong -d rmp1 -g "$(gid_index rmp1 10.0.0.1)" \
		-p "$port" -s 16384 -n 50 -c \
		-- ibv_rc_pingpong -d rmp2 -g "$(gid_index rmp2 10.0.0.2)" \
		-p "$port" -s 16384 -n 50 -c 10.0.0.1 >"$o.why" ||
		{ cat "$o.why"; return 1; }
}

# traffic TOOL SECONDS: start TOOL's server on rmp1 and client on rmp2 for
# a run of SECONDS in the background (PIDs in SPID and CPID) and return once rmp2 has
# sent 2000 packets of it.
traffic() {
	local tool=$1 secs=$2 g1 g2 sent
	SPID='' CPID=''
	g1=$(gid_index rmp1 10.0.0.1)
	g2=$(gid_index rmp2 10.0.0.2)
	port=$((port + 1))
	OUT=$work/$tool.$port
	ip netns exec h1 "$tool" -d rmp1 -x "$g1" -p "$port" -F -D "$secs" \
		-s 65536 >"$OUT.server" 2>&1 &
	SPID=$!
	wait_for 20 tcp_listening h1 "$port" || return 1
	sent=$(dev_counter rmp2 tx_packets)
	ip netns exec h2 "$tool" -d rmp2 -x "$g2" -p "$port" -F -D "$secs" \
		-s 65536 10.0.0.1 >"$OUT.client" 2>&1 &
	CPID=$!
	wait_for 30 counter_above rmp2 tx_packets $((sent + 2000)) ||
		{ echo "no traffic"; tail -n 5 "$OUT.client" "$OUT.server"; return 1; }
}

# ended PID...: each process is gone within LIMIT seconds (SIGKILL after
# that, and a process that survives it is stuck in the kernel).
ended() {
	local pid ok=0
	for pid in "$@"; do
		if ! reap "$pid" "$limit" >/dev/null 2>&1 && [ -n "$REAP_STUCK" ]; then
			kill -9 "$pid" 2>/dev/null
			if ! reap "$pid" 20 && [ -n "$REAP_STUCK" ]; then
				echo "process $pid stuck in the kernel"
				stuck_stack "$pid"
				ok=1
			fi
		fi
	done
	return $ok
}

check "modprobe rdma_rmp" modprobe rdma_rmp
hosts_pair h1 h2
check "rmp1 on h1's eth0" rmp_on h1 rmp1 10.0.0.1
check "rmp2 on h2's eth0" rmp_on h2 rmp2 10.0.0.2

# SIGKILL in the middle of a transfer, either end.
for tool in ib_write_bw ib_read_bw ib_send_bw; do
	for victim in client server; do
		what="$tool, $victim killed mid-transfer"
		if ! check_here "$what: traffic flows" traffic "$tool" 300; then
			kill -9 "$SPID" "${CPID:-}" 2>/dev/null
			continue
		fi
		check "$what: its objects are listed" has_user_objects rmp1 rmp2
		check "$what: QP transport state listed (rdma -dd)" qp_details rmp2
		if [ $victim = client ]; then
			kill -9 "$CPID"
		else
			kill -9 "$SPID"
		fi
		check_here "$what: both ends exit" ended "$CPID" "$SPID"
		check "$what: no object left behind" \
			wait_for 10 no_user_objects rmp1 rmp2
		check "$what: devices work after" pingpong
	done
done

# The link goes down under traffic and comes back.
if check_here "link down/up: traffic flows" traffic ib_write_bw 10; then
	ip -n h2 link set eth0 down
	sleep 2
	ip -n h2 link set eth0 up
	check_here "link down/up: both ends exit" ended "$CPID" "$SPID"
	check "link down/up: no object left behind" \
		wait_for 10 no_user_objects rmp1 rmp2
	check "link down/up: port active again" \
		wait_for 20 port_active rmp2
	check "link down/up: devices work after" pingpong
fi

# The MTU shrinks under traffic (still above the 1024-byte path MTU
# perftest picks) and grows back: the transfer goes on.
if check_here "MTU change: traffic flows" traffic ib_send_bw 10; then
	for ns in h1 h2; do ip -n $ns link set eth0 mtu 1280; done
	sleep 2
	for ns in h1 h2; do ip -n $ns link set eth0 mtu 1500; done
	check_here "MTU change: both ends exit" ended "$CPID" "$SPID"
	check "MTU change: the transfer completed" \
		grep -qE '^ *65536 +[0-9]+' "$OUT.client"
	check "MTU change: no object left behind" \
		wait_for 10 no_user_objects rmp1 rmp2
	check "MTU change: devices work after" pingpong
fi

# Devices go away with their namespace and with the module.
ip netns add h3
ip link add eth0 netns h3 type veth peer name eth1 netns h3
ip -n h3 link set eth0 up
ip -n h3 link set eth1 up
check "device on h3's eth0" rdma_in h3 link add rmp3 type rmp netdev eth0
ip netns del h3
check "namespace delete removes its device" \
	wait_for 20 bash -c "! rdma link show rmp3/1"
check "rmmod with devices in two namespaces" modprobe -r rdma_rmp
check "no rmp device left" bash -c "! rdma link show | grep -q rmp"
check "module loads again" modprobe rdma_rmp
check "rmp1 back on h1's eth0" rmp_on h1 rmp1 10.0.0.1
check "rmp2 back on h2's eth0" rmp_on h2 rmp2 10.0.0.2
check "devices work after the reload" pingpong
t_done
