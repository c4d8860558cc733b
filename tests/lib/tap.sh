# shellcheck shell=bash
# Minimal test bookkeeping for rmp's shell suites. Source it, call the
# checks, end with t_done; the last line printed is "N passed, N failed".

T_PASS=0
T_FAIL=0
T_TODO=0
T_SUITE=${T_SUITE:-$(basename "$0" .sh)}

t_ok() {
	T_PASS=$((T_PASS + 1))
	echo "ok $((T_PASS + T_FAIL + T_TODO)) - $*"
}

t_not_ok() {
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $((T_PASS + T_FAIL + T_TODO)) - $*"
}

# check DESC CMD...: passes when CMD exits 0; shows its output otherwise.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_ok "$desc"
	else
		t_not_ok "$desc"
		printf '%s\n' "$out" | head -n 40 | sed 's/^/#   /'
	fi
}

# check_here DESC CMD...: like check, but CMD runs in this shell, so the
# variables it sets and the jobs it starts stay; its status is returned.
check_here() {
	local desc=$1 log=/tmp/check_here.$$
	shift
	if "$@" >"$log" 2>&1; then
		t_ok "$desc"
	else
		t_not_ok "$desc"
		head -n 40 "$log" | sed 's/^/#   /'
		return 1
	fi
}

# check_todo DESC REASON CMD...: like check, for a known failure whose cause
# is outside rmp (REASON names it). TAP's TODO directive: a failure is
# reported but counted in neither tally; a pass counts as a pass.
check_todo() {
	local desc=$1 reason=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		t_ok "$desc # TODO $reason (passed)"
	else
		T_TODO=$((T_TODO + 1))
		echo "not ok $((T_PASS + T_FAIL + T_TODO)) - $desc # TODO $reason"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	fi
}

# check_fails DESC PATTERN CMD...: passes when CMD fails and its output
# matches the extended regex PATTERN (the error a user should see).
check_fails() {
	local desc=$1 pattern=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		t_not_ok "$desc (command succeeded)"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	elif printf '%s\n' "$out" | grep -qE -- "$pattern"; then
		t_ok "$desc"
	else
		t_not_ok "$desc (error did not match /$pattern/)"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	fi
}

# wait_for SECONDS CMD...: retry CMD every 0.2 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.2
	done
}

t_done() {
	[ "$T_TODO" = 0 ] || echo "# $T_TODO known failure(s) marked TODO, not counted"
	echo "$T_SUITE: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" = 0 ]
}

# tally_of LOG STATUS: "P F" from the last "N passed, N failed" line of a
# suite's LOG; a suite without that line, or that exited with a STATUS
# other than 0 without a failure counted, has one failure.
tally_of() {
	local line p=0 f=1
	line=$(grep -aoE '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
	[ -z "$line" ] || read -r p _ f _ <<<"${line//,/}"
	[ "$2" = 0 ] || [ "$f" != 0 ] || f=1
	echo "$p $f"
}
