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

REPO := $(CURDIR)
VARIANT := $(if $(filter 1 y yes,$(DEBUG)),debug,normal)

ifeq ($(KDIR),)
KDIR = $(shell $(REPO)/tests/kernel/build $(VARIANT))
MODDIR := $(REPO)/build/mod/$(VARIANT)
else
MODDIR := $(REPO)/build/mod/kdir-$(shell echo '$(KDIR)' | md5sum | cut -c1-8)
endif
KSRC = $(shell readlink -f $(KDIR)/source 2>/dev/null || echo $(KDIR))
W ?= 1

SRCS := Kbuild drivers $(wildcard include)
SYNC := rsync -rt --delete \
	--filter='P *.o' --filter='P *.ko' --filter='P *.mod' --filter='P *.mod.c' \
	--filter='P .*.cmd' --filter='P *.a' --filter='P modules.order' \
	--filter='P Module.symvers' --filter='P .*.d' --filter='P *.tmp'

.PHONY: all modules kunit unit fuzz test bench engine-bench demo sparse style kdoc clean \
	rmpctl userspace

all: modules

# Kbuild writes objects next to the sources, so each kernel gets its own copy
# of the tree under build/mod/ and the checkout stays clean.
modules:
	@mkdir -p $(MODDIR)
	@$(SYNC) $(SRCS) $(MODDIR)/
	$(MAKE) -C $(KDIR) M=$(MODDIR) W=$(W) modules

rmpctl:
	$(MAKE) -C userspace/rmpctl

userspace: rmpctl

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

# About 5 minutes under TCG on a quiet host; the report is also in
# build/bench/last/
bench: modules
	tests/vm/run --timeout 1800 -- tests/bench/run

sparse:
	@mkdir -p $(MODDIR)
	@$(SYNC) $(SRCS) $(MODDIR)/
	$(MAKE) -C $(KDIR) M=$(MODDIR) C=2 modules

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

kdoc:
	$(KSRC)/scripts/kernel-doc -none -Werror \
		$$(git ls-files 'drivers/*.c' 'drivers/*.h')

clean:
	rm -rf build
	$(MAKE) -C tests/unit clean 2>/dev/null || true

demo: modules
	tests/vm/run -- tests/demo.sh
