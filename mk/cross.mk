# mk/cross.mk - the runtime and test programs for other targets (issue 21).
#
#   make cross-aarch64   build-aarch64/lib/libpct.so, libpct.a and the test
#                        programs, with Debian's gcc-aarch64-linux-gnu; they
#                        run under qemu-aarch64 -L /usr/aarch64-linux-gnu
#                        (e2e 116), and the x86_64 build/bin/pct reports them
#   make musl            build-musl/lib/libpct.a with musl-gcc (Debian
#                        musl-tools) and a static musl selftime (e2e 117)
#
# Each is a sub-make of this Makefile's runtime and test-program rules with
# another CC and build directory B; the tool (build/bin/pct) stays native.

AARCH64_CC ?= aarch64-linux-gnu-gcc
MUSL_CC    ?= musl-gcc
# the programs the cross tests run: selftime (functions timing themselves
# with CLOCK_THREAD_CPUTIME_ID) and callchain (stacks without frame pointers)
CROSS_PROGS := tests/progs/selftime tests/progs/callchain

cross-aarch64:
	@command -v $(AARCH64_CC) >/dev/null || { echo "pct: $(AARCH64_CC) missing (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2; exit 1; }
	@$(MAKE) --no-print-directory B=build-aarch64 CC=$(AARCH64_CC) \
		build-aarch64/lib/libpct.so build-aarch64/lib/libpct.a $(CROSS_PROGS:%=build-aarch64/%)

# musl: libpct.a only (a static musl program cannot preload a .so), and
# selftime linked statically with it; -Wl,-u,pct_on pulls in the runtime,
# whose constructor starts profiling when $PCT is set (as selftime-static)
# musl-gcc searches musl's headers only: the kernel's (linux/seccomp.h,
# linux/perf_event.h, and the asm/ they include) come from Debian's
# linux-libc-dev through a directory of links, build-musl/kinc
MUSL_KINC := build-musl/kinc
musl:
	@command -v $(MUSL_CC) >/dev/null || { echo "pct: $(MUSL_CC) missing (Debian: musl-tools)" >&2; exit 1; }
	@mkdir -p $(MUSL_KINC)
	@ln -sfn /usr/include/linux $(MUSL_KINC)/linux
	@ln -sfn /usr/include/asm-generic $(MUSL_KINC)/asm-generic
	@ln -sfn /usr/include/$$(gcc -print-multiarch)/asm $(MUSL_KINC)/asm
	@$(MAKE) --no-print-directory B=build-musl CC="$(MUSL_CC) -isystem $(MUSL_KINC)" \
		build-musl/lib/libpct.a build-musl/tests/progs/selftime-static

.PHONY: cross-aarch64 musl

# `make clean` removes build/ and its kin; these are removed here
clean-cross:
	rm -rf build-aarch64 build-musl

.PHONY: clean-cross
