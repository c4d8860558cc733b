# shellcheck shell=bash
# Goodput of perftest flows (ib_write_bw, ib_send_bw) as the network
# delivered it, for suites whose senders are rmp devices named rmp_sN
# (incast.sh, fabric.sh): the PSNs each sender's QP saw acknowledged over
# a window in which every flow runs. perftest's own figure averages over
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

# acked_psns: the time the reading began and the time it ended, then for
# each sender n "n PSN", the oldest PSN its perftest QP has not seen
# acknowledged, as rdma -dd shows it (one rdma call for all: the devices
# of every namespace show in the initial one). rdma takes each QP's run
# lock, so under load a reading can take seconds.
acked_psns() {
	local n una start lines
	start=$EPOCHREALTIME
	lines=$(rdma -dd resource show qp | awk '/comm ib_(write|send)_bw/ {
		n = ""; una = ""
		for (i = 1; i < NF; i++) {
			if ($i == "link" && $(i + 1) ~ /^rmp_s[0-9]+\//)
				n = substr($(i + 1), 6, index($(i + 1), "/") - 6)
			if ($i == "drv_una")
				una = $(i + 1)
		}
		if (n != "" && una != "")
			print n, una }')
	echo "$start $EPOCHREALTIME"
	[ -n "$lines" ] || return 0
	while read -r n una; do
		echo "$n $((una))"
	done <<<"$lines"
}

# goodput_window PREFIX SECONDS: acknowledged PSNs into PREFIX.acked.0 2 s
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
	acked_psns >"$1.acked.0"
	sleep "$(awk -v e="$end" -v t="$EPOCHREALTIME" 'BEGIN { d = e - t; printf "%.3f", (d > 0 ? d : 0) }')"
	acked_psns >"$1.acked.1"
}

# goodputs PREFIX N: MBPS[n], the goodput of sender n (1 to N) in Mbit/s
# between the snapshots PREFIX.acked.0 and PREFIX.acked.1 (acked_psns):
# the PSNs acknowledged meanwhile times the path MTU its perftest client
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
				d = (p[2] - p[1] + 16777216) % 16777216
				printf "%.2f", d * mtu * 8 / (t[2] - t[1]) / 1e6 }' \
			"$1.acked.0" "$1.acked.1") || unset 'MBPS[n]'
	done
}
