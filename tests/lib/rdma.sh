# shellcheck shell=bash
# Stock RDMA applications in rmp's guest suites and benchmarks: devices,
# GIDs, and server/client pairs that cannot hang the caller. Needs
# hosts.sh and tap.sh (wait_for) sourced first.

# in_ns NS CMD...: CMD in network namespace NS ("" is the current one).
in_ns() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# gid_index DEV [ADDR]: the lowest index of DEV's port-1 RoCE v2 GID that
# maps IPv4 address ADDR (any IPv4 address if omitted), read from sysfs.
# Builtins only: the table has hundreds of entries and forks are slow in
# an emulated guest.
gid_index() {
	local port=/sys/class/infiniband/$1/ports/1 want=${2:-} n=0 gid type a b c d
	local prefix=0000:0000:0000:0000:0000:ffff:
	if [ -n "$want" ]; then
		IFS=. read -r a b c d <<<"$want"
		prefix+=$(printf '%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
	fi
	while read -r gid 2>/dev/null <"$port/gids/$n"; do
		if [[ $gid == "$prefix"* ]] &&
			read -r type 2>/dev/null <"$port/gid_attrs/types/$n" &&
			[ "$type" = "RoCE v2" ]; then
			echo "$n"
			return 0
		fi
		n=$((n + 1))
	done
	return 1
}

# rxe_loopback DEV ADDR: rxe device DEV on veth rxev0 (ADDR/24) in init_net,
# its IPv4 GID in place. In 6.1 this is the only rxe set-up that carries
# traffic: rxe's socket lives in init_net and two rxe devices in one
# namespace cannot reach each other, so both ends use DEV (loopback).
rxe_loopback() {
	modprobe rdma_rxe &&
		ip link add rxev0 type veth peer name rxev1 &&
		ip addr add "$2/24" dev rxev0 &&
		ip link set rxev0 up && ip link set rxev1 up &&
		rdma link add "$1" type rxe netdev rxev0 &&
		wait_for 10 gid_index "$1" "$2"
}

# rxe_on NETDEV DEV ADDR: rxe device DEV on NETDEV of the initial namespace,
# its GID for ADDR in place.
rxe_on() {
	modprobe rdma_rxe &&
		rdma link add "$2" type rxe netdev "$1" &&
		wait_for 10 gid_index "$2" "$3"
}

# rmp_on NS DEV ADDR: rmp device DEV on NS's eth0, its GID for ADDR in place.
rmp_on() {
	rdma_in "$1" link add "$2" type rmp netdev eth0 &&
		wait_for 10 gid_index "$2" "$3"
}

# dev_counter DEV NAME: one of DEV's port counters (devices of every
# namespace are visible from the initial one).
dev_counter() {
	rdma statistic show link "$1/1" | tr ' ' '\n' |
		awk -v n="$2" 'f { print; exit } $0 == n { f = 1 }'
}

# counters_sum NAME N: counter NAME summed over the devices rmp_s1 to
# rmp_sN, the senders of the multi-host suites (fabric.sh, incast.sh).
counters_sum() {
	local k sum=0
	for k in $(seq 1 "$2"); do
		sum=$((sum + $(dev_counter "rmp_s$k" "$1")))
	done
	echo "$sum"
}

# knob_on_hosts NAME VALUE HOST...: knob NAME of device rmp_HOST, in
# namespace HOST, set to VALUE for every HOST.
knob_on_hosts() {
	local name=$1 value=$2 h
	shift 2
	for h; do
		in_ns "$h" sh -c "echo $value > /sys/class/infiniband/rmp_$h/rmp/$name" ||
			return 1
	done
}

# counter_above DEV NAME N: DEV's counter NAME has passed N.
counter_above() {
	[ "$(dev_counter "$1" "$2")" -gt "$3" ]
}

# counter_rises DEV NAME CMD...: CMD succeeds and then DEV's counter NAME
# goes up within 5 s.
counter_rises() {
	local dev=$1 name=$2 before
	shift 2
	before=$(dev_counter "$dev" "$name")
	"$@" || return 1
	wait_for 5 counter_above "$dev" "$name" "$before" ||
		{ echo "$name stayed at $before"; return 1; }
}

# port_active DEV: DEV's port 1 is ACTIVE.
port_active() {
	rdma link show "$1/1" | grep -q 'state ACTIVE'
}

# tcp_listening NS PORT: a TCP socket listens on PORT in NS.
tcp_listening() {
	in_ns "$1" ss -Hltn "sport = :$2" | grep -q .
}

# cm_listening PORT: an rdma_cm ID listens on PORT (any device).
cm_listening() {
	rdma resource show cm_id 2>/dev/null |
		grep -qE "state LISTEN .*src-addr [^ ]*:$1( |$)"
}

# reap PID SECONDS: wait up to SECONDS for background job PID and return its
# status. If it is still there (stuck in the kernel past SIGKILL), return 255
# with REAP_STUCK set to its PID (255 alone is an ordinary exit status).
reap() {
	local pid=$1 deadline=$((SECONDS + $2))
	REAP_STUCK=
	while kill -0 "$pid" 2>/dev/null; do
		if [ $SECONDS -ge "$deadline" ]; then
			REAP_STUCK=$pid
			return 255
		fi
		sleep 0.2
	done
	wait "$pid"
}

# pair_status ROLE STATUS LIMIT STUCK: a few words on how ROLE ended.
pair_status() {
	if [ -n "$4" ]; then
		echo "$1 stuck in the kernel (survived SIGKILL)"
		return
	fi
	case $2 in
	0) echo "$1 ok" ;;
	124) echo "$1 timed out after $3s" ;;
	137) echo "$1 killed after $3s" ;;
	*) echo "$1 exited with status $2" ;;
	esac
}

