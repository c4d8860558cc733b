# shellcheck shell=bash
# Goodput of ib_write_bw flows as the network delivered it, for suites
# whose senders are rmp devices named rmp_sN (incast.sh, fabric.sh): the
# PSNs each sender's QP saw acknowledged over a window in which every flow
# runs. perftest's own figure averages over its whole run, so flows that
# start a second apart under an emulated CPU, or a run's slow start and
# end, move it.

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
# started; SKEW says how long after the first the last one did (to the
# 0.2 s of polling).
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
	# shellcheck disable=SC2034 # the suites read it
	SKEW=$(awk -v a="$first" -v b="$EPOCHREALTIME" \
		'BEGIN { printf "%.1f", b - a }')
}

# acked_psns: the time, then for each sender n "n PSN", the oldest PSN
# its ib_write_bw QP has not seen acknowledged, from rdma's JSON (one
# rdma call for all: the devices of every namespace show in the initial
# one).
acked_psns() {
	echo "$EPOCHREALTIME"
	rdma -j -dd resource show qp | python3 -c '
import json, re, sys
for qp in json.load(sys.stdin):
    m = re.fullmatch(r"rmp_s([0-9]+)", qp.get("ifname", ""))
    una = qp.get("drv_una")
    if m and qp.get("comm") == "ib_write_bw" and una is not None:
        print(m.group(1), int(str(una), 0))'
}

# goodputs PREFIX N: MBPS[n], the goodput of sender n (1 to N) in Mbit/s
# between the snapshots PREFIX.acked.0 and PREFIX.acked.1 (acked_psns):
# the PSNs acknowledged meanwhile times the path MTU its perftest client
# reports in PREFIX.sn.client (64 KiB WRITEs fill every packet but a
# message's last). A sender without both snapshots gets none.
goodputs() {
	local n mtu
	for n in $(seq 1 "$2"); do
		mtu=$(grep -o 'Mtu *: *[0-9]*' "$1.s$n.client" | grep -o '[0-9]*$')
		[ -n "$mtu" ] || continue
		# shellcheck disable=SC2034 # the suites read it
		MBPS[n]=$(awk -v n="$n" -v mtu="$mtu" '
			{ k = FILENAME == ARGV[1] ? 1 : 2 }
			FNR == 1 { t[k] = $1; next }
			$1 == n { p[k] = $2; seen[k] = 1 }
			END { if (!seen[1] || !seen[2] || t[2] <= t[1]) exit 1
				d = (p[2] - p[1] + 16777216) % 16777216
				printf "%.2f", d * mtu * 8 / (t[2] - t[1]) / 1e6 }' \
			"$1.acked.0" "$1.acked.1") || unset 'MBPS[n]'
	done
}
