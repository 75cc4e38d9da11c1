# Trapeze: make | make test | make run | make bench | make notebooks | make install
# | make python-wheel | make install-python
# SAN=1 builds everything with AddressSanitizer and UBSan (float-cast-overflow too:
# gcc leaves it out of "undefined") into build-san/, with the invariant checks
# on (TRAPEZE_CHECKS: TRAPEZE_ASSERT, common/assert.h).

PREFIX ?= /usr/local
CC ?= cc
SAN ?= 0

# LTO=1 adds link-time optimization (below).
LTO ?= 0

ifeq ($(SAN),1)
B := build-san
SANFLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer \
            -DTRAPEZE_CHECKS
OPT := -O1 -g
LTO := 0
else
B := build
SANFLAGS :=
OPT := -O3 -g
endif

# FUZZ=1 (used by `make fuzz`): clang, libFuzzer instrumentation, ASan and
# UBSan, into build-fuzz/. Warnings stay warnings there (-Wno-error): -Werror
# is the gcc builds' job, and clang warns on things gcc does not (e.g. unused
# static inline functions that a macro generates).
ifeq ($(FUZZ),1)
B := build-fuzz
CC := clang
SANFLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
            -fno-omit-frame-pointer -fsanitize=fuzzer-no-link -Wno-error
OPT := -O1 -g
LTO := 0
endif
FUZZ_SECONDS ?= 30

# LTO=1: link-time optimization of the plain build (docs/performance.md: the
# simulator's host instructions -3%, the build's CPU 2.8x; not the default
# for that cost, and because an installed libtrapeze.a of fat objects makes
# every program's link an LTO link with its own GCC). The library's objects
# carry GCC's intermediate code beside their machine code (fat), so that the
# program, the shared library and the benches are optimized whole when
# linked, while the tests and fuzz regressions link the machine code as
# before (-fno-lto: an LTO link per test binary would cost the suite
# minutes). Floating-point results do not change: no -ffast-math, no -march,
# and ISO C keeps contraction off. Switching needs a fresh build/ (`make clean`).
ifeq ($(LTO),1)
LTO_CFLAGS := -flto=auto -ffat-lto-objects
LTO_LDFLAGS := -flto=auto
LTO_OFF := -fno-lto
AR := gcc-ar
endif

PKGS := gsl nlopt
CFLAGS := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(OPT) -fPIC \
          -Iinclude -I. $(SANFLAGS) $(EXTRA_CFLAGS)
LDLIBS := -lcsv -linih -lmetis -lnlopt -lgsl -lgslcblas -llzma -lstdc++ -lpthread -lm
LDFLAGS := $(SANFLAGS)

