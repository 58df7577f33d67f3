# SPDX-License-Identifier: GPL-2.0
#
# kab - kernel A/B performance comparison.
#
#   make          build kab and kab-agent
#   make deps     install the Debian packages kab needs (apt-get, idempotent)
#   make demo     run kab's main job on this machine and show what it stored
#   make test     run every test; the last line says "N passed, N failed"
#   make bench    benchmarks that print figures
#   make test-kernel  the slow tests: real kernel builds and a real bisect
#   make test-lava-server  a LAVA server here (as root, minutes to install), then
#                 kab ab against it
#   make test SAN=1   the same under ASan and UBSan
#   make mutate   plant each bug of tests/mutants/ and run the fast tests
#   make mutate-diff BASE=REV [SAMPLE=N]  mechanical mutants on the lines
#                 changed since REV, against the tests that run each line
#   make fuzz     each libFuzzer harness of tests/fuzz/ for FUZZ_SECONDS (60)
#   make man      the man pages, from each command's --help and doc/
#   make install  PREFIX=/usr/local DESTDIR= ; make uninstall the same
#   make deb      the Debian package, into ..

CC       ?= cc
PKGS     := sqlite3 gsl yaml-0.1 jansson hwloc zlib libarchive nettle \
	    libelf libcurl
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	    -D_GNU_SOURCE $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm

ifeq ($(FUZZ),1)
# libFuzzer's coverage needs clang; ASan and UBSan watch every input
CC       := clang
CFLAGS   += -fsanitize=fuzzer-no-link,address,undefined \
	    -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
BUILD    := build-fuzz
else ifeq ($(COV),1)
# gcov's line counts, for make mutate-diff's map of tests to lines;
# unoptimized: at -O1 a function's last 'return 0;' and many a single
# statement get no count, and their mutants looked unreached
CFLAGS   := -O0 -g --coverage -fprofile-update=atomic -DKAB_COVERAGE \
	    $(filter-out -O2 -g,$(CFLAGS))
