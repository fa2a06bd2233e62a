# moonflow — one build: libmoonflow.a (the C core), moonflow (the program,
# embedding Lua 5.4) and moonflow.so (the Lua C module).
#
#   make repl            install missing Debian packages, build, start the REPL
#   make test            install, build, run every test; ends "N passed, N failed"
#   make test SANITIZE=1 the same under ASan + UBSan
#   make bench           the benchmark suite (tests/bench/)
#   make bench-trace-ab BASE=<rev>   the tracing rows against an earlier commit, interleaved
#   make diff-long       the differential tests, long: elementwise programs (DIFF_SEEDS x
#                        20000 cases) and every registry op (DIFF_SEEDS x DIFF_OPS_COUNT)
#   make fuzz            every randomised test at full size (diff-long, the AutoGraph
#                        programs, the API and op-argument fuzzers, the kernel message
#                        fuzzer; make test runs samples)
#   make soak            the long memory soak tests (tests/soak/)
#   make install PREFIX=/usr/local

PREFIX   ?= /usr/local
# Compile jobs for the builds that repl, test and bench start.
JOBS     ?= $(shell nproc)
SANITIZE ?= 0
CC       ?= cc

ifeq ($(SANITIZE),1)
BUILD    := build/sanitize
OPT      := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD    := build/release
# -fno-plt: calls into liblua and libc go through the GOT, not a PLT stub
# each. Tracing calls the Lua API a few dozen times per op, and the stubs
# were instruction-cache misses: a warm trace of benchmark 4's 100-op
# chain has 10% fewer of them and 1% fewer instructions (callgrind).
OPT      := -O2 -g -fno-plt
endif

# The core's rooms (README.md, "Layout"): each is on the include path.
CORE_DIRS := core core/tensor core/ops core/graph core/run core/data

