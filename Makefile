# SPDX-License-Identifier: GPL-2.0
#
# rmp: out-of-tree build of rdma_rmp.ko and its tests.
#
#   make                     build the modules against the rmp test kernel
#                            (built and cached on first use)
#   make DEBUG=1             ... against the debug test kernel
#   make KDIR=/lib/modules/$(uname -r)/build   against installed headers
#   make kunit [DEBUG=1]     run the KUnit suites in a QEMU guest
#   make unit                run the engine's tests in userspace
#   make fuzz [FUZZ_SECONDS=N]   the engine's libFuzzer targets, N s each
#   make test                the whole test suite (see tests/run)
#   make bench               perftest on rxe and rmp side by side, in a guest
#   make sparse style kdoc   static checks
#   make rmpctl (userspace)  rmpctl into build/rmpctl/
#   make librmpdv            librmpdv, its example and test into build/librmpdv/
#   make install [DESTDIR=] [PREFIX=/usr/local] [KVER=|KDIR=]
#                            module, rmpctl, librmpdv, man pages, headers,
#                            pkg-config file, docs and example
#   make uninstall           removes what install put (same variables)
#   make dkms-install        sources into /usr/src/rmp-<version>, dkms install
#   make dkms-remove         dkms remove, sources deleted

REPO := $(CURDIR)
VARIANT := $(if $(filter 1 y yes,$(DEBUG)),debug,normal)
# The package's one version (DKMS needs it literally in dkms.conf); the
# module reports it (modinfo's version).
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(REPO)/dkms.conf)

# KVER=RELEASE alone means that kernel's installed headers.
ifneq ($(KVER),)
KDIR ?= /lib/modules/$(KVER)/build
endif
# MODTAG names the folder under build/mod/ (DKMS sets it, to find the .ko).
ifeq ($(KDIR),)
KDIR = $(shell $(REPO)/tests/kernel/build $(VARIANT))
MODTAG ?= $(VARIANT)
else
MODTAG ?= kdir-$(shell echo '$(KDIR)' | md5sum | cut -c1-8)
endif
MODDIR := $(REPO)/build/mod/$(MODTAG)
KSRC = $(shell readlink -f $(KDIR)/source 2>/dev/null || echo $(KDIR))
# The release the module is built for is the one its vermagic carries:
# UTS_RELEASE. (Debian's headers' kernel.release says 6.1.192, not
# 6.1.0-57-amd64.)
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
W ?= 1
# Kernel builds use every CPU unless the caller chose its own -j (a -j
# forced on a sub-make would leave the caller's job server). Expanded in
# recipes: only there does MAKEFLAGS show the caller's -j.
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

SRCS := Kbuild drivers $(wildcard include)
# By content, and a copied file gets the time of the copy: a source edited
# while a build ran is older than that build's object, and with its own
# time kept the next build would take the object for up to date.
SYNC := rsync -rc --delete \
	--filter='P *.o' --filter='P *.ko' --filter='P *.mod' --filter='P *.mod.c' \
	--filter='P .*.cmd' --filter='P *.a' --filter='P modules.order' \
	--filter='P Module.symvers' --filter='P .*.d' --filter='P *.tmp'

.PHONY: all modules kunit unit fuzz test bench engine-bench demo sparse style kdoc \
	kdoc-format clean rmpctl librmpdv userspace install uninstall dkms-install \
	dkms-remove version

all: modules

# Kbuild writes objects next to the sources, so each kernel gets its own copy
# of the tree under build/mod/ and the checkout stays clean.
modules:
	@mkdir -p $(MODDIR)
	@$(SYNC) $(SRCS) $(MODDIR)/
	$(MAKE) $(JOBS) -C $(KDIR) M=$(MODDIR) W=$(W) RMP_VERSION=$(VERSION) modules

rmpctl:
	$(MAKE) -C userspace/rmpctl

librmpdv:
	$(MAKE) -C userspace/librmpdv

userspace: rmpctl librmpdv

# Installation. The module goes where kbuild puts external modules
# (/lib/modules/<release>/extra, under DESTDIR, whatever PREFIX is); the
# rest under PREFIX. rmpctl is an administrator's tool with a section 8
# page, so sbin, as iproute2's rdma and rdma-core's daemons.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DOCDIR ?= $(PREFIX)/share/doc/rmp
DEPMOD ?= $(firstword $(wildcard /sbin/depmod /usr/sbin/depmod) depmod)

