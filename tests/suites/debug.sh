#!/bin/bash
# The device suite (20 add/delete cycles) and the verbs suite in one boot of
# the debug kernel, which takes 80 s to boot under TCG:
#   tests/vm/run --debug -- tests/suites/debug.sh
# Prints both suites' output, then their sum as "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)

. "$here/../lib/tap.sh"

pass=0
fail=0
# suite NAME CMD...: runs CMD and adds its closing tally.
suite() {
	local out=/tmp/debug-$1.log status p f
	echo "== $1"
	shift
	"$@" 2>&1 | tee "$out"
	status=${PIPESTATUS[0]}
	read -r p f <<<"$(tally_of "$out" "$status")"
	pass=$((pass + p))
	fail=$((fail + f))
}

suite device "$here/device.sh" 20
# device.sh leaves its namespaces; verbs.sh makes its own of the same names.
ip -all netns delete
suite verbs "$here/verbs.sh"
echo "debug: $pass passed, $fail failed"
[ "$fail" = 0 ]