PKGS      := lua5.4 libzmq jansson openblas libcrypto libgvc sqlite3 libpcre2-8
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# OpenBLAS is never linked: core/run/blas.c loads it with dlopen at first
# use, after choosing its kernel (which it fixes when it loads); only its
# header (cblas.h) is needed to build.
LINK_PKGS := $(filter-out openblas,$(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(LINK_PKGS) 2>/dev/null) -lz -lreadline -lm -lpthread -ldl
# What a program embedding libmoonflow.a links besides it (core/moonflow.h).
CORE_LIBS  = $(shell pkg-config --libs jansson libpcre2-8) -lz -lm -lpthread -ldl

CFLAGS   += -std=c11 -D_GNU_SOURCE $(OPT) -Wall -Wextra -Werror -fPIC -MMD -MP \
            $(addprefix -I,$(CORE_DIRS)) -Ilua/binding -Ilua/host $(PKG_CFLAGS) \
            -DMF_VERSION='"$(VERSION)"' -DMF_PREFIX='"$(PREFIX)"'
LDFLAGS  += $(OPT)
VERSION  := 0.1.0

CORE_SRC    := $(wildcard $(addsuffix /*.c,$(CORE_DIRS)))
BIND_SRC    := $(wildcard lua/binding/*.c)
SESSION_SRC := $(wildcard lua/host/*.c)
PROG_SRC    := $(wildcard repl/*.c) $(wildcard jupyter/*.c)
CTEST_SRC   := $(wildcard tests/core/test_*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
CORE_OBJ    := $(call obj,$(CORE_SRC))
BIND_OBJ    := $(call obj,$(BIND_SRC))
SESSION_OBJ := $(call obj,$(SESSION_SRC))
PROG_OBJ    := $(call obj,$(PROG_SRC))
CTEST_BIN   := $(patsubst tests/core/%.c,$(BUILD)/tests/%,$(CTEST_SRC))

LIB  := $(BUILD)/libmoonflow.a
BIN  := $(BUILD)/moonflow
MOD  := $(BUILD)/moonflow.so

DEB_BUILD := gcc make pkg-config lua5.4 liblua5.4-dev libzmq3-dev libjansson-dev \
             libopenblas-dev libssl-dev libreadline-dev libgraphviz-dev libsqlite3-dev zlib1g-dev \
             libpcre2-dev
DEB_TEST  := lua-busted python3 python3-pexpect python3-jupyter-client python3-nbclient \
             python3-zmq jupyter-nbconvert jupyter-console python3-jupyter-kernel-test \
             python3-nbformat python3-numpy python3-onnx librsvg2-bin python3-sklearn
# The bench's end-to-end rows: lesson 14's digits (python3-sklearn), the
# Jupyter round trip beside ipykernel, the REPL start (python3-pexpect).
DEB_BENCH := python3-numpy python3-torch python3-sklearn python3-ipykernel python3-jupyter-client \
             python3-pexpect

.PHONY: all repl test bench bench-trace-ab deps deps-test deps-bench install clean notebooks diff-long fuzz soak docs

EXAMPLES := $(BUILD)/examples/run_saved

all: $(LIB) $(BIN) $(MOD) $(EXAMPLES)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(CC) $(CFLAGS) -c $< -o $@

# The elementwise family's loops: ops_elementwise.o (the op tables and the
# loops they expand into, the fused-program chunks of
# core/ops/elementwise_chunk.inc) and elementwise_loops.o (what runs them,
# and the in-place accumulation loops), built with the same flags so that
# every loop computes the same bits.
ELEMENTWISE_OBJ := $(BUILD)/obj/core/ops/ops_elementwise.o $(BUILD)/obj/core/ops/elementwise_loops.o
# Fused programs' fixed-length loops (elementwise_chunk.inc) must unroll
# completely, tanh's included, for their accumulator to stay in registers;
# the param allows it. Results unchanged.
$(ELEMENTWISE_OBJ): CFLAGS += --param max-completely-peeled-insns=1000

# The elementwise loops are written for the vectoriser (the transcendental
# functions of fastmath.h, included by ops_elementwise.c): -O3 vectorises loops of any length,
# -fno-trapping-math lets it turn selects of float values into SIMD blends,
# -fno-math-errno inlines sqrt, and -ffp-contract=off (already ISO C's
# default) keeps the SSE2 and AVX2 clones of each loop bit-identical. None
# of them changes a result.
$(ELEMENTWISE_OBJ): CFLAGS += -O3 -fno-trapping-math -fno-math-errno -ffp-contract=off
# The Winograd transforms are fixed-length loops over 16 channels, for the
# vectoriser too.
$(BUILD)/obj/core/ops/conv_winograd.o: CFLAGS += -O3 -ffp-contract=off
# A reduction over leading axes adds rows elementwise into a row of
# accumulators: -O3 vectorises that loop (no reordering of any sum, so the
# same results); a bias gradient's 64 x 256 sum: 6 us -> 3 us.
$(BUILD)/obj/core/ops/ops_reduce.o: CFLAGS += -O3 -ffp-contract=off
# Pooling's loops run over a pixel's channels, contiguous: -O3 vectorises
# them (max and argmax by comparisons only: same bits).
$(BUILD)/obj/core/ops/ops_pool.o: CFLAGS += -O3 -ffp-contract=off
# Philox's rounds over a batch of counters (philox_batch) are integer work
# for the vectoriser: -O3 vectorises it (same bits).
$(BUILD)/obj/core/ops/ops_random.o: CFLAGS += -O3 -ffp-contract=off

$(LIB): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	@echo "  AR  $@"
	@rm -f $@ && $(AR) rcs $@ $^

# The whole core goes in: ops are reached through the registry table.
WHOLE = -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive

$(BIN): $(PROG_OBJ) $(SESSION_OBJ) $(BIND_OBJ) $(LIB)
	@echo "  LD  $@"
	@$(CC) $(LDFLAGS) $(PROG_OBJ) $(SESSION_OBJ) $(BIND_OBJ) $(WHOLE) -o $@ $(PKG_LIBS)

# -z nodelete: lua_close unloads C modules, but the thread pool's workers
# (core/run/threadpool.c) live on and may be running the module's code, polling
# for work, when the interpreter exits; unmapped under them, they crashed.
$(MOD): $(BIND_OBJ) $(LIB)
	@echo "  LD  $@"
	@$(CC) $(LDFLAGS) -shared -Wl,-z,nodelete $(BIND_OBJ) $(WHOLE) -o $@ $(CORE_LIBS)

$(BUILD)/tests/%: tests/core/%.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) -Itests/core $< $(WHOLE) -o $@ $(LDFLAGS) $(PKG_LIBS)

# Programs embedding the C API (core/moonflow.h) without Lua.
$(BUILD)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) $< $(WHOLE) -o $@ $(LDFLAGS) $(CORE_LIBS)

# Installs whatever Debian packages are missing (root on these machines).
deps:
	@sh tests/deps.sh $(DEB_BUILD)
deps-test: deps
	@sh tests/deps.sh $(DEB_TEST)
deps-bench: deps
	@sh tests/deps.sh $(DEB_BENCH)

repl: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all >/dev/null
	@$(BIN)

test: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) all $(CTEST_BIN)
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) bash tests/run.sh

# Seeds 1.. DIFF_SEEDS, 20000 cases each, then large tensors (threaded
# kernels), then DIFF_OPS_COUNT per-op cases (tests/diff/ops.lua); any
# "not ok" fails the target.
DIFF_SEEDS ?= 5
DIFF_OPS_COUNT ?= 4000
# tests/diff/ops.lua (in make test too) checks gradients against PyTorch's.
DEB_TEST += python3-torch
diff-long: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@for s in $$(seq 1 $(DIFF_SEEDS)); do \
	  $(BIN) tests/diff/elementwise.lua --seed $$s --count 20000 2>/dev/null; \
	  $(BIN) tests/diff/elementwise.lua --seed $$s --count 500 --large 2>/dev/null; \
	  $(BIN) tests/diff/ops.lua --seed $$s --count $(DIFF_OPS_COUNT) 2>/dev/null; \
	done > $(BUILD)/diff-long.tap; grep -v '^ok ' $(BUILD)/diff-long.tap; \
	! grep -q '^not ok' $(BUILD)/diff-long.tap && echo "diff-long: no differences"

# Randomized tests at full size (`make test` runs a bounded sample of each).
# FUZZ_SCRIPTS take a program count and a seed; the API and op-argument
# fuzzers run through tests/fuzz/run.sh (time limit, crash replay).
FUZZ_SCRIPTS   := tests/fuzz/autograph_programs.lua
FUZZ_COUNT     ?= 2000
FUZZ_SEED      ?= 1
FUZZ_API_CALLS ?= 100000
FUZZ_KERNEL_CASES ?= 5000

fuzz: diff-long
	@for s in $(FUZZ_SCRIPTS); do $(BIN) $$s $(FUZZ_COUNT) $(FUZZ_SEED) || exit 1; done
	@$(BIN) tests/fuzz/autograph_parser.lua --seed $(FUZZ_SEED) --count 20000
	@MOONFLOW_BIN=$(CURDIR)/$(BIN) sh tests/fuzz/run.sh $(FUZZ_API_CALLS) $(FUZZ_SEED) 3600
	@MOONFLOW_BIN=$(CURDIR)/$(BIN) MOONFLOW_ROOT=$(CURDIR) NO_COLOR=1 /usr/bin/python3 \
	  tests/fuzz/kernel.py --seed $(FUZZ_SEED) --count $(FUZZ_KERNEL_CASES)

soak: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@for s in tests/soak/*.lua; do $(BIN) $$s || exit 1; done

bench: deps-bench
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@BUILD=$(BUILD) sh tests/bench/run.sh

# Benchmark 4's tracing rows against an earlier commit, interleaved in one
# window of time (tests/bench/trace_ab.sh): make bench-trace-ab BASE=<rev>
AB_RUNS ?= 15
bench-trace-ab: deps
	@test -n "$(BASE)" || { echo "make bench-trace-ab: BASE=<rev> names the commit to compare with" >&2; exit 2; }
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@BUILD=$(BUILD) sh tests/bench/trace_ab.sh $(BASE) $(AB_RUNS)

# ---- install and packaging (docs/packaging.md) ----
# LIBDIR, LUA_CMOD_DIR and LUA_LMOD_DIR let a distribution choose its own
# places (debian/rules: the multiarch directory); the defaults are
# PREFIX's. libmoonflow.so carries the whole core, as the program does:
# ops are reached through the registry table, so a program linking it needs
# no --whole-archive and may name it before its own objects.
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
LUA_CMOD_DIR ?= $(LIBDIR)/lua/5.4
LUA_LMOD_DIR ?= $(PREFIX)/share/lua/5.4
SOMAJOR      := 0
# tests/packaging/ builds each package: pkg-config, man, LuaRocks, Debian's.
DEB_TEST     += man-db luarocks debhelper dpkg-dev fakeroot lintian
SHLIB        := $(BUILD)/libmoonflow.so.$(VERSION)

$(SHLIB): $(LIB)
	@echo "  LD  $@"
	@$(CC) $(LDFLAGS) -shared -Wl,-soname,libmoonflow.so.$(SOMAJOR) $(WHOLE) -o $@ $(CORE_LIBS)

install: all $(SHLIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LUA_CMOD_DIR) $(DESTDIR)$(LUA_LMOD_DIR)/moonflow \
	           $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/moonflow/tensor \
	           $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PREFIX)/share/jupyter/kernels/moonflow
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/moonflow
	install -m 644 $(MOD) $(DESTDIR)$(LUA_CMOD_DIR)/moonflow.so
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libmoonflow.a
	install -m 644 $(SHLIB) $(DESTDIR)$(LIBDIR)/libmoonflow.so.$(VERSION)
	ln -sf libmoonflow.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libmoonflow.so.$(SOMAJOR)
	ln -sf libmoonflow.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libmoonflow.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS_PRIVATE@|$(strip $(CORE_LIBS))|' \
	    packaging/moonflow.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/moonflow.pc
	install -m 644 core/moonflow.h core/error.h $(DESTDIR)$(INCLUDEDIR)/moonflow/
	install -m 644 core/tensor/dtype.h $(DESTDIR)$(INCLUDEDIR)/moonflow/tensor/
	install -m 644 docs/moonflow.1 $(DESTDIR)$(MANDIR)/man1/moonflow.1
	cp -r lua/moonflow/. $(DESTDIR)$(LUA_LMOD_DIR)/moonflow/
	# The kernelspec names the installed program, not this build's.
	$(BIN) install-kernel --prefix $(DESTDIR)$(PREFIX) >/dev/null
	sed -i 's|^\( *\)"/[^"]*moonflow",$$|\1"$(PREFIX)/bin/moonflow",|' \
	    $(DESTDIR)$(PREFIX)/share/jupyter/kernels/moonflow/kernel.json
	install -d $(DESTDIR)$(PREFIX)/share/moonflow/tutorials
	install -m 644 tutorials/*.md $(DESTDIR)$(PREFIX)/share/moonflow/tutorials/

# What a LuaRocks rock holds (moonflow-0.1.0-1.rockspec): the module, the
# Lua library and the program, in the directories LuaRocks names.
install-rock: all
	install -d $(LUA_CMOD_DIR) $(LUA_LMOD_DIR)/moonflow $(BINDIR)
	install -m 644 $(MOD) $(LUA_CMOD_DIR)/moonflow.so
	cp -r lua/moonflow/. $(LUA_LMOD_DIR)/moonflow/
	install -m 755 $(BIN) $(BINDIR)/moonflow
.PHONY: install-rock
# ---- end install and packaging ----

# ---- notebooks (README "Lessons in Jupyter") ----
# The lessons (tutorials/NN-name.md) as notebooks for the moonflow kernel,
# executed so they open with their outputs (a predict-then-run step's cell
# without: the learner runs it); generated files, kept out of git.
# `make notebooks` writes them; `make jupyter` goes from a fresh clone to the
# notebook server open on them: Debian's notebook 6.4 and the kernel only
# (no test set, no PyTorch). NOTEBOOK_ARGS adds options (--ip=0.0.0.0
# --no-browser on a remote machine). Lesson 12 finds tests/onnx/ through
# MOONFLOW_ROOT.
NOTEBOOK_DIR  := tutorials/notebooks
# Lessons 12 and 14 run python3 with onnx, numpy and scikit-learn's digits.
DEB_NOTEBOOK  := jupyter-notebook python3-nbclient python3-nbformat python3-numpy python3-onnx \
                 python3-sklearn
NOTEBOOK_ARGS ?=
# tests/export/: the notebooks exported and opened in headless Chromium.
DEB_TEST      += chromium chromium-driver python3-selenium python3-pil
# tests/export/test_classic_notebook.py: the lessons opened in the classic notebook server.
DEB_TEST      += jupyter-notebook

notebooks: deps
	@sh tests/deps.sh $(DEB_NOTEBOOK)
	@$(MAKE) --no-print-directory -j$(JOBS) all >/dev/null
	/usr/bin/python3 tutorials/build_notebooks.py $(BIN) $(NOTEBOOK_DIR)

# The API reference, docs/reference.md, written from the library's
# docstrings (lua/moonflow/reference.lua); tests/docs checks it is current.
docs: all
	@$(BIN) -e 'io.write(require("moonflow.reference").markdown())' > docs/reference.md.tmp
	@mv docs/reference.md.tmp docs/reference.md
	@echo "docs/reference.md written"

jupyter: notebooks
	$(BIN) install-kernel --user
	MOONFLOW_ROOT=$(CURDIR) jupyter notebook $$([ "$$(id -u)" = 0 ] && echo --allow-root) $(NOTEBOOK_ARGS) --notebook-dir=$(NOTEBOOK_DIR)
.PHONY: jupyter

# One JupyterHub for a class, four users at once (tests/hub/hub_test.py;
# docs/jupyterhub.md): about a minute, so not in `make test`; .ci/run
# runs it after.
DEB_HUB := jupyterhub node-configurable-http-proxy python3-requests python3-tornado jupyter-notebook
hub-test: deps
	@sh tests/deps.sh $(DEB_HUB)
	@$(MAKE) --no-print-directory -j$(JOBS) all >/dev/null
	@MOONFLOW_BIN=$(CURDIR)/$(BIN) MOONFLOW_ROOT=$(CURDIR) MOONFLOW_SANITIZE=$(SANITIZE) \
	  /usr/bin/python3 tests/hub/hub_test.py
.PHONY: hub-test
# ---- end notebooks ----

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