# run_pair LIMIT OUT SNS READY CNS -- SERVER... -- CLIENT...
# Start SERVER in namespace SNS, wait until READY holds ("tcp:PORT": a TCP
# listener in SNS, "cm:PORT": an rdma_cm listener), then run CLIENT in CNS.
# Each gets LIMIT seconds (SIGTERM, then SIGKILL 5 s later); a process still
# there 25 s after that is stuck in the kernel: it is left behind, not waited
# for, and its kernel stack is shown. Output goes, line buffered so that a
# killed process loses none, to OUT.server and OUT.client. Succeeds when both exit 0; otherwise PAIR_WHY
# says why in a few words, and the reason, the first error line and the
# tail of each output are printed.
run_pair() {
	local limit=$1 out=$2 sns=$3 ready=$4 cns=$5 spid cpid s c role pid
	local sstuck='' cstuck=''
	local server=() client=() sx=() cx=()
	shift 5
	[ "${1:-}" = -- ] || { echo "run_pair: expected --" >&2; return 2; }
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		server+=("$1")
		shift
	done
	[ $# -gt 1 ] || { echo "run_pair: no client command" >&2; return 2; }
	shift
	client=("$@")
	[ -z "$sns" ] || sx=(ip netns exec "$sns")
	[ -z "$cns" ] || cx=(ip netns exec "$cns")
	PAIR_WHY=
	: >"$out.client"

	"${sx[@]}" timeout -k 5 "$limit" stdbuf -oL "${server[@]}" >"$out.server" 2>&1 &
	spid=$!
	local deadline=$((SECONDS + limit))
	until case $ready in
		tcp:*) tcp_listening "$sns" "${ready#tcp:}" ;;
		cm:*) cm_listening "${ready#cm:}" ;;
		*) echo "run_pair: bad READY '$ready'" >&2; return 2 ;;
		esac; do
		if ! kill -0 "$spid" 2>/dev/null; then
			wait "$spid"
			PAIR_WHY="$(pair_status server $? "$limit" "") before listening"
			break
		fi
		if [ $SECONDS -ge "$deadline" ]; then
			PAIR_WHY="server not listening on ${ready#*:} after ${limit}s"
			break
		fi
		sleep 0.2
	done

	if [ -z "$PAIR_WHY" ]; then
		"${cx[@]}" timeout -k 5 "$limit" stdbuf -oL "${client[@]}" \
			>"$out.client" 2>&1 &
		cpid=$!
		reap "$cpid" $((limit + 30))
		c=$?
		cstuck=$REAP_STUCK
		reap "$spid" $((limit + 30))
		s=$?
		sstuck=$REAP_STUCK
		if [ $c != 0 ]; then
			PAIR_WHY=$(pair_status client $c "$limit" "$cstuck")
			[ $s = 0 ] ||
				PAIR_WHY+=", $(pair_status server $s "$limit" "$sstuck")"
		elif [ $s != 0 ]; then
			PAIR_WHY=$(pair_status server $s "$limit" "$sstuck")
		fi
	elif kill -0 "$spid" 2>/dev/null; then
		kill "$spid"
		reap "$spid" 10
	fi
	[ -n "$PAIR_WHY" ] || return 0
	echo "$PAIR_WHY"
	for role in server client; do
		echo "-- $role:"
		pair_excerpt "$out.$role"
	done
	for pid in $sstuck $cstuck; do
		stuck_stack "$pid"
	done
	return 1
}

# pair_excerpt FILE: FILE's first error line, if it comes before its last
# five lines, then those.
pair_excerpt() {
	local first total
	first=$(grep -m1 -n -iE "fatal|error|fail|couldn't|unable" "$1")
	total=$(wc -l <"$1")
	if [ -n "$first" ] && [ "${first%%:*}" -le $((total - 5)) ]; then
		echo "${first#*:}"
		echo "..."
	fi
	tail -n 5 "$1"
}

# stuck_stack PID: where the program run by timeout(1) PID waits in the kernel.
stuck_stack() {
	local child
	for child in $(pgrep -P "$1"); do
		echo "-- stuck: $(ps -o pid=,stat=,wchan:32=,comm= -p "$child")"
		head -n 12 "/proc/$child/stack" 2>/dev/null
	done
}

# perftest_result FILE: the fields of perftest's result line in FILE (the
# last line of numbers only, five or more of them; perftest prints "-nan"
# for a deviation it cannot compute); fails if there is none.
perftest_result() {
	awk 'NF >= 5 { for (i = 1; i <= NF; i++) if ($i !~ /^([0-9.]+|-?nan|inf)$/) next; line = $0 }
		END { if (line == "") exit 1; $0 = line; $1 = $1; print }' "$1"
}
