#!/bin/bash
# The device suite (20 add/delete cycles) and the verbs suite in one boot of
# the debug kernel, which takes 80 s to boot under TCG:
#   tests/vm/run --debug -- tests/suites/debug.sh
# Prints both suites' output, then their sum as "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)

pass=0
fail=0
# suite NAME CMD...: runs CMD and adds its closing tally; a suite that
# ends without one counts as one failure.
suite() {
	local name=$1 out=/tmp/debug-$1.log line status p=0 f=1
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$out"
	status=${PIPESTATUS[0]}
	line=$(grep -aoE '[0-9]+ passed, [0-9]+ failed' "$out" | tail -n1)
	[ -z "$line" ] || read -r p _ f _ <<<"${line//,/}"
	[ "$status" = 0 ] || [ "$f" != 0 ] || f=1
	pass=$((pass + p))
	fail=$((fail + f))
}

suite device "$here/device.sh" 20
# device.sh leaves its namespaces; verbs.sh makes its own of the same names.
ip -all netns delete
suite verbs "$here/verbs.sh"
echo "debug: $pass passed, $fail failed"
[ "$fail" = 0 ]
