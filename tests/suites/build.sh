#!/bin/bash
# Host-side build checks: the module builds with W=1 and no warning against
# the test kernels and against Debian's installed 6.1 headers; sparse,
# checkpatch --strict and kernel-doc are clean on rmp's sources, and every
# non-static function has its kernel-doc; rmpctl and librmpdv build
# without warnings; the netlink spec and the uapi header agree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
cd "$repo" || exit

# clean_build DESC MAKEARGS...: builds, then requires rdma_rmp.ko and no
# compiler or sparse diagnostics in the output.
clean_build() {
	local desc=$1 out status
	shift
	out=$(make "$@" 2>&1)
	status=$?
	if [ $status != 0 ]; then
		t_not_ok "$desc (make failed)"
	elif grep -qE '(warning|error):' <<<"$out"; then
		t_not_ok "$desc (diagnostics)"
	else
		t_ok "$desc"
		return
	fi
	grep -E '(warning|error):' <<<"$out" | head -n 30 | sed 's/^/#   /'
	[ $status = 0 ] || tail -n 20 <<<"$out" | sed 's/^/#   /'
}

clean_build "W=1 build against the test kernel" modules
check "rdma_rmp.ko and rmp_kunit.ko built" \
	test -f build/mod/normal/drivers/infiniband/sw/rmp/rdma_rmp.ko -a \
	-f build/mod/normal/drivers/infiniband/sw/rmp/rmp_kunit.ko
check "module declares the rmp link type alias" bash -c \
	"modinfo build/mod/normal/drivers/infiniband/sw/rmp/rdma_rmp.ko | grep -q 'alias:.*rdma-link-rmp'"
clean_build "W=1 build against the debug test kernel" DEBUG=1 modules
clean_build "sparse (C=2) is clean" sparse
check "checkpatch --strict is clean" make -s style
check "kernel-doc comments are well formed" make -s kdoc-format
check "every non-static function has kernel-doc" tests/tools/check-kdoc-missing
check "rmpctl builds with -Wall -Wextra -Werror" make -s -B -C userspace/rmpctl
check "librmpdv, its example and test build with -Wall -Wextra -Werror" \
	make -s -B -C userspace/librmpdv
check "netlink spec and uapi header agree" tests/tools/check-netlink-spec

found=0
for kdir in /usr/src/linux-headers-6.1.*-amd64; do
	[ -e "$kdir/Makefile" ] || continue
	found=1
	clean_build "W=1 build against Debian headers $(basename "$kdir")" KDIR="$kdir" modules
done
if [ $found = 0 ]; then
	t_not_ok "Debian linux-headers-6.1 for amd64 installed (tests/setup installs them)"
fi

t_done