LIB_SRC := $(wildcard common/*.c model/*.c sim/*.c sim/core/*.c sim/mem/*.c sim/power/*.c sim/stencil/*.c sim/trace/*.c sim/locality/*.c sim/sample/*.c sampler/*.c sampler/*/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
CLI_SRC := $(wildcard cli/*.c)
# `mpirun -n N trapeze calibrate`: only cli/calib_mpi.c sees MPI, and only when
# OpenMPI is installed (scripts/install-deps.sh mpi); the library stays MPI-free.
MPI_OK := $(shell pkg-config --exists ompi-c 2>/dev/null && echo 1)
ifeq ($(MPI_OK),1)
MPI_CFLAGS := -DTRAPEZE_MPI $(shell pkg-config --cflags ompi-c)
CLI_LIBS := $(shell pkg-config --libs ompi-c)
endif
$(B)/obj/cli/calib_mpi.o: CFLAGS += $(MPI_CFLAGS)
# That decision is made when make reads this file, so the build records it
# ($(B)/config.stamp, below the first target).
BUILD_CONFIG := mpi=$(if $(filter 1,$(MPI_OK)),1,0) cflags=$(strip $(MPI_CFLAGS)) libs=$(strip $(CLI_LIBS))
CLI_OBJ := $(CLI_SRC:%.c=$(B)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
# fuzz/fuzz_NAME.c: a libFuzzer target per parser; in `make test` each also
# runs once over its seeds and reproducers (fuzz/driver.c) as test_fuzz_NAME.
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_REG := $(FUZZ_SRC:fuzz/fuzz_%.c=$(B)/tests/test_fuzz_%)
FUZZ_BIN := $(FUZZ_SRC:fuzz/fuzz_%.c=$(B)/fuzz/fuzz_%)
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(B)/bench/%)
DEPS_OK := build/.deps-ok

.PHONY: all test run-tests run bench notebooks install install-python python-wheel uninstall clean deps fuzz fuzz-run FORCE
all: $(B)/libtrapeze.a $(B)/libtrapeze.so $(B)/trapeze

deps: $(DEPS_OK)
$(DEPS_OK): scripts/install-deps.sh
	@scripts/install-deps.sh build
	@mkdir -p build && touch $@

$(B)/obj/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO_CFLAGS) -MMD -MP -c $< -o $@

$(B)/libtrapeze.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The shared library carries a SONAME (libtrapeze.so.MAJOR) and exports
# exactly what the public headers declare: its version script is generated
# from them (scripts/libtrapeze-map.sh), and internal trapeze_* helpers are
# hidden besides (TRAPEZE_INTERNAL, common/internal.h). The static library
# keeps every symbol: the program and the tests link it.
PUBLIC_H := include/trapeze.h $(wildcard include/trapeze/*.h)
VERSION := $(shell sed -n 's/.*TRAPEZE_VERSION "\(.*\)"/\1/p' include/trapeze.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
$(B)/libtrapeze.map: $(PUBLIC_H) scripts/libtrapeze-map.sh
	@mkdir -p $(dir $@)
	scripts/libtrapeze-map.sh "$(CC)" >$@.tmp && mv $@.tmp $@

$(B)/libtrapeze.so: $(LIB_OBJ) $(B)/libtrapeze.map
	$(CC) -shared -o $@.$(VERSION) $(LIB_OBJ) -Wl,-soname,libtrapeze.so.$(SOMAJOR) \
	    -Wl,--version-script=$(B)/libtrapeze.map $(LDFLAGS) $(LTO_LDFLAGS) $(LDLIBS)
	ln -sf libtrapeze.so.$(VERSION) $(B)/libtrapeze.so.$(SOMAJOR)
	ln -sf libtrapeze.so.$(SOMAJOR) $@

# The MPI decision, recorded: rewritten only when it changes (OpenMPI
# installed after a first build, as `make run` then `make test` does), so
# what depends on it is rebuilt then, and never otherwise.
$(B)/config.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(BUILD_CONFIG)' | cmp -s - $@ || echo '$(BUILD_CONFIG)' >$@
$(B)/obj/cli/calib_mpi.o: $(B)/config.stamp
FORCE:

$(B)/trapeze: $(CLI_OBJ) $(B)/libtrapeze.a $(B)/config.stamp
	$(CC) -o $@ $(CLI_OBJ) $(B)/libtrapeze.a $(LDFLAGS) $(LTO_LDFLAGS) $(LDLIBS) $(CLI_LIBS)

$(B)/tests/%: tests/%.c tests/check.h tests/fixture.h $(B)/libtrapeze.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO_OFF) -o $@ $< $(B)/libtrapeze.a $(LDFLAGS) $(LDLIBS)

$(B)/tests/test_fuzz_%: fuzz/fuzz_%.c fuzz/driver.c fuzz/util.c fuzz/fuzz.h $(B)/libtrapeze.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO_OFF) -o $@ fuzz/fuzz_$*.c fuzz/driver.c fuzz/util.c $(B)/libtrapeze.a \
	    $(LDFLAGS) $(LDLIBS)

$(B)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/seed_init.c fuzz/util.c fuzz/fuzz.h $(B)/libtrapeze.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ fuzz/fuzz_$*.c fuzz/seed_init.c fuzz/util.c \
	    $(B)/libtrapeze.a $(LDFLAGS) $(LDLIBS)

$(B)/bench/%: bench/%.c bench/bench_common.h $(B)/libtrapeze.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO_CFLAGS) -o $@ $< $(B)/libtrapeze.a $(LDFLAGS) $(LTO_LDFLAGS) $(LDLIBS)

# The README's test command. Installs what every test needs (OpenMPI for the
# mpirun test, Jupyter for the notebooks), then builds in a fresh make so that
# the MPI check above sees OpenMPI, then runs unit tests, command-line tests
# and notebooks.
# Both build with a job per core (NPROC) unless make was given -j already,
# and run-tests runs the test groups in parallel (scripts/run-tests.sh).
# Its last line is its own wall time, the dependencies and the build included.
test:
	@start=$$(date +%s); scripts/install-deps.sh all && $(MAKE) --no-print-directory run-tests; \
	    rc=$$?; echo "make test: $$(($$(date +%s) - start)) s wall (dependencies, build and tests)"; exit $$rc

NPROC := $(shell nproc 2>/dev/null || echo 2)
JOBS_FLAG = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
run-tests:
	@$(MAKE) --no-print-directory $(JOBS_FLAG) all $(TEST_BIN) $(FUZZ_REG)
	@scripts/run-tests.sh $(B)

# The main job on built-in defaults: a short calibration against the
# simulator, then the best height and sync mode of the shipped benchmarks.
run:
	@$(MAKE) --no-print-directory $(JOBS_FLAG) all
	@scripts/run-main-job.sh $(B)

# With malloc on huge pages, as the trapeze program runs (cli/hugepages.c).
# Then Choo's cache-contention trend table on its three GPUs (docs/simulator.md).
bench: all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; \
	    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 $$b || exit 1; done
	@echo "== scripts/contention-trends.py --quick --gpu choo-baseline,gtx480,v100"
	@scripts/contention-trends.py --quick --gpu choo-baseline,gtx480,v100 --trapeze $(B)/trapeze

# Each parser's libFuzzer target for FUZZ_SECONDS (default 30), ASan+UBSan;
# a crash fails with the reproducer's path (scripts/fuzz.sh). Its build
# (the library again, with clang's coverage) takes a job per core too.
fuzz:
	@scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory $(JOBS_FLAG) FUZZ=1 fuzz-run

fuzz-run: $(FUZZ_BIN)
	@scripts/fuzz.sh $(B) $(FUZZ_SECONDS)

notebooks: all
	@scripts/install-deps.sh notebooks
	@scripts/run-notebooks.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/trapeze \
	    $(DESTDIR)$(PREFIX)/include/trapeze
	install -m 755 $(B)/trapeze $(DESTDIR)$(PREFIX)/bin/trapeze
	install -m 644 $(B)/libtrapeze.a $(DESTDIR)$(PREFIX)/lib/libtrapeze.a
	install -m 755 $(B)/libtrapeze.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtrapeze.so.$(VERSION)
	ln -sf libtrapeze.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtrapeze.so.$(SOMAJOR)
	ln -sf libtrapeze.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libtrapeze.so
	install -m 644 include/trapeze.h $(DESTDIR)$(PREFIX)/include/trapeze.h
	install -m 644 include/trapeze/*.h $(DESTDIR)$(PREFIX)/include/trapeze/
	cp -R data/. $(DESTDIR)$(PREFIX)/share/trapeze/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|' \
	    scripts/trapeze.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/trapeze.pc

# The Python package as a wheel that holds libtrapeze.so and data/
# (python/setup.py builds it from this build, out of the source tree, with
# Debian's setuptools and wheel, offline): pip install $(B)/python/dist/*.whl
# needs no environment variable.
# The same sources give the same wheel: its files are dated the last
# commit's time (SOURCE_DATE_EPOCH, which wheel honours), not their mtimes.
PYTHON ?= /usr/bin/python3
WHEEL_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))
python-wheel: $(B)/libtrapeze.so
	@scripts/install-deps.sh python
	rm -rf $(B)/python/dist
	$(if $(WHEEL_EPOCH),SOURCE_DATE_EPOCH=$(WHEEL_EPOCH)) \
	    TRAPEZE_BUILD_DIR=$(abspath $(B)) $(PYTHON) -m pip wheel -q --no-build-isolation \
	    --no-deps --no-cache-dir -w $(B)/python/dist ./python
	@ls $(B)/python/dist/trapeze-*.whl

# make install-python puts that wheel where Debian's python3 looks (PYDIR),
# unpacked as the wheel format installs it (the package and its dist-info, so
# pip lists it and `make uninstall` or `pip uninstall trapeze` removes it).
PYDIR ?= $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_path('platlib'))" 2>/dev/null)
install-python: python-wheel
	@test -n "$(PYDIR)" || { echo "install-python: no python3 (set PYDIR)"; exit 1; }
	install -d $(DESTDIR)$(PYDIR)
	rm -rf $(DESTDIR)$(PYDIR)/trapeze $(DESTDIR)$(PYDIR)/trapeze-*.dist-info
	$(PYTHON) -m zipfile -e $(B)/python/dist/trapeze-*.whl $(DESTDIR)$(PYDIR)

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/trapeze $(DESTDIR)$(PREFIX)/lib/libtrapeze.* \
	    $(DESTDIR)$(PREFIX)/include/trapeze.h $(DESTDIR)$(PREFIX)/include/trapeze \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/trapeze.pc \
	    $(DESTDIR)$(PREFIX)/share/trapeze
	$(if $(PYDIR),rm -rf $(DESTDIR)$(PYDIR)/trapeze $(DESTDIR)$(PYDIR)/trapeze-*.dist-info)

clean:
	rm -rf build-san build-fuzz $(filter-out build/.deps-ok,$(wildcard build/*))

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
