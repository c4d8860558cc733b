#!/bin/bash
# Host-side checks of the QEMU runner itself (tests/vm/run): exit status,
# file systems, modules, and that a kernel report fails a passing command.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
cd "$repo" || exit 1
run() { tests/vm/run --timeout 300 -- "$@"; }

start=$SECONDS
out=$(run true 2>&1)
status=$?
took=$((SECONDS - start))
check "a trivial command succeeds" test "$status" = 0
# Reported, not asserted: timing depends on the machine's load.
echo "# a trivial command took ${took}s"

run bash -c 'exit 7' >/dev/null 2>&1
check "the command's exit status is returned" test $? = 7

# One boot answers every question about the guest's environment: each
# probe prints its name and "yes" or "no", and each answer is a check.
mark=build/vm-selftest.$$
cat >"$mark.sh" <<'PROBES'
repo=$1 mark=$2
probe() { if (eval "$2") >/dev/null 2>&1; then echo "$1 yes"; else echo "$1 no"; fi; }
echo hello-from-guest
probe cwd '[ "$(pwd)" = "$repo/tests" ]'
echo written >"$repo/$mark"
probe read-only '! touch /usr/rmp-vm-selftest'
probe tmpfs 'for d in /tmp /run /var/tmp /dev/shm; do [ "$(stat -f -c %T $d)" = tmpfs ] || exit 1; done'
probe rxe 'modprobe rdma_rxe'
probe rmp 'modprobe rdma_rmp'
probe programs 'rdma dev && ibv_devices && /usr/bin/python3 -c "import pyverbs"'
PROBES
answers=$(cd tests && ./vm/run -- bash "$repo/$mark.sh" "$repo" "$mark" 2>&1)
answered() { grep -qx "$1 yes" <<<"$answers" || { echo "$answers"; return 1; }; }
check "output reaches the caller" grep -qx hello-from-guest <<<"$answers"
check "guest runs in the caller's directory" answered cwd
check "repository is writable from the guest" grep -qx written "$mark"
rm -f "$mark" "$mark.sh"
check "host root is read-only in the guest" answered read-only
check "tmpfs on /tmp, /run, /var/tmp, /dev/shm" answered tmpfs
check "modprobe rdma_rxe works (dependencies resolved)" answered rxe
check "modprobe rdma_rmp works" answered rmp
check "host programs run in the guest (rdma, ibv_devices, python3)" answered programs

# A boot deadline of 0 s stops every boot before the guest's init.
out=$(RMP_BOOT_TIMEOUT=0 run true 2>&1)
status=$?
check "a guest that does not boot fails the run" test "$status" = 124
check "a boot that stalls is tried three times" \
	test "$(grep -c 'did not boot within 0s' <<<"$out")" = 3

out=$(run bash -c 'echo l > /proc/sysrq-trigger; sleep 1; true' 2>&1)
status=$?
check "a backtrace in the console fails a passing command" test "$status" != 0
check "the report is printed" grep -q "kernel report" <<<"$out"

t_done
