# pct - program-counter sampling profiler.
#
#   make                 build build/bin/pct, build/lib/libpct.so and libpct.a
#   make demo            install missing Debian packages, build, profile xz -9
#   make check           install missing packages, build, run the tests
#                        (tests/run.sh: plain, ASan+UBSan, 60 s of fuzzing)
#   make check-full      everything: every test plain and sanitized, the
#                        long variants (PCT_TEST_FULL=1), then check-long
#   make check-long      the tests too long for make check (tests/long/)
#   make install [PREFIX=DIR] [DESTDIR=STAGE] [LIBDIR=DIR] [MANDIR=DIR] ...
#   make uninstall       remove what make install put there (same variables)
#   make bench           run the benchmarks in bench/ (prints ratios)
#
# CFLAGS, CPPFLAGS and LDFLAGS are honoured (as dpkg-buildflags gives them).

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
CC      ?= cc
CFLAGS  ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter
# The pct tool parses untrusted files: Debian's hardening flags
# (dpkg-buildflags, hardening=+all), whatever CFLAGS says.  Not for the
# runtime, which runs on the signal path of other programs (below).
HARDEN_CFLAGS := -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
HARDEN_LDFLAGS := -pie -Wl,-z,relro -Wl,-z,now
ALL_CFLAGS := -std=gnu11 $(WARN) $(HARDEN_CFLAGS) $(CFLAGS) $(CPPFLAGS) -Iinclude
# the runtime's library: SONAME libpct.so.$(SOMAJOR), file libpct.so.$(SOVERSION),
# exports as lib/libpct.map lists them
SOMAJOR := 1
SOVERSION := $(SOMAJOR).0.0
B       := build

