#!/bin/bash
# rdma-core's own test suite (Debian's python3-pyverbs) on rxe and on rmp in
# the same guest:  tests/vm/run -- tests/suites/rdma-core.sh [TEST...]
# Every test that runs on rxe or rmp must pass on rmp (one TAP line each),
# even one that fails on rxe; what each device skips is summed up.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/hosts.sh"
. "$here/../lib/rdma.sh"
work=/tmp/rdma-core-tests
logs=$repo/build/test-logs
mkdir -p "$logs"

rm -rf "$work" && mkdir -p "$work" &&
	cp -a /usr/share/doc/rdma-core/tests "$work/" &&
	gunzip -f "$work"/tests/*.gz || exit 1

# run_on DEV LOG [ARGS...]: the suite on DEV (in the current namespace).
run_on() {
	local dev=$1 log=$2
	shift 2
	(cd "$work" && timeout 1200 /usr/bin/python3 tests/run_tests.py \
		--dev "$dev" -v "$@") >"$log" 2>&1
}

# results LOG: one "module.Class.test status" line per test, status being
# ok, skip or fail. unittest -v prints "test (id)", then the docstring's
# first line if there is one, then " ... status".
results() {
	awk '
		match($0, /^test[^ ]* \(([^)]*)\)/) {
			id = substr($0, RSTART, RLENGTH)
			sub(/^[^(]*\(/, "", id); sub(/\)$/, "", id)
		}
		id != "" && match($0, / \.\.\. (ok|skipped|FAIL|ERROR)/) {
			st = substr($0, RSTART + 5)
			sub(/ .*/, "", st)
			if (st == "skipped") st = "skip"
			else if (st != "ok") st = "fail"
			print id, st
			id = ""
		}' "$1" | sort -u
}

rxe_loopback rxe0 10.9.0.1 && modprobe rdma_rmp || exit 1
hosts_pair h1 h2
rmp_on h1 rmp1 10.0.0.1 || exit 1
sleep 1

run_on rxe0 "$logs/rdma-core-rxe.log" "$@"
ip netns exec h1 bash -c "$(declare -f run_on); work=$work; run_on rmp1 $logs/rdma-core-rmp.log $*"
results "$logs/rdma-core-rxe.log" >"$work/rxe"
results "$logs/rdma-core-rmp.log" >"$work/rmp"

[ -s "$work/rxe" ] || { t_not_ok "rdma-core's suite ran on rxe"; t_done; exit; }
cut -d' ' -f1 "$work/rxe" "$work/rmp" | sort -u >"$work/names"
# One TAP line per test that runs on either device: it must pass on rmp.
# A test both devices skip is only counted.
while read -r name; do
	want=$(awk -v n="$name" '$1 == n { print $2 }' "$work/rxe")
	got=$(awk -v n="$name" '$1 == n { print $2 }' "$work/rmp")
	[ "$want" = skip ] && [ "$got" = skip ] && continue
	if [ "$got" = ok ]; then
		t_ok "$name"
	else
		t_not_ok "$name (rxe: ${want:-missing}, rmp: ${got:-missing})"
		grep -A12 -E "^(FAIL|ERROR): ${name##*.} " "$logs/rdma-core-rmp.log" |
			head -n 14 | sed 's/^/#   /'
	fi
done <"$work/names"
for dev in rxe rmp; do
	printf '# rdma-core on %s: %s ok, %s skipped, %s failed\n' "$dev" \
		"$(grep -c ' ok$' "$work/$dev")" "$(grep -c ' skip$' "$work/$dev")" \
		"$(grep -c ' fail$' "$work/$dev")"
done
t_done
