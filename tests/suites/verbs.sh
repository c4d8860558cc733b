#!/bin/bash
# rmp's verbs, driven through rdma-core's stock provider from pyverbs, in the
# test guest:  tests/vm/run [--debug] -- tests/suites/verbs.sh [PATTERN]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/hosts.sh"

# Host programs some tests run (tests/run has built them already).
make -s -C "$here/../unit" tools >/dev/null || exit 1
make -s -C "$here/../../userspace/rmpctl" >/dev/null || exit 1
make -s -C "$here/../../userspace/librmpdv" >/dev/null || exit 1
# The debug kernel (KASAN, lockdep, kmemleak) takes fuzzed packets 40 times
# slower (100000 in 139 s, against a million in 40 s): 20000 there, the
# same mutations of every field, each many times; the million is the
# normal kernel's.
# It creates and frees objects 4 times slower: test_limits.py scales down
# (12 minutes there at full scale).
case $(uname -r) in
*-rmp-debug)
	export RMP_FUZZ_PACKETS=${RMP_FUZZ_PACKETS:-20000}
	export RMP_LIMITS_SCALE=${RMP_LIMITS_SCALE:-4}
	;;
esac
modprobe rdma_rmp || exit 1
hosts_pair h1 h2
ip netns exec h1 rdma link add rmp1 type rmp netdev eth0 || exit 1
exec ip netns exec h1 /usr/bin/python3 "$here/../verbs/run.py" rmp1 "$@"
