#!/bin/bash
# Host-side installation checks (no guest): make install into a staging
# tree puts every file where it belongs with its mode, and the module is
# the one built for that kernel; it works as an unprivileged user; in a
# tree with an installed kernel depmod indexes the module; make uninstall
# leaves no file of rmp's. dkms.conf sources with what DKMS needs, the
# sources make dkms-install copies build with its MAKE line against
# Debian's 6.1 headers, and dkms itself builds them from private trees.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
cd "$repo" || exit

# Every staging, image and DKMS tree of this suite, removed on exit.
scratch=$(mktemp -d /tmp/rmp-install.XXXXXX)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT

kdir=$(tests/kernel/build normal) || exit 1
krel=$(make -s -C "$kdir" kernelrelease)
built=build/mod/normal/drivers/infiniband/sw/rmp/rdma_rmp.ko
version=$(bash -c '. ./dkms.conf && echo "$PACKAGE_VERSION"')

# files DIR: every file and link under DIR as "MODE PATH", sorted.
files() {
	find "$1" \( -type f -o -type l \) -printf '%m %P\n' | sort
}

# expected PREFIX RELEASE: what make install must put, as files prints it.
expected() {
	local f
	{
		echo "644 lib/modules/$2/extra/rdma_rmp.ko"
		echo "755 ${1#/}/sbin/rmpctl"
		echo "644 ${1#/}/share/man/man8/rmpctl.8"
		echo "644 ${1#/}/include/rdma/rmp_netlink.h"
		echo "644 ${1#/}/include/rdma/rmp_user_ioctl.h"
		echo "644 ${1#/}/include/rmpdv.h"
		echo "644 ${1#/}/lib/librmpdv.so.0"
		echo "777 ${1#/}/lib/librmpdv.so"
		echo "644 ${1#/}/lib/librmpdv.a"
		echo "644 ${1#/}/lib/pkgconfig/librmpdv.pc"
		for f in $(git ls-files 'userspace/librmpdv/man/*.3'); do
			echo "644 ${1#/}/share/man/man3/${f##*/}"
		done
		for f in $(git ls-files 'userspace/librmpdv/examples/*.[ch]'); do
			echo "644 ${1#/}/share/doc/rmp/examples/${f##*/}"
		done
		for f in $(git ls-files 'Documentation/rmp/*.rst') \
			Documentation/netlink/specs/rmp.yaml \
			Documentation/ABI/testing/sysfs-class-infiniband-rmp; do
			echo "644 ${1#/}/share/doc/rmp/${f##*/}"
		done
	} | sort
}