LDFLAGS  += --coverage
BUILD    := build-cov
else ifeq ($(SAN),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
BUILD    := build-san
else
BUILD    := build
endif

COMMON_SRC   := $(wildcard common/*.c)
# the cost model's cores, for the names kab checks and lists
RUNNER_SRC   := $(wildcard runner/*.c) plugin/cost-cores.c
DB_SRC       := $(wildcard db/*.c)
ANALYSIS_SRC := $(wildcard analysis/*.c)
MODEL_SRC    := $(wildcard model/*.c)
DRIVER_SRC   := $(wildcard driver/*.c)
WATCH_SRC    := $(wildcard watch/*.c)
REPORT_SRC   := $(wildcard report/*.c)
KBUILD_SRC   := $(wildcard kbuild/*.c) kbuild/fragments.S
CLI_SRC      := $(filter-out cli/agent.c,$(wildcard cli/*.c))

obj = $(patsubst %.S,$(BUILD)/%.o,$(patsubst %.c,$(BUILD)/%.o,$(1)))

LIBCOMMON   := $(BUILD)/libcommon.a
LIBRUNNER   := $(BUILD)/librunner.a
LIBDB       := $(BUILD)/libdb.a
LIBANALYSIS := $(BUILD)/libanalysis.a
LIBMODEL    := $(BUILD)/libmodel.a
LIBDRIVER   := $(BUILD)/libdriver.a
LIBWATCH    := $(BUILD)/libwatch.a
LIBREPORT   := $(BUILD)/libreport.a
LIBKBUILD   := $(BUILD)/libkbuild.a
LIBS        := $(LIBWATCH) $(LIBREPORT) $(LIBDRIVER) $(LIBKBUILD) $(LIBMODEL) $(LIBRUNNER) $(LIBDB) \
	       $(LIBANALYSIS) $(LIBCOMMON)

KAB       := $(BUILD)/kab
KAB_AGENT := $(BUILD)/kab-agent
# kab's QEMU plugin, when this QEMU loads plugins (-plugin in its -help),
# with its cost model
COST_SRC  := plugin/cost.c plugin/cost-cores.c plugin/tlbflush.c
KAB_INSN  := $(if $(shell qemu-system-x86_64 -help 2>/dev/null | \
		grep '^-plugin '),$(BUILD)/kab-insn.so)

FUZZERS   := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,\
		$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_SECONDS ?= 60

TEST_SRC  := $(wildcard tests/unit/test-*.c)
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC)) \
	     $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,\
			$(wildcard tests/helpers/*.c))

ifneq ($(SAN)$(COV),)
all: $(KAB) $(KAB_AGENT) $(KAB_INSN)
else
all: $(KAB) $(KAB_AGENT) $(KAB_INSN) kab kab-agent

# Convenience links at the top of the tree, to the plain build only.
kab kab-agent: %: $(BUILD)/%
	ln -sf $< $@
endif

$(BUILD)/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# kab's config fragments live inside kab (see kbuild/fragments.S)
$(BUILD)/kbuild/fragments.o: kbuild/fragments.S $(wildcard kconfigs/*.config)
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

$(LIBCOMMON): $(call obj,$(COMMON_SRC))
$(LIBKBUILD): $(call obj,$(KBUILD_SRC))
$(LIBRUNNER): $(call obj,$(RUNNER_SRC))
$(LIBDB): $(call obj,$(DB_SRC))
$(LIBANALYSIS): $(call obj,$(ANALYSIS_SRC))
$(LIBMODEL): $(call obj,$(MODEL_SRC))
$(LIBDRIVER): $(call obj,$(DRIVER_SRC))
$(LIBWATCH): $(call obj,$(WATCH_SRC))
$(LIBREPORT): $(call obj,$(REPORT_SRC))
$(BUILD)/lib%.a:
	@rm -f $@
	$(AR) rcs $@ $^

$(KAB): $(call obj,$(CLI_SRC)) $(LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The agent goes into every initramfs: only the libraries it calls.
$(KAB_AGENT): $(call obj,cli/agent.c) $(LIBRUNNER) $(LIBCOMMON)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(LDLIBS)

# Loaded into QEMU: never sanitized, nothing of kab's libraries in it;
# built with the flags the rest is (a package's hardening) but those.
PLUGIN_CFLAGS  = $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(CFLAGS))
PLUGIN_LDFLAGS = $(filter-out -fsanitize=%,$(LDFLAGS))
PLUGIN_SRC := plugin/insn.c plugin/model.c $(COST_SRC)
$(BUILD)/kab-insn.so: $(PLUGIN_SRC) $(wildcard plugin/*.h) runner/mark.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PLUGIN_CFLAGS) -fPIC -fvisibility=hidden -shared \
		$(PLUGIN_LDFLAGS) -o $@ $(PLUGIN_SRC)

# the cost model is the plugin's, tested on its own
$(BUILD)/tests/test-cost: tests/unit/test-cost.c $(call obj,$(COST_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lcmocka

$(BUILD)/tests/%: tests/unit/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS) -lcmocka

# Man pages from kab's own --help (scripts/mkman.sh) and doc/.
MAN_STAMP := $(BUILD)/man/.stamp
$(MAN_STAMP): $(KAB) scripts/mkman.sh $(wildcard doc/*.scd)
	@rm -rf $(BUILD)/man
	scripts/mkman.sh $(KAB) $(BUILD)/man
	@touch $@

man: $(MAN_STAMP)

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
INSTALL    ?= install

# kab finds its agent in ../libexec/kab and its jobs in ../share/kab/jobs
# relative to its own binary: the directories keep that shape.
install: all $(MAN_STAMP)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/kab \
		$(DESTDIR)$(DATADIR)/kab/jobs $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 0755 $(KAB) $(DESTDIR)$(BINDIR)/kab
	$(INSTALL) -m 0755 $(KAB_AGENT) $(DESTDIR)$(LIBEXECDIR)/kab/kab-agent
	$(if $(KAB_INSN),$(INSTALL) -m 0644 $(KAB_INSN) \
		$(DESTDIR)$(LIBEXECDIR)/kab/kab-insn.so)
	$(INSTALL) -m 0644 jobs/*.yaml $(DESTDIR)$(DATADIR)/kab/jobs/
	for m in $(BUILD)/man/*.1; do \
		sed -e 's|@DATADIR@|$(DATADIR)|g' \
		    -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' $$m \
			>$(DESTDIR)$(MANDIR)/man1/$${m##*/} && \
		chmod 0644 $(DESTDIR)$(MANDIR)/man1/$${m##*/} || exit 1; \
	done
	$(INSTALL) -m 0644 completion/kab.bash $(DESTDIR)$(BASHCOMPDIR)/kab
	$(INSTALL) -m 0644 completion/_kab $(DESTDIR)$(ZSHCOMPDIR)/_kab

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kab $(DESTDIR)$(LIBEXECDIR)/kab/kab-agent \
		$(DESTDIR)$(LIBEXECDIR)/kab/kab-insn.so \
		$(DESTDIR)$(BASHCOMPDIR)/kab $(DESTDIR)$(ZSHCOMPDIR)/_kab \
		$(DESTDIR)$(MANDIR)/man1/kab.1 $(DESTDIR)$(MANDIR)/man1/kab-*.1
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/kab/,$(wildcard jobs/*.yaml))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/kab $(DESTDIR)$(DATADIR)/kab/jobs \
		$(DESTDIR)$(DATADIR)/kab 2>/dev/null

# The Debian package (debian/), unsigned, into the parent directory.
deb: deps
	dpkg-buildpackage -b -us -uc

deps:
	@scripts/deps.sh

deps-kernel:
	@scripts/deps.sh kernel

demo: deps-kernel
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh

# Builds Debian's 6.1 tree for real (minutes), then bisects it.
test-kernel: deps-kernel
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/run tests/kernel

# A LAVA server here (PostgreSQL, lava-server, a worker: minutes to
# install), then kab against it; opt-in, as root.
test-lava-server: deps
	@$(MAKE) --no-print-directory all
	@scripts/lava-server.sh start
	@BUILD=$(BUILD) tests/run tests/lava-server; rc=$$?; \
		scripts/lava-server.sh stop; exit $$rc

# the builds use every CPU (JOBS=1 for one at a time)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)

test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(TEST_BINS)
ifeq ($(SAN),1)
	@# what the guests measure with: malloc under ASan measures ASan
	@$(MAKE) --no-print-directory SAN= build/kab-agent
endif
	@BUILD=$(BUILD) tests/run

$(BUILD)/tests/stats-oracle: tests/helpers/stats-oracle.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

$(BUILD)/tests/bench-%: tests/bench/bench-%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

# Inputs found go to a scratch corpus; tests/fuzz/corpus/ holds the seeds.
fuzz: deps
	@scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory -j$(JOBS) FUZZ=1 fuzz-bins
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-run

fuzz-bins: $(FUZZERS)

fuzz-run: $(FUZZERS)
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

# Each mutant in tests/mutants/ is a bug the fast tests must catch.
mutate: deps
	@$(MAKE) -s --no-print-directory all $(TEST_BINS)
	@BUILD=$(BUILD) tests/mutate.sh

# Mechanical mutants on the C lines changed since BASE, each run
# against the tests gcov saw execute its line (tests/mutate-diff.py).
mutate-diff: deps
	@test -n "$(BASE)" || { echo "make mutate-diff: give BASE=<rev>, e.g. BASE=HEAD~5" >&2; exit 2; }
	@$(MAKE) -s --no-print-directory all $(TEST_BINS)
	@tests/mutate-diff.py --base "$(BASE)" $(if $(SAMPLE),--sample $(SAMPLE))

bench: deps
	@$(MAKE) --no-print-directory all $(BUILD)/tests/bench-stream \
		$(BUILD)/tests/bench-power $(BUILD)/tests/bench-changepoint
	@BUILD=$(BUILD) tests/bench.sh

clean:
	rm -rf build build-san build-fuzz build-cov kab kab-agent

.PHONY: all man install uninstall deb deps deps-kernel demo test test-kernel \
	test-lava-server mutate mutate-diff fuzz fuzz-bins fuzz-run bench clean kab \
	kab-agent
.DELETE_ON_ERROR:
