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

check "output reaches the caller" bash -c \
	"tests/vm/run -- echo hello-from-guest 2>&1 | grep -qx hello-from-guest"
check "guest runs in the caller's directory" bash -c \
	"cd tests && ./vm/run -- pwd 2>&1 | grep -qx '$repo/tests'"

mark=build/vm-selftest.$$
run bash -c "echo written > $mark" >/dev/null 2>&1
check "repository is writable from the guest" grep -qx written "$mark"
rm -f "$mark"
check "host root is read-only in the guest" run bash -c \
	'! touch /usr/rmp-vm-selftest 2>/dev/null'
check "tmpfs on /tmp, /run, /var/tmp, /dev/shm" run bash -c \
	'for d in /tmp /run /var/tmp /dev/shm; do [ "$(stat -f -c %T $d)" = tmpfs ] || exit 1; done'
check "modprobe rdma_rxe works (dependencies resolved)" run modprobe rdma_rxe
check "modprobe rdma_rmp works" run modprobe rdma_rmp
check "host programs run in the guest (rdma, ibv_devices, python3)" run bash -c \
	'rdma dev >/dev/null && ibv_devices >/dev/null && /usr/bin/python3 -c "import pyverbs"'

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