# What install puts where, one group per line: GROUP_files go into
# GROUP_dir with mode GROUP_mode. A new piece is a new group.
INSTALL_GROUPS := module sbin man8 uapi doc lib header man3 example
module_dir = /lib/modules/$(KVER)/extra
module_mode := 0644
module_files = $(MODDIR)/drivers/infiniband/sw/rmp/rdma_rmp.ko
sbin_dir = $(SBINDIR)
sbin_mode := 0755
sbin_files := build/rmpctl/rmpctl
man8_dir = $(MANDIR)/man8
man8_mode := 0644
man8_files := userspace/rmpctl/rmpctl.8
uapi_dir = $(INCLUDEDIR)/rdma
uapi_mode := 0644
uapi_files := include/uapi/rdma/rmp_netlink.h include/uapi/rdma/rmp_user_ioctl.h
doc_dir = $(DOCDIR)
doc_mode := 0644
doc_files := $(wildcard Documentation/rmp/*.rst) \
	Documentation/netlink/specs/rmp.yaml \
	Documentation/ABI/testing/sysfs-class-infiniband-rmp
# librmpdv: the library, its header, its pages (rmpdv.3, and one per
# function that sources it), the example's sources.
lib_dir = $(LIBDIR)
lib_mode := 0644
lib_files := build/librmpdv/librmpdv.so.0 build/librmpdv/librmpdv.a
header_dir = $(INCLUDEDIR)
header_mode := 0644
header_files := userspace/librmpdv/rmpdv.h
man3_dir = $(MANDIR)/man3
man3_mode := 0644
man3_files := $(wildcard userspace/librmpdv/man/*.3)
example_dir = $(DOCDIR)/examples
example_mode := 0644
example_files := $(wildcard userspace/librmpdv/examples/*.[ch])
# Made by install, not copied: the development link and the .pc file,
# which says where the library and its header went.
extra_installed = $(DESTDIR)$(LIBDIR)/librmpdv.so \
	$(DESTDIR)$(PKGCONFIGDIR)/librmpdv.pc

# One command per line in a recipe: $(foreach ...,CMD$(\n))
define \n


endef

installed = $(foreach g,$(INSTALL_GROUPS),\
	$(addprefix $(DESTDIR)$($(g)_dir)/,$(notdir $($(g)_files)))) \
	$(extra_installed)

define need-kver
	@test -n "$(KVER)" || { echo "$@: no kernel release in $(KDIR)" >&2; exit 1; }
endef

# depmod updates the index of a tree that has one: / or an image's root. A
# package's staging tree has none (its post-install script runs depmod on
# the target), and an index written there would clash with the kernel's.
define depmod
	@if [ -e "$(DESTDIR)/lib/modules/$(KVER)/modules.dep" ]; then \
		echo "$(DEPMOD) -a $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)"; \
		$(DEPMOD) -a $(if $(DESTDIR),-b $(DESTDIR)) $(KVER); \
	else \
		echo "depmod skipped: no $(DESTDIR)/lib/modules/$(KVER)/modules.dep"; \
	fi
endef

# ldconfig refreshes the cache of a host's libraries; a staging tree
# (DESTDIR) leaves that to the package's scripts.
define ldconfig
	$(if $(DESTDIR),@echo "ldconfig skipped: DESTDIR set",-ldconfig)
endef

# Installs what make, make rmpctl and make librmpdv built, with the same
# KDIR/KVER/DEBUG; builds nothing, so that sudo make install leaves no
# root-owned files in build/ and a packager's install step only reads the
# tree.
install:
	$(need-kver)
	@for f in $(module_files) $(sbin_files) $(lib_files); do test -e $$f || \
		{ echo "install: $$f missing: run make, make rmpctl and make librmpdv first" >&2; exit 1; }; done
	$(foreach g,$(INSTALL_GROUPS),\
		install -D -m $($(g)_mode) -t $(DESTDIR)$($(g)_dir) $($(g)_files)$(\n))
	ln -sf librmpdv.so.0 $(DESTDIR)$(LIBDIR)/librmpdv.so
	$(MAKE) -s -C userspace/librmpdv pc PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) \
		INCLUDEDIR=$(INCLUDEDIR) PCFILE=$(abspath $(DESTDIR)$(PKGCONFIGDIR))/librmpdv.pc
	$(depmod)
	$(ldconfig)

# Removes exactly the files install put, and the folders only rmp uses.
uninstall:
	$(need-kver)
	rm -f $(installed)
	rmdir --ignore-fail-on-non-empty $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR) 2>/dev/null || true
	$(depmod)
	$(ldconfig)

# DKMS: the sources DKMS builds from (dkms.conf's MAKE runs this Makefile
# there), copied to /usr/src/rmp-<version>. Into a DESTDIR (a package) only
# the copy; on the host also dkms add and install, for the running kernel
# or KVER=.
DKMS_SRC = $(DESTDIR)/usr/src/rmp-$(VERSION)
DKMS_FILES := dkms.conf Makefile Kbuild drivers include
DKMS ?= dkms
dkms_kver = $(if $(filter command line,$(origin KVER)),-k $(KVER))

# Replaces a registration of the same version (dkms add refuses twice).
dkms-install: dkms-remove
	install -d $(DKMS_SRC)
	cp -R $(DKMS_FILES) $(DKMS_SRC)/
ifeq ($(DESTDIR),)
	$(DKMS) add -m rmp -v $(VERSION)
	$(DKMS) install -m rmp -v $(VERSION) $(dkms_kver)
endif

dkms-remove:
ifeq ($(DESTDIR),)
	@if $(DKMS) status -m rmp -v $(VERSION) 2>/dev/null | grep -q .; then \
		echo "$(DKMS) remove -m rmp -v $(VERSION) --all"; \
		$(DKMS) remove -m rmp -v $(VERSION) --all; \
	fi
endif
	rm -rf $(DKMS_SRC)

# The package version (dkms.conf's PACKAGE_VERSION)
version:
	@echo $(VERSION)

kunit: modules
	tests/kunit/run $(if $(filter debug,$(VARIANT)),--debug)

unit:
	$(MAKE) -C tests/unit check

fuzz:
	$(MAKE) -C tests/unit fuzz

# The engine's per-packet decisions, timed on the host (userspace)
engine-bench:
	$(MAKE) -C tests/unit bench

test:
	tests/run

# About 7 minutes under TCG (405 s, December 2026); the report is also in
# build/bench/last/. BENCH_* variables (tests/bench/run) go to the guest.
bench: modules
	tests/vm/run --timeout 3600 -- env $(foreach v,$(filter BENCH_%,$(.VARIABLES)),'$(v)=$($(v))') tests/bench/run

sparse:
	@mkdir -p $(MODDIR)
	@$(SYNC) $(SRCS) $(MODDIR)/
	$(MAKE) $(JOBS) -C $(KDIR) M=$(MODDIR) C=2 RMP_VERSION=$(VERSION) modules

# engine/compat.h is exempt: its userspace half must spell stdint types;
# so is rmp_trace.h from the layout checks, written in the TRACE_EVENT
# layout every kernel trace header has.
style:
	$(KSRC)/scripts/checkpatch.pl --strict --no-tree --quiet \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,MACRO_ARG_REUSE -f \
		$$(git ls-files 'drivers/*.c' 'drivers/*.h' 'include/*.h' | \
		   grep -v -e engine/compat.h -e rmp_trace.h)
	$(KSRC)/scripts/checkpatch.pl --strict --no-tree --quiet \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE \
		-f drivers/infiniband/sw/rmp/rmp_trace.h

# kernel-doc: the comments there are well formed (kdoc-format), and every
# non-static function has one (tests/tools/check-kdoc-missing).
kdoc: kdoc-format
	tests/tools/check-kdoc-missing

kdoc-format:
	$(KSRC)/scripts/kernel-doc -none -Werror \
		$$(git ls-files 'drivers/*.[ch]' 'userspace/*.[ch]')

clean:
	rm -rf build
	$(MAKE) -C tests/unit clean 2>/dev/null || true

demo: modules
	tests/vm/run -- tests/demo.sh
