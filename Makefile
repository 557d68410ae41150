# kbench - see README.md.  `make demo` and `make check` are all a fresh
# Debian 12 machine needs: both install missing dependencies first
# (scripts/install-deps, as root) and say what is missing otherwise.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
CC ?= cc

# The layers, bottom to top (siblings joined by ','): a folder includes
# only its own and lower layers (scripts/check-layers, run by make check).
LAYERS := lib parsers results stats reports,push runner builtin

# libcurl: headers only; push/curl_dl.c loads it (dlopen) the first time
# push or fetch needs it, so the 28 libraries it brings are not loaded at
# every start (a vm guest reads them over 9p: issue 16)
PKGS := jansson yajl gsl nettle liblzma libzstd zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) libcurl 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wno-format-nonliteral
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 $(WARN) -I. $(PKG_CFLAGS) \
	-DKBENCH_VERSION='"$(VERSION)"' -D_GNU_SOURCE \
	-DKBENCH_PREFIX='"$(PREFIX)"'
LDLIBS += $(PKG_LIBS) -lm

ifeq ($(SANITIZE),1)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRCS := $(sort $(wildcard lib/*.c parsers/*.c results/*.c runner/*.c \
	stats/*.c builtin/*.c \
	reports/*.c push/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
DEPS := $(LIB_OBJS:.o=.d) $(BUILD)/kbench.d $(TEST_BINS:=.d) \
	$(BUILD)/guest/curl_dl.d \
	$(BUILD)/tests/kexec_initramfs.d	# tests/vm_kexec_e2e.sh's helper
# Shell completions, generated from kbench's own tables
# (builtin/completion.c); zsh's directory: Debian's for /usr, else the
# site one that zsh searches under /usr/local.
COMPLETIONS := $(BUILD)/completion/kbench $(BUILD)/completion/_kbench
# One man page per command, kbench-CMD(1), generated from its --help and
# man/kbench.1's SYNOPSIS (scripts/gen-manpage).
MAN_CMDS := run plan calibrate report compare parse push install-resume
MANPAGES := $(MAN_CMDS:%=$(BUILD)/man/kbench-%.1)
BASH_COMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)

.PHONY: all check test-unit test-e2e demo install uninstall clean deps \
	deps-check bench check-vm check-cluster check-deb check-truth fuzz FORCE

# The static guest binary, kbench's twin: what a vm guest's initramfs
# gets instead of kbench and its shared libraries (runner/guest_binary.h:
# 3 MB instead of 10 to unpack under TCG, no dynamic loading).  Not in
# sanitizer builds (ASan cannot link statically): their guests get the
# dynamic binary, the fallback.
ifneq ($(SANITIZE),1)
GUEST_BIN := $(BUILD)/kbench-guest
endif

all: $(BUILD)/kbench kbench $(GUEST_BIN) $(COMPLETIONS) $(MANPAGES)

kbench: $(BUILD)/kbench
	ln -sf $(BUILD)/kbench kbench

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The installed binary finds its job files beside itself (bin/../share),
# else under the PREFIX it was built for (parsers/kconf.h,
# kconf_find_profiles): kconf.o is rebuilt when PREFIX changes.
$(BUILD)/prefix.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' > $@
$(BUILD)/parsers/kconf.o: $(BUILD)/prefix.stamp
FORCE:

$(BUILD)/libkbench.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# kbench's build ID, a digest of its objects (lib/buildid.h): kbench and
# its static twin carry the same one, so kbench knows its own twin.
$(BUILD)/build-id: $(BUILD)/kbench.o $(BUILD)/libkbench.a
	cat $^ | sha1sum | cut -c1-40 >$@.tmp && mv $@.tmp $@

$(BUILD)/kbench: $(BUILD)/kbench.o $(BUILD)/libkbench.a $(BUILD)/build-id
	$(CC) $(LDFLAGS) -Wl,--build-id=0x$$(cat $(BUILD)/build-id) -o $@ \
		$(BUILD)/kbench.o $(BUILD)/libkbench.a $(LDLIBS)

# Static, stripped; push/curl_dl.c built without dlopen (the guest never
# pushes; glibc's dlopen needs the shared libraries in a static program).
# Debian's static archive of yajl is libyajl_s.a.
STATIC_LIBS = $(patsubst -lyajl,-lyajl_s,$(shell pkg-config --static --libs $(PKGS) 2>/dev/null)) -lm
$(BUILD)/guest/curl_dl.o: push/curl_dl.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DKB_STATIC_GUEST -MMD -MP -c -o $@ $<

ifeq ($(SANITIZE),1)
# A static program cannot carry ASan's runtime: such a twin beside the
# sanitized kbench became a vm guest's /init and segfaulted at once (seen
# 2026-12-04: every guest "Attempted to kill init! exitcode=0x0000000b").
$(BUILD)/kbench-guest:
	@echo "$@: the static guest binary cannot be built with SANITIZE=1 (ASan needs the dynamic loader); the sanitized kbench gives its guests itself and its libraries" >&2; exit 1
else
$(BUILD)/kbench-guest: $(BUILD)/kbench.o $(BUILD)/guest/curl_dl.o \
		$(BUILD)/libkbench.a $(BUILD)/build-id
	$(CC) $(LDFLAGS) -static-pie -s -Wl,--gc-sections \
		-Wl,--build-id=0x$$(cat $(BUILD)/build-id) -o $@ \
		$(BUILD)/kbench.o $(BUILD)/guest/curl_dl.o \
		$(BUILD)/libkbench.a $(STATIC_LIBS)
endif

$(BUILD)/completion/kbench: $(BUILD)/kbench
	@mkdir -p $(dir $@)
	$(BUILD)/kbench --completion bash >$@.tmp && mv $@.tmp $@

$(BUILD)/completion/_kbench: $(BUILD)/kbench
	@mkdir -p $(dir $@)
	$(BUILD)/kbench --completion zsh >$@.tmp && mv $@.tmp $@

$(BUILD)/man/kbench-%.1: $(BUILD)/kbench man/kbench.1 scripts/gen-manpage
	@mkdir -p $(dir $@)
	scripts/gen-manpage $(BUILD)/kbench $* >$@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libkbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(BUILD)/libkbench.a \
		$(LDLIBS) $(CMOCKA_LIBS)

-include $(DEPS)

deps-check:
	@scripts/install-deps --check >/dev/null 2>&1 || scripts/install-deps

deps:
	scripts/install-deps

# The tests build into build/san with AddressSanitizer and UBSan.
# Cost on 2 cores: about 10 minutes (build 1, unit tests 1, end-to-end
# campaigns on loop devices 8, of which tests/e2e_calibrate.sh 45 s and
# tests/e2e_fixed_work.sh 15 s; the e2e parts need root).
check: deps-check
	$(MAKE) --no-print-directory SANITIZE=1 BUILD=build/san test-unit test-e2e

test-unit: $(TEST_BINS) $(BUILD)/kbench
	@KBENCH=$(BUILD)/kbench tests/run-unit $(TEST_BINS)
	@LAYERS="$(LAYERS)" tests/layers.sh
	@KBENCH=$(BUILD)/kbench tests/completion.sh
	@KBENCH=$(BUILD)/kbench tests/man.sh

# method = vm end to end, on 2 cores under TCG (KVM only when the probe
# shows it works: a 20 s probe once per machine boot).  Every script runs;
# the target fails when any failed.
#  - tests/vm_e2e.sh: Debian 12's 6.1 and 6.12 kernels and a panicking
#    one, 6 boots, then a disturbed round retried (4 boots), then the
#    release build's static guest (2 boots): about 5 minutes;
#  - tests/vm_cloud_e2e.sh: a kernel without 9p (Debian's cloud kernel)
#    in the self-contained guest, with the sanitizer build's kbench and
#    its libraries, then the release build's static twin: about 30 s;
#  - tests/vm_kexec_e2e.sh: method = kexec with real kexecs, one TCG
#    guest whose /init is the resume hook, 6.1 -> 6.12 -> 6.1 -> 6.12:
#    about 3-4 minutes.
# First downloads (cached in /var/cache/kbench): about 210 MB (6.1,
# 6.12, the cloud kernel).
check-vm: deps-check
	$(MAKE) --no-print-directory SANITIZE=1 BUILD=build/san build/san/kbench \
		build/san/tests/kexec_initramfs
	$(MAKE) --no-print-directory build/kbench build/kbench-guest
	@st=0; \
	KBENCH=build/san/kbench KBENCH_STATIC=build/kbench tests/vm_e2e.sh || st=1; \
	KBENCH=build/san/kbench tests/vm_cloud_e2e.sh || st=1; \
	KBENCH=build/kbench tests/vm_cloud_e2e.sh || st=1; \
	KBENCH=build/san/kbench tests/vm_kexec_e2e.sh || st=1; \
	exit $$st

# A campaign split across a Slurm cluster, for real (tests/cluster_e2e.sh):
# munged, slurmctld and slurmd started by the test as a one-node cluster
# (private config and ports), an array of 2 shards submitted with
# examples/slurm/submit.sh, the merge as a dependent job, then the merged
# report checked against `kbench plan`.  Needs root.  Cost on 2 cores:
# about 40 s (build aside): 28 s of jobs (2 shards x 6 runs of 1 s under
# ASan, one after the other: --exclusive on one node), 5 s starting and
# 5-10 s stopping the daemons.
#
# Then hosts = (fio client/server, tests/cluster_fio_e2e.sh): two network
# namespaces of the test's own with a veth pair and a private /30 each, a
# fio --server in each, campaigns with hosts = both (runs ok, the sum of
# the hosts' IOPS, a row per host in the report, their fio versions), a
# job on one host only ([job NAME] hosts =), a target of one host's own
# (target@HOST) and one missing there, a third server on an IPv6 address,
# a host with no server and a server killed mid-run (failed runs naming
# the host, the campaign going on), a host that hangs until the run's
# timeout (named by a probe after it) and one down at the start and up
# for the resume.  Needs root.  Cost on 2 cores: about 2 minutes (131 s
# under a load average of 3; 10 campaigns of 2-4 runs of 1-4 s under
# ASan, reruns of disturbed rounds and the hung run's timeout included).
check-cluster: deps-check
	$(MAKE) --no-print-directory SANITIZE=1 BUILD=build/san build/san/kbench
	@st=0; \
	KBENCH=build/san/kbench tests/cluster_e2e.sh || st=1; \
	KBENCH=build/san/kbench tests/cluster_fio_e2e.sh || st=1; \
	exit $$st

# kbench's verdicts against the truth with real runs on a loop device
# (tests/check_truth.sh, issue 13): 30 disjoint A/A comparisons (fails
# when more than 4 have p < 0.05: 1.6% of the time for a correct test),
# then a slowdown injected through fio's rate_iops, which must be found
# with the right sign and a 95% CI covering its size measured on the
# quiet rounds.  Needs root.  Cost on 2 cores: about 5 minutes (5.5 on
# the shared 2-vCPU VM under other builds: 140-160 runs of 1 s, 1.5-2 s
# each; about a minute more for each time the slowdown campaign runs
# again, at most twice: the machine slowed between the steps, or compare
# could not decide); built without the sanitizers (they slow kbench, not fio, and the
# figures are about fio's runs).
check-truth: deps-check
	$(MAKE) --no-print-directory $(BUILD)/kbench
	@KBENCH=$(BUILD)/kbench tests/check_truth.sh

# The Debian package end to end (tests/deb_e2e.sh, as root): build it
# with dpkg-buildpackage in a copy of the tree under /tmp, lintian, dpkg -i,
# a campaign with the installed binary and job files, dpkg -r.  Cost on 2
# cores: about 1 minute (build 30 s, lintian 10 s, the campaign 2 s).
check-deb: deps-check
	@tests/deb_e2e.sh

test-e2e: $(BUILD)/kbench
	@KBENCH=$(BUILD)/kbench tests/e2e_run.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_profile.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_push.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_report.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_safety.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_install.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_calibrate.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_fixed_work.sh

# Fuzzing (fuzz/fuzz_*.c, libFuzzer): each parser of outside text - fio
# JSON, terse output and logs, fio job files, kernels.conf, perf stat and
# perf report, /proc, a netrc -
# under clang's -fsanitize=fuzzer,address,undefined.  The library objects
# (lib/ and parsers/) are built with clang into $(FUZZ_BUILD), apart from
# the gcc builds; the seed corpora are tests/data's files, copied into
# $(FUZZ_BUILD)/corpus/NAME at run time (scripts/fuzz-corpus).  Each
# harness runs FUZZ_SECONDS; the target fails when one crashed (its
# input: $(FUZZ_BUILD)/crash-NAME-*, its log: $(FUZZ_BUILD)/NAME.log).
# Cost: 9 harnesses x 60 s = 9 minutes (plus about 30 s of build on
# 2 cores).  CI runs it (.ci/run).  Inputs are at most 16 KiB
# (-max_len): a 100 KiB fio JSON seed takes 60 ms a run under ASan, and
# its first 16 KiB still drive the lenient path.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build/fuzz
FUZZ_NAMES := fio_json fio_terse fio_log fio_jobfile kconf perf_stat perf_report procfs netrc
FUZZ_CFLAGS := -std=gnu11 $(WARN) -I. $(PKG_CFLAGS) -g -O1 \
	-fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DKBENCH_VERSION='"$(VERSION)"' \
	-D_GNU_SOURCE -DKBENCH_PREFIX='"$(PREFIX)"'
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/%.o,\
	$(sort $(wildcard lib/*.c parsers/*.c)))
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/libkbench-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_BUILD)/libkbench-fuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< \
		$(FUZZ_BUILD)/libkbench-fuzz.a $(PKG_LIBS) -lm

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d)

fuzz: deps-check
	$(MAKE) --no-print-directory $(FUZZ_BINS)
	@st=0; for n in $(FUZZ_NAMES); do \
		scripts/fuzz-corpus $$n $(FUZZ_BUILD)/corpus/$$n || exit 1; \
		if $(FUZZ_BUILD)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) \
			-rss_limit_mb=2048 -max_len=16384 \
			-artifact_prefix=$(FUZZ_BUILD)/crash-$$n- \
			$(FUZZ_BUILD)/corpus/$$n >$(FUZZ_BUILD)/$$n.log 2>&1; \
		then echo "fuzz $$n: ok, $$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' \
			$(FUZZ_BUILD)/$$n.log)"; \
		else st=1; echo "fuzz $$n: FAILED ($(FUZZ_BUILD)/$$n.log):"; \
			tail -n 40 $(FUZZ_BUILD)/$$n.log; fi; \
	done; exit $$st

# The main job on real input (the running kernel x queue/nomerges on a
# loop device): about 2 minutes.
demo: deps-check
	$(MAKE) --no-print-directory all
	scripts/demo

# kbench's own cost (bench/bench.sh): figures, not tests; never part of
# `make check`.  Figures on stdout and in bench/results.json.
BENCH_BINS := $(addprefix $(BUILD)/bench/,kbtime jansson_decode qemu_boot \
	gen_jsonplus gen_campaign summarize)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libkbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkbench.a $(LDLIBS)

# Figures, not tests: about 8 minutes for steps 1-6 (2.5 of them the
# 100k-run report figures: KBENCH_BENCH_100K=0 leaves those out; about a
# minute the guest-start pairs), then about an hour and a quarter for
# step 7, issue 13's verdicts on real runs (bench/truth13.sh: 200 A/A
# comparisons, about 30 minutes; 2 x 10 slowdown campaigns of 2 s runs
# and the verdicts, about 35; KBENCH_BENCH_TRUTH_SCALE=0.1 for a tenth,
# KBENCH_BENCH_TRUTH_PARTS=aa|detect|verdict for parts,
# KBENCH_BENCH_TRUTH=0 skips it; KBENCH_BENCH_STEPS=1: step
# 1 alone, about 1.5 minutes; =3: the report figures alone, under a
# minute without the 100k ones).  bench/bench.sh says each step.
# PREV=<git ref>: also build that commit (git archive into
# $(BUILD)/prev, release flags) and compare its `kbench report` CPU with
# this build's (report.ab_10k_cpu; about a minute more).
bench: deps-check
	$(MAKE) --no-print-directory $(BUILD)/kbench $(BENCH_BINS)
	@if [ -n "$(PREV)" ]; then \
		rm -rf $(BUILD)/prev && mkdir -p $(BUILD)/prev && \
		git archive "$(PREV)" | tar -x -C $(BUILD)/prev && \
		$(MAKE) --no-print-directory -C $(BUILD)/prev build/kbench >/dev/null && \
		echo "bench: previous build: $(PREV) ($$(git rev-parse --short "$(PREV)"))"; \
	fi
	KBENCH_BENCH_PREV=$(if $(PREV),$(BUILD)/prev/build/kbench) bench/bench.sh $(BUILD)

install: $(BUILD)/kbench $(GUEST_BIN) $(COMPLETIONS) $(MANPAGES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/kbench/profiles \
		$(DESTDIR)$(PREFIX)/libexec/kbench \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(BASH_COMPDIR) \
		$(DESTDIR)$(ZSH_COMPDIR)
	install -m 0755 $(BUILD)/kbench $(DESTDIR)$(PREFIX)/bin/kbench
	$(if $(GUEST_BIN),install -m 0755 $(GUEST_BIN) $(DESTDIR)$(PREFIX)/libexec/kbench/kbench-guest)
	install -m 0644 profiles/* $(DESTDIR)$(PREFIX)/share/kbench/profiles/
	install -m 0644 man/kbench.1 $(MANPAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 $(BUILD)/completion/kbench $(DESTDIR)$(BASH_COMPDIR)/kbench
	install -m 0644 $(BUILD)/completion/_kbench $(DESTDIR)$(ZSH_COMPDIR)/_kbench

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kbench $(DESTDIR)$(PREFIX)/share/man/man1/kbench.1 \
		$(MAN_CMDS:%=$(DESTDIR)$(PREFIX)/share/man/man1/kbench-%.1)
	rm -f $(DESTDIR)$(BASH_COMPDIR)/kbench $(DESTDIR)$(ZSH_COMPDIR)/_kbench
	rm -rf $(DESTDIR)$(PREFIX)/share/kbench $(DESTDIR)$(PREFIX)/libexec/kbench

clean:
	rm -rf build kbench