# same_list WANT GOT: both lists equal; the difference otherwise.
same_list() {
	diff -u <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

# module_is KO RELEASE: the file is rmp's module, of the package's
# version, built for RELEASE.
module_is() {
	if [ "$(modinfo -F name "$1")" != rdma_rmp ] ||
		[ "$(modinfo -F version "$1")" != "$version" ] ||
		[ "$(modinfo -F vermagic "$1" | cut -d' ' -f1)" != "$2" ]; then
		modinfo "$1"
		return 1
	fi
}

check "module, rmpctl and librmpdv build" bash -c \
	'make -s modules && make -s rmpctl && make -s librmpdv'
check "version is dkms.conf's PACKAGE_VERSION ($version)" \
	test -n "$version" -a "$(make -s version)" = "$version"

# A package's staging tree, the test kernel, the default PREFIX.
stage=$scratch/stage
check "make install DESTDIR=<staging tree>" make -s install DESTDIR="$stage"
check "every file in place with its mode, nothing else" \
	same_list "$(expected /usr/local "$krel")" "$(files "$stage")"
mod=$stage/lib/modules/$krel/extra/rdma_rmp.ko
check "installed module is the built one" cmp "$built" "$mod"
check "modinfo: rdma_rmp, version $version, vermagic $krel" module_is "$mod" "$krel"
check "rmpctl, man page, uapi header are the built/source files" bash -c "
	cmp build/rmpctl/rmpctl '$stage/usr/local/sbin/rmpctl' &&
	cmp userspace/rmpctl/rmpctl.8 '$stage/usr/local/share/man/man8/rmpctl.8' &&
	cmp include/uapi/rdma/rmp_netlink.h '$stage/usr/local/include/rdma/rmp_netlink.h'"
check "librmpdv, its header and pages are the built/source files" bash -c "
	cmp build/librmpdv/librmpdv.so.0 '$stage/usr/local/lib/librmpdv.so.0' &&
	cmp build/librmpdv/librmpdv.a '$stage/usr/local/lib/librmpdv.a' &&
	test \"\$(readlink '$stage/usr/local/lib/librmpdv.so')\" = librmpdv.so.0 &&
	cmp userspace/librmpdv/rmpdv.h '$stage/usr/local/include/rmpdv.h' &&
	cmp userspace/librmpdv/man/rmpdv.3 '$stage/usr/local/share/man/man3/rmpdv.3'"
# The installed .pc file, header and library build the installed example.
pc_env=(env PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig"
	PKG_CONFIG_SYSROOT_DIR="$stage")
check "librmpdv.pc: version $version, libdir /usr/local/lib" bash -c "
	[ \"\$(\"\$@\" pkg-config --modversion librmpdv)\" = '$version' ] &&
	[ \"\$(\"\$@\" pkg-config --variable=libdir librmpdv)\" = /usr/local/lib ]" \
	_ env PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig"
check "the installed example builds with pkg-config against the staged tree" \
	bash -c "cd '$stage/usr/local/share/doc/rmp/examples' &&
	cc -Wall -Wextra -Werror -o '$scratch/rmpdv_paths' rmpdv_paths.c loopback.c \
		\$(\"\$@\" pkg-config --cflags --libs librmpdv) -libverbs" \
	_ "${pc_env[@]}"
check "make uninstall DESTDIR=<staging tree>" make -s uninstall DESTDIR="$stage"
check "uninstall leaves no file" same_list "" "$(files "$stage")"
check "uninstall removes rmp's doc folder" test ! -e "$stage/usr/local/share/doc/rmp"

check_fails "install without a built module refuses, installs nothing" \
	'missing: run make' make -s install DESTDIR="$scratch/none" MODTAG=none
check "... and creates no file" test ! -e "$scratch/none"

# An image's root with the test kernel's modules: depmod indexes ours.
img=$scratch/img
mkdir -p "$img/lib/modules"
cp -a "$kdir/modroot/lib/modules/$krel" "$img/lib/modules/"
rm -f "$img/lib/modules/$krel/build"
kernel_files=$(files "$img")
check "make install into a tree with a module index" \
	make -s install DESTDIR="$img" PREFIX=/usr
check "depmod indexed it with its dependencies" grep -qE \
	"^extra/rdma_rmp.ko: .*kernel/net/ipv4/udp_tunnel.ko" "$img/lib/modules/$krel/modules.dep"
check "modprobe resolves it in that tree" bash -c \
	"modprobe -d '$img' -S '$krel' --show-depends rdma_rmp | grep -q 'insmod .*/extra/rdma_rmp.ko'"
check "make uninstall from that tree" make -s uninstall DESTDIR="$img" PREFIX=/usr
check "depmod dropped it from the index" bash -c \
	"! grep -q rdma_rmp '$img/lib/modules/$krel/modules.dep'"
check "the kernel's own files are all there, no rmp file left" bash -c \
	"diff <(printf '%s\n' \"\$1\" | grep -v ' lib/modules/.*/modules\.') \
	      <(printf '%s\n' \"\$2\" | grep -v ' lib/modules/.*/modules\.')" _ \
	"$kernel_files" "$(files "$img")"

# A real host's way: Debian's 6.1 headers, an unprivileged installer.
hdr=
for d in /usr/src/linux-headers-6.1.*-amd64; do
	[ -e "$d/Makefile" ] && hdr=$d
done
if [ -z "$hdr" ]; then
	t_not_ok "Debian linux-headers-6.1 for amd64 installed (tests/setup installs them)"
	t_done
	exit
fi
drel=${hdr#/usr/src/linux-headers-}
check "KVER=$drel alone builds against /lib/modules/$drel/build" bash -c \
	"make -n KVER='$drel' modules | grep -q -- '-C /lib/modules/$drel/build '"
check "module builds against $drel" make -s KDIR="$hdr" modules
user=$scratch/user
mkdir "$user" && chown nobody: "$user"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
check "make install as nobody, PREFIX=/usr, KDIR=$hdr" \
	as_nobody make -s install DESTDIR="$user" PREFIX=/usr KDIR="$hdr"
check "every file in place with its mode, nothing else" \
	same_list "$(expected /usr "$drel")" "$(files "$user")"
check "modinfo: rdma_rmp, version $version, vermagic $drel" \
	module_is "$user/lib/modules/$drel/extra/rdma_rmp.ko" "$drel"
check "make uninstall as nobody" \
	as_nobody make -s uninstall DESTDIR="$user" PREFIX=/usr KDIR="$hdr"
check "uninstall leaves no file" same_list "" "$(files "$user")"

# dkms.conf, read the way DKMS reads it: sourced with kernelver set.
dkms_var() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	kernelver=$drel bash -c '. ./dkms.conf && eval "echo \"\${$1}\""' _ "$1"
}
# var_is NAME WANT: dkms.conf sets NAME to WANT.
var_is() {
	local got
	got=$(dkms_var "$1")
	[ "$got" = "$2" ] || { echo "$1 is '$got', want '$2'"; return 1; }
}
check "dkms.conf: PACKAGE_NAME rmp" var_is PACKAGE_NAME rmp
check "dkms.conf: BUILT_MODULE_NAME rdma_rmp" var_is 'BUILT_MODULE_NAME[0]' rdma_rmp
check "dkms.conf: DEST_MODULE_LOCATION /updates/dkms" \
	var_is 'DEST_MODULE_LOCATION[0]' /updates/dkms
check "dkms.conf: AUTOINSTALL yes" var_is AUTOINSTALL yes
check "dkms.conf: MAKE builds against /lib/modules/\$kernelver/build" \
	grep -q -- "KDIR=/lib/modules/$drel/build " <<<"$(dkms_var 'MAKE[0]')"
excl=$(dkms_var BUILD_EXCLUSIVE_KERNEL)
check "dkms.conf: 6.1 kernels only ($excl)" bash -c \
	"[[ '$drel' =~ \$1 ]] && ! [[ 6.12.0-1-amd64 =~ \$1 ]]" _ "$excl"

src=$scratch/dkms/usr/src/rmp-$version
check "make dkms-install DESTDIR=<staging tree> copies the sources" \
	make -s dkms-install DESTDIR="$scratch/dkms"
check "the copy holds the build's sources, no build output or tests" bash -c "
	cd '$src' && [ -f dkms.conf -a -f Makefile -a -f Kbuild -a -d drivers -a -d include ] &&
	[ ! -e build -a ! -e tests ] &&
	diff -r '$repo/drivers' drivers && diff -r '$repo/include' include"
check "dkms.conf's MAKE line builds the module in the copy" bash -c "
	cd '$src' && eval \"\$1\" >/dev/null" _ "$(dkms_var 'MAKE[0]')"
check "the module is where BUILT_MODULE_LOCATION says, for $drel" \
	module_is "$src/$(dkms_var 'BUILT_MODULE_LOCATION[0]')rdma_rmp.ko" "$drel"
rm -rf "$src/build"

# dkms itself, on private trees (dkms install would run depmod on the
# host's /lib/modules, so only add and build).
if ! command -v dkms >/dev/null; then
	t_not_ok "dkms installed (tests/setup installs it)"
else
	dk=(dkms --dkmstree "$scratch/dkms/var/lib/dkms" --sourcetree "$scratch/dkms/usr/src")
	mkdir -p "$scratch/dkms/var/lib/dkms"
	check "dkms add" "${dk[@]}" add -m rmp -v "$version"
	check "dkms build -k $drel" nice "${dk[@]}" build -m rmp -v "$version" -k "$drel"
	check "dkms status: built for $drel" bash -c \
		"\"\$@\" status -m rmp -v '$version' | grep -q '$drel.*: built'" _ "${dk[@]}"
	check "dkms's module: rdma_rmp, version $version, vermagic $drel" module_is \
		"$scratch/dkms/var/lib/dkms/rmp/$version/$drel/$(uname -m)/module/rdma_rmp.ko" "$drel"
fi

t_done