LIB_SRC := $(wildcard lib/*.c)
LIB_OBJ := $(LIB_SRC:lib/%.c=$(B)/obj/lib/%.o)
# src/ in layers, each including only those below it (README, Layout):
# cmd > export > report > attach > format > symbols > core, then include/
LAYERS  := cmd export report attach format symbols core
TOOL_SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
SRC_INC := $(foreach l,$(LAYERS),-Isrc/$(l))
# pprof's profile.proto as Debian ships it (golang-github-google-pprof-dev),
# compiled to C by protoc-c for export_pprof.c
PROTO   := /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
GEN     := $(B)/gen
# the browser code (src/html/*.js, *.css), embedded by assets.S
HTML_OBJ := $(B)/obj/src/html/assets.o
TOOL_OBJ := $(TOOL_SRC:src/%.c=$(B)/obj/src/%.o) $(B)/obj/gen/profile.pb-c.o $(HTML_OBJ)
# the tools' code minus main(), for the unit tests; and minus pct top's
# screen, the one user of ncurses, which only the pct tool links
CORE_OBJ := $(filter-out $(B)/obj/src/cmd/pct.o $(B)/obj/src/cmd/cmd_top.o,$(TOOL_OBJ))
TOP_LIBS := -lncursesw
TOOL_LIBS := -ldw -ldebuginfod -lelf -lcapstone -larchive -lz -lprotobuf-c -liberty -lm

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

MAN := $(wildcard man/*.[1-9])

all: $(B)/bin/pct $(B)/lib/libpct.so $(B)/lib/libpct.a

# The runtime: libc only, hidden symbols, no stack protector or other
# instrumentation on the signal path.
LIB_CFLAGS ?= $(CFLAGS)
# the runtime's link flags: LDFLAGS, except in check-san, whose sanitizer
# flags must stay out of a library preloaded into uninstrumented programs
LIB_LDFLAGS ?= $(LDFLAGS)
$(B)/obj/lib/%.o: lib/%.c lib/*.h include/*.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) $(LIB_CFLAGS) $(CPPFLAGS) -Iinclude -fPIC -fvisibility=hidden -fno-stack-protector -c -o $@ $<

# libpct.so.1.0.0, its SONAME link libpct.so.1 (what pct record preloads)
# and the link for -lpct, libpct.so
$(B)/lib/libpct.so.$(SOVERSION): $(LIB_OBJ) lib/libpct.map
	@mkdir -p $(@D)
	$(CC) -shared $(LIB_LDFLAGS) -Wl,-soname,libpct.so.$(SOMAJOR) -Wl,--version-script=lib/libpct.map \
		-Wl,-z,relro -Wl,-z,now -o $@ $(LIB_OBJ)
$(B)/lib/libpct.so.$(SOMAJOR): $(B)/lib/libpct.so.$(SOVERSION)
	ln -sf libpct.so.$(SOVERSION) $@
$(B)/lib/libpct.so: $(B)/lib/libpct.so.$(SOMAJOR)
	ln -sf libpct.so.$(SOMAJOR) $@

# libpct.a: sig.c, threads.c and modules.c without their wrappers
# (sigaction and the signal mask; pthread_create; dlopen and dlclose),
# which a static program could not forward to libc (no dlsym, no next
# definition), and without exec.c's and limits.c's wrappers, for the same
# reason
LIB_STATIC := sig threads modules
LIB_A_OBJ := $(filter-out $(LIB_STATIC:%=$(B)/obj/lib/%.o) $(B)/obj/lib/exec.o $(B)/obj/lib/limits.o,$(LIB_OBJ)) \
	$(LIB_STATIC:%=$(B)/obj/lib/%-static.o)
$(B)/obj/lib/%-static.o: lib/%.c lib/*.h include/*.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) $(LIB_CFLAGS) $(CPPFLAGS) -Iinclude -DRT_NO_INTERPOSE -fPIC -fvisibility=hidden -fno-stack-protector -c -o $@ $<

$(B)/lib/libpct.a: $(LIB_A_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $(LIB_A_OBJ)

$(GEN)/profile.pb-c.c $(GEN)/profile.pb-c.h: $(PROTO)
	@mkdir -p $(GEN)
	protoc-c --c_out=$(GEN) -I$(dir $(PROTO)) $(PROTO)

$(B)/obj/gen/profile.pb-c.o: $(GEN)/profile.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(HARDEN_CFLAGS) $(CFLAGS) $(CPPFLAGS) -I$(GEN) -c -o $@ $<

$(B)/obj/src/%.o: src/%.c src/*/*.h include/*.h $(GEN)/profile.pb-c.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SRC_INC) -I$(GEN) -c -o $@ $<

# pct record finds the runtime beside its own executable
# (BINDIR/../lib/libpct.so.1), else in LIBDIR: launch.o is rebuilt when
# LIBDIR changes, make install LIBDIR=... included
$(B)/obj/src/core/launch.o: ALL_CFLAGS += -DPCT_LIBDIR='"$(LIBDIR)"' -DPCT_RUNTIME='"libpct.so.$(SOMAJOR)"'
$(B)/obj/src/core/launch.o: $(B)/libdir.txt
$(B)/libdir.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(LIBDIR)' | cmp -s - $@ || echo '$(LIBDIR)' > $@
FORCE:

$(HTML_OBJ): src/html/assets.S src/html/*.js src/html/*.css
	@mkdir -p $(@D)
	$(CC) -c -o $@ src/html/assets.S

$(B)/bin/pct: $(TOOL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(TOOL_LIBS) $(TOP_LIBS)

$(B)/tests/test_%: tests/unit/test_%.c tests/unit/unit.h $(CORE_OBJ) $(B)/lib/libpct.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(SRC_INC) -Ilib -o $@ $< $(CORE_OBJ) $(B)/lib/libpct.a $(TOOL_LIBS)

$(B)/tests/replay: tests/fuzz/replay.c tests/fuzz/fuzz_profile.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(SRC_INC) -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_profile.c $(CORE_OBJ) $(TOOL_LIBS)

unit: $(UNIT_BIN) $(B)/tests/replay

deps:
	@scripts/deps.sh

demo: deps all
	@scripts/demo.sh

# The tests (README, Testing): tests/run.sh runs JOBS of them at once
# (default: the number of CPUs), the plain build's and, in the same pool,
# the ASan+UBSan build's unit tests and those of its e2e tests that
# exercise the tool's readers and writers, and FUZZ_SECONDS of fuzzing.
# The plain build is made first; the sanitized and the fuzz builds are
# the runner's --prepare job, on one CPU beside the tests that run alone
# (the alone ones use one CPU, and hold under two busy loops).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PREPARE := $(MAKE) --no-print-directory -j1 check-san-build fuzz-build
check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all unit progs
	@tests/run.sh -j $(JOBS) --san --fuzz=$(FUZZ_SECONDS) --prepare='$(PREPARE)'

# Everything make check leaves out: every e2e test under ASan+UBSan too,
# the long variants of the tests that run fewer rounds in make check
# (PCT_TEST_FULL=1; README, Testing, lists them), then check-long.
check-full: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all unit progs
	@PCT_TEST_FULL=1 tests/run.sh -j $(JOBS) --san=all --fuzz=$(FUZZ_FULL_SECONDS) --prepare='$(PREPARE)'
	@$(MAKE) --no-print-directory check-long

# The tools and unit tests with AddressSanitizer and UBSan (the runtime
# stays plain: it is preloaded into programs that have no ASan runtime).
SAN := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# tests too long for make check (minutes each): tests/long/NN-*.sh,
# which use tests/e2e/lib.sh
check-long: deps all unit progs
	@for t in tests/long/[0-9]*.sh; do bash "$$t" || { echo "FAIL  $$t"; exit 1; }; echo "PASS  $$t"; done

check-san-build:
	@$(MAKE) --no-print-directory B=build-san CFLAGS="$(SAN)" LDFLAGS="-fsanitize=address,undefined" \
		LIB_CFLAGS="-O2 -g" LIB_LDFLAGS= all unit progs >/dev/null
# the whole suite against the sanitized build alone
check-san: check-san-build
	@echo "== the suite with ASan and UBSan (build-san)"
	@PCT_BUILD=build-san ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh -j $(JOBS)

# libFuzzer with clang over the reader and the report path, from the
# committed seeds; a finding is copied to tests/fuzz/regressions/.
# (make check: FUZZ_SECONDS; check-full: FUZZ_FULL_SECONDS)
FUZZ_SECONDS ?= 30
FUZZ_FULL_SECONDS ?= 120
FB := build-fuzz
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Iinclude $(SRC_INC) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
fuzz: fuzz-build
	@$(MAKE) --no-print-directory fuzz-run
fuzz-build: $(FB)/fuzz_profile
fuzz-run:
	@rm -rf $(FB)/corpus $(FB)/crashes && mkdir -p $(FB)/corpus $(FB)/crashes
	@echo "== fuzzing the reader and report path for $(FUZZ_SECONDS) s"
	@$(FB)/fuzz_profile -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=2 -print_final_stats=1 -artifact_prefix=$(FB)/crashes/ \
		$(FB)/corpus tests/fuzz/seeds > $(FB)/fuzz.log 2>&1; rc=$$?; \
		grep -E '^#[0-9]+.DONE|stat::number_of_executed_units|stat::peak_rss_mb' $(FB)/fuzz.log; \
		echo "corpus: $$(ls $(FB)/corpus | wc -l) inputs"; \
		if [ $$rc -ne 0 ] || [ -n "$$(ls $(FB)/crashes)" ]; then \
			cp $(FB)/crashes/* tests/fuzz/regressions/ 2>/dev/null; tail -40 $(FB)/fuzz.log; \
			echo "fuzz: FAILED, findings copied to tests/fuzz/regressions/"; exit 1; fi; \
		echo "fuzz: 1 passed, 0 failed"
FUZZ_SRC := $(filter-out src/cmd/pct.c src/cmd/cmd_top.c,$(TOOL_SRC))
$(FB)/fuzz_profile: tests/fuzz/fuzz_profile.c $(FUZZ_SRC) src/*/*.h include/*.h $(GEN)/profile.pb-c.c src/html/assets.S src/html/*.js src/html/*.css
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -I$(GEN) -o $@ tests/fuzz/fuzz_profile.c $(FUZZ_SRC) $(GEN)/profile.pb-c.c src/html/assets.S $(TOOL_LIBS)

bench: deps all progs
	@for b in bench/*.sh; do echo "== $$b"; $$b || exit 1; done

# pkg-config's file, written with the install's own directories
define PCT_PC
prefix=$(PREFIX)
libdir=$(LIBDIR)
includedir=$(INCLUDEDIR)

Name: libpct
Description: pct's sampling runtime: profiles a program with pct_on() and $$PCT
Version: $(SOVERSION)
Libs: -L$${libdir} -lpct
Cflags: -I$${includedir}
endef
export PCT_PC

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(B)/bin/pct $(DESTDIR)$(BINDIR)/pct
	install -m 755 $(B)/lib/libpct.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpct.so.$(SOVERSION)
	ln -sf libpct.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpct.so.$(SOMAJOR)
	ln -sf libpct.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libpct.so
	install -m 644 $(B)/lib/libpct.a $(DESTDIR)$(LIBDIR)/libpct.a
	install -m 644 include/pct.h include/pct_format.h $(DESTDIR)$(INCLUDEDIR)/
	echo "$$PCT_PC" > $(DESTDIR)$(PKGCONFIGDIR)/libpct.pc && chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/libpct.pc
	install -m 644 scripts/pct-completion.bash $(DESTDIR)$(BASHCOMPDIR)/pct
	for m in $(MAN); do s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

# every file install wrote, and nothing else (the directories stay)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pct $(DESTDIR)$(LIBDIR)/libpct.so.$(SOVERSION) \
		$(DESTDIR)$(LIBDIR)/libpct.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libpct.so $(DESTDIR)$(LIBDIR)/libpct.a \
		$(DESTDIR)$(INCLUDEDIR)/pct.h $(DESTDIR)$(INCLUDEDIR)/pct_format.h \
		$(DESTDIR)$(PKGCONFIGDIR)/libpct.pc $(DESTDIR)$(BASHCOMPDIR)/pct
	for m in $(MAN); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

clean:
	rm -rf build build-san build-fuzz

.PHONY: all unit deps demo check check-full check-long check-san check-san-build fuzz fuzz-build fuzz-run bench install uninstall clean FORCE

# Test workloads: built with -g, frame pointers or not as the compiler likes.
PROG_CFLAGS := -std=gnu11 -O2 -g -Iinclude
$(B)/tests/progs/selftime: tests/progs/selftime.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/selftime-static: tests/progs/selftime.c $(B)/lib/libpct.a
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -static -o $@ $< -Wl,-u,pct_on $(B)/lib/libpct.a
$(B)/tests/progs/selftime-manual: tests/progs/selftime.c $(B)/lib/libpct.a
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -DMANUAL -o $@ $< $(B)/lib/libpct.a
$(B)/tests/progs/burn-exec: tests/progs/burn-exec.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/hotline: tests/progs/hotline.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/mkprofile: tests/progs/mkprofile.c include/pct_format.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/libcwork: tests/progs/libcwork.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/work-full: tests/progs/work.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -DA_UNITS=16 -o $@ $<
$(B)/tests/progs/work-half: tests/progs/work.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -DA_UNITS=8 -o $@ $<
$(B)/tests/progs/work-fast: tests/progs/work.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -DA_UNITS=12 -o $@ $<
$(B)/tests/progs/die: tests/progs/die.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
# programs that pct must leave running exactly as without it (tests 56-66)
PROGS := $(B)/tests/progs/die $(B)/tests/progs/work-full $(B)/tests/progs/work-half $(B)/tests/progs/work-fast \
	$(B)/tests/progs/libcwork $(B)/tests/progs/hotline $(B)/tests/progs/mkprofile $(B)/tests/progs/selftime $(B)/tests/progs/selftime-static $(B)/tests/progs/selftime-manual \
	$(B)/tests/progs/burn-exec $(B)/tests/progs/threads4 $(B)/tests/progs/forkexec $(B)/tests/progs/dlplug \
	$(B)/tests/progs/libplug-a.so $(B)/tests/progs/libplug-b.so $(B)/tests/progs/spinsleep $(B)/tests/progs/ownprof \
	$(B)/tests/progs/eintr $(B)/tests/progs/hostile $(B)/tests/progs/callchain $(B)/tests/progs/noperf \
	$(B)/tests/progs/scribble $(B)/tests/progs/escnames $(B)/tests/progs/shortthreads $(B)/tests/progs/forkburn
# JIT code by hand, named in /tmp/perf-PID.map (test 101); -O2 keeps its loop free of calls
PROGS += $(B)/tests/progs/jitcopy
$(B)/tests/progs/jitcopy: tests/progs/jitcopy.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
# phase_a, then phase_b, by wall-clock time (tests 110 and 169, --time)
PROGS += $(B)/tests/progs/phases
$(B)/tests/progs/phases: tests/progs/phases.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
# two threads that burn CPU one after the other (test 109, pct timeline)
PROGS += $(B)/tests/progs/handoff
$(B)/tests/progs/handoff: tests/progs/handoff.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -pthread -o $@ $<
# call stacks must unwind without frame pointers (CFI only)
$(B)/tests/progs/callchain: tests/progs/callchain.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -fomit-frame-pointer -o $@ $<
$(B)/tests/progs/threads4 $(B)/tests/progs/eintr $(B)/tests/progs/hostile $(B)/tests/progs/scribble \
		$(B)/tests/progs/escnames $(B)/tests/progs/shortthreads: $(B)/tests/progs/%: tests/progs/%.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -pthread -o $@ $<
$(B)/tests/progs/noperf: tests/progs/noperf.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/forkexec $(B)/tests/progs/spinsleep $(B)/tests/progs/ownprof $(B)/tests/progs/forkburn: $(B)/tests/progs/%: tests/progs/%.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $<
$(B)/tests/progs/dlplug: tests/progs/dlplug.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -o $@ $< -ldl
$(B)/tests/progs/libplug-a.so: tests/progs/plug.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -fPIC -shared -DNAME=plug_a_work -o $@ $<
$(B)/tests/progs/libplug-b.so: tests/progs/plug.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -fPIC -shared -DNAME=plug_b_work -o $@ $<
# Host programs: small programs that use signals, limits, clone, seccomp...
# in every way a program may, run with and without pct (tests 50-66)
HOSTS := $(patsubst tests/hosts/%.c,$(B)/tests/hosts/%,$(wildcard tests/hosts/*.c))
$(B)/tests/hosts/%: tests/hosts/%.c tests/progs/burn.h
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -pthread -o $@ $<
$(B)/tests/hosts/latewait: tests/hosts/latewait.c tests/progs/burn.h $(B)/lib/libpct.a
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -pthread -o $@ $< $(B)/lib/libpct.a
# the same workload linked statically, without libpct: one the runtime
# cannot enter, which pct record samples from outside (e2e 151)
HOSTS += $(B)/tests/hosts/attach-truth-static
$(B)/tests/hosts/attach-truth-static: tests/hosts/attach-truth.c
	@mkdir -p $(@D)
	$(CC) $(PROG_CFLAGS) -pthread -static -o $@ $<
hosts: $(HOSTS)
progs: $(PROGS) $(HOSTS)
.PHONY: progs hosts

# Debian packages pct, libpct1 and libpct-dev from packaging/debian/, built
# in a temporary copy of the tree, checked by lintian, installed with
# dpkg -i, tested and purged (as root; installs missing build packages)
check-package:
	@scripts/check-package.sh
.PHONY: check-package

include mk/cross.mk
