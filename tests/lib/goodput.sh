# shellcheck shell=bash
# Goodput of perftest flows (ib_write_bw, ib_send_bw) as the network
# delivered it, for suites whose senders are rmp devices named rmp_sN
# (incast.sh, fabric.sh): the packets each sender's QP saw acknowledged
# over a window in which every flow runs. perftest's own figure averages over
# its whole run, so flows that start a second apart under an emulated CPU,
# or a run's slow start and end, move it.

# started FILE: perftest's output FILE shows its result header: the
# connection is up and its traffic starts.
started() {
	local l
	while IFS= read -r l; do
		[[ $l != *'#bytes'* ]] || return 0
	done <"$1"
	return 1
}

# all_started SECONDS FILE...: wait up to SECONDS until every FILE has
# started; FIRST_STARTED says when the first one did (epoch seconds), SKEW
# how long after it the last one did (to the 0.2 s of polling).
all_started() {
	local deadline=$(($1 + SECONDS)) f left first=
	shift
	SKEW=
	while :; do
		left=0
		for f in "$@"; do
			started "$f" || left=$((left + 1))
		done
		[ -n "$first" ] || [ "$left" = $# ] || first=$EPOCHREALTIME
		[ "$left" != 0 ] || break
		[ $SECONDS -lt "$deadline" ] || return 1
		sleep 0.2
	done
	FIRST_STARTED=$first
	# shellcheck disable=SC2034 # the suites read it
	SKEW=$(awk -v a="$first" -v b="$EPOCHREALTIME" \
		'BEGIN { printf "%.1f", b - a }')
}

# Sender N's counter of the request packets its device saw acknowledged
# is $acked_pre$N$acked_post (tx_acked; the devices of every namespace
# show in the initial one).
acked_pre=/sys/class/infiniband/rmp_s
acked_post=/ports/1/hw_counters/tx_acked

# acked_counter N: sender N's counter file.
acked_counter() {
	echo "$acked_pre$1$acked_post"
}

# acked_packets: the time the reading began and the time it ended, then
# for each sender n "n PACKETS", the request packets its device saw
# acknowledged, each once: in these suites, its perftest QP's. Read with
# bash's own read, no process started: a reading takes a few
# milliseconds however loaded the guest.
acked_packets() {
	local start f n v lines=()
	start=$EPOCHREALTIME
	for f in "$acked_pre"*"$acked_post"; do
		[ -e "$f" ] || continue
		n=${f#"$acked_pre"}
		read -r v <"$f" && lines+=("${n%"$acked_post"} $v")
	done
	echo "$start $EPOCHREALTIME"
	[ ${#lines[@]} = 0 ] || printf '%s\n' "${lines[@]}"
}

# goodput_window PREFIX SECONDS: acknowledged packets into PREFIX.acked.0 2 s
# from now and into PREFIX.acked.1 SECONDS - 4 s after the first flow
# started (all_started), however long the first reading took: the middle
# of ib_write_bw -D SECONDS runs, the last of which started now. In the
# guest, -D 12 runs ended about 10 s after showing their result header,
# and under load a reading starts late and takes a while: counted from
# the last flow to start, the window ended after the first flows had.
goodput_window() {
	local end
	end=$(awk -v t="$FIRST_STARTED" -v s="$2" 'BEGIN { printf "%.3f", t + s - 4 }')
	sleep 2
	acked_packets >"$1.acked.0"
	sleep "$(awk -v e="$end" -v t="$EPOCHREALTIME" 'BEGIN { d = e - t; printf "%.3f", (d > 0 ? d : 0) }')"
	acked_packets >"$1.acked.1"
}

# goodputs PREFIX N: MBPS[n], the goodput of sender n (1 to N) in Mbit/s
# between the snapshots PREFIX.acked.0 and PREFIX.acked.1 (acked_packets):
# the packets acknowledged meanwhile times the path MTU its perftest client
# reports in PREFIX.sn.client (64 KiB WRITEs fill every packet but a
# message's last), between the middles of the two readings. A sender
# without both snapshots gets none, nor does any when a reading took
# more than a second (its time would be a guess).
goodputs() {
	local n mtu
	for n in $(seq 1 "$2"); do
		mtu=$(grep -o 'Mtu *: *[0-9]*' "$1.s$n.client" | grep -o '[0-9]*$')
		[ -n "$mtu" ] || continue
		# shellcheck disable=SC2034 # the suites read it
		MBPS[n]=$(awk -v n="$n" -v mtu="$mtu" '
			{ k = FILENAME == ARGV[1] ? 1 : 2 }
			FNR == 1 { t[k] = ($1 + $2) / 2; long += $2 - $1 > 1; next }
			$1 == n { p[k] = $2; seen[k] = 1 }
			END { if (!seen[1] || !seen[2] || t[2] <= t[1] || long) exit 1
				printf "%.2f", (p[2] - p[1]) * mtu * 8 / (t[2] - t[1]) / 1e6 }' \
			"$1.acked.0" "$1.acked.1") || unset 'MBPS[n]'
	done
}

# at_least VALUE MIN: VALUE >= MIN, as decimals.
at_least() {
	awk -v v="$1" -v m="$2" 'BEGIN { exit !(v + 0 >= m + 0) }'
}
