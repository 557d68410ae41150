# kbench - see README.md.  `make demo` and `make check` are all a fresh
# Debian 12 machine needs: both install missing dependencies first
# (scripts/install-deps, as root) and say what is missing otherwise.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
CC ?= cc

PKGS := jansson gsl libcurl libcrypto liblzma libzstd zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wno-format-nonliteral
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 $(WARN) -I. $(PKG_CFLAGS) \
	-DKBENCH_VERSION='"$(VERSION)"' -D_GNU_SOURCE
LDLIBS += $(PKG_LIBS) -lm

ifeq ($(SANITIZE),1)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRCS := $(sort $(wildcard lib/*.c parsers/*.c runner/*.c stats/*.c \
	reports/*.c push/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
DEPS := $(LIB_OBJS:.o=.d) $(BUILD)/kbench.d $(TEST_BINS:=.d) \
	$(BUILD)/tests/kexec_initramfs.d	# tests/vm_kexec_e2e.sh's helper

.PHONY: all check test-unit test-e2e demo install uninstall clean deps \
	deps-check bench check-vm

all: $(BUILD)/kbench kbench

kbench: $(BUILD)/kbench
	ln -sf $(BUILD)/kbench kbench

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libkbench.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/kbench: $(BUILD)/kbench.o $(BUILD)/libkbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libkbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(BUILD)/libkbench.a \
		$(LDLIBS) $(CMOCKA_LIBS)

-include $(DEPS)

deps-check:
	@scripts/install-deps --check >/dev/null 2>&1 || scripts/install-deps

deps:
	scripts/install-deps

# The tests build into build/san with AddressSanitizer and UBSan.
check: deps-check
	$(MAKE) --no-print-directory SANITIZE=1 BUILD=build/san test-unit test-e2e

test-unit: $(TEST_BINS) $(BUILD)/kbench
	@KBENCH=$(BUILD)/kbench tests/run-unit $(TEST_BINS)

# method = vm end to end (tests/vm_e2e.sh): Debian kernels booted under
# QEMU (TCG without KVM), about 5-8 minutes.  Then method = kexec with real
# kexecs (tests/vm_kexec_e2e.sh): one TCG guest whose /init is the resume
# hook goes 6.1 -> 6.12 -> 6.1 -> 6.12, about 3-4 minutes.  Both fetch the
# same two kernel packages (about 180 MB, once; cached in
# /var/cache/kbench).  Both run; the target fails when either failed.
check-vm: deps-check
	$(MAKE) --no-print-directory SANITIZE=1 BUILD=build/san build/san/kbench \
		build/san/tests/kexec_initramfs
	@KBENCH=build/san/kbench tests/vm_e2e.sh; st=$$?; \
		KBENCH=build/san/kbench tests/vm_kexec_e2e.sh && exit $$st

test-e2e: $(BUILD)/kbench
	@KBENCH=$(BUILD)/kbench tests/e2e_run.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_profile.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_push.sh
	@KBENCH=$(BUILD)/kbench tests/e2e_report.sh

demo: deps-check
	$(MAKE) --no-print-directory all
	scripts/demo

# kbench's own cost (bench/bench.sh): figures, not tests; never part of
# `make check`.  Figures on stdout and in bench/results.json.
BENCH_BINS := $(addprefix $(BUILD)/bench/,kbtime jansson_decode \
	gen_jsonplus gen_campaign summarize)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libkbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkbench.a $(LDLIBS)

bench: deps-check
	$(MAKE) --no-print-directory $(BUILD)/kbench $(BENCH_BINS)
	bench/bench.sh $(BUILD)

install: $(BUILD)/kbench
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/kbench/profiles \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BUILD)/kbench $(DESTDIR)$(PREFIX)/bin/kbench
	install -m 0644 profiles/* $(DESTDIR)$(PREFIX)/share/kbench/profiles/
	install -m 0644 man/kbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/kbench.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kbench $(DESTDIR)$(PREFIX)/share/man/man1/kbench.1
	rm -rf $(DESTDIR)$(PREFIX)/share/kbench

clean:
	rm -rf build kbench
