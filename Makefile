# Thin wrapper around CMake: `make run` builds and runs the main example,
# `make test` builds and runs every test. BUILD selects the build directory.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build run test asan tsan install clean bench fuzz fuzz-build fuzz-ci soak valgrind

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/examples/conv_backward_2d

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DACLCONV_SANITIZE=ON -DACLCONV_BUILD_BENCH=OFF"

# The whole test suite under ThreadSanitizer. TSan needs a fixed memory layout
# on kernels with high mmap randomization (vm.mmap_rnd_bits > 28 makes it die
# with "unexpected memory mapping"): run without ASLR when setarch allows it.
TSAN_RUN = $(shell setarch $$(uname -m) -R true >/dev/null 2>&1 && echo setarch $$(uname -m) -R)
tsan:
	$(TSAN_RUN) $(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DACLCONV_TSAN=ON -DACLCONV_BUILD_BENCH=OFF"

# ---- robustness (docs/robustness.md) ------------------------------------------
# The API fuzzer: libFuzzer + ASan + UBSan (clang), in build-fuzz. `make fuzz`
# runs FUZZ_SECONDS; new inputs go to build-fuzz/corpus, crashes to
# build-fuzz/artifacts/ (replay one with build-fuzz/tests/fuzz/fuzz_conv_backward FILE).
FUZZ_SECONDS ?= 600
FUZZ_BUILD ?= build-fuzz
FUZZ_FLAGS ?=
FUZZ_ENV = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
fuzz-build:
	@if ! command -v clang >/dev/null 2>&1 || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then \
	  apt-get update -q && apt-get install -y -q clang libclang-rt-14-dev; fi
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DACLCONV_FUZZ=ON -DACLCONV_SANITIZE=ON -DACLCONV_BUILD_EXAMPLES=OFF -DACLCONV_BUILD_BENCH=OFF \
	  -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_conv_backward

fuzz: fuzz-build
	mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	$(FUZZ_ENV) ./$(FUZZ_BUILD)/tests/fuzz/fuzz_conv_backward -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=30 -max_len=512 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/ \
	  $(FUZZ_FLAGS) $(FUZZ_BUILD)/corpus tests/fuzz/corpus

# What CI runs: one minute.
fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=60

# Concurrency (and the randomized tests, if they have a soak mode) for
# SOAK_SECONDS: stream / executor races, per-thread state, lifetime races.
SOAK_SECONDS ?= 300
soak: build
	SOAK_SECONDS=$(SOAK_SECONDS) ./$(BUILD)/tests/test_concurrency
	@if [ -x $(BUILD)/tests/test_conv_random ]; then ACLCONV_SOAK=1 ./$(BUILD)/tests/test_conv_random; fi

# valgrind memcheck on every example (and the executor / fault tests): no
# invalid access, no definite leak.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
valgrind: build
	@command -v valgrind >/dev/null 2>&1 || (apt-get update -q && apt-get install -y -q valgrind)
	@set -e; for prog in $(BUILD)/examples/* $(BUILD)/tests/test_executor $(BUILD)/tests/test_faults; do \
	  if [ -f "$$prog" ] && [ -x "$$prog" ]; then \
	    echo "valgrind $$prog"; ACLCONV_NUM_THREADS=2 $(VALGRIND) "$$prog" > /dev/null; fi; \
	done

# The operator benchmark against oneDNN (never part of `make test`); see
# docs/benchmarks.md. BENCH_ARGS adds options, e.g.
#   make bench BENCH_ARGS="--suite bench/suites/quick.suite"
BENCH_BUILD ?= build-bench
BENCH_ARGS ?= --rounds 3
.PHONY: bench-build bench-check
bench-build:
	dpkg -s libdnnl-dev >/dev/null 2>&1 || (apt-get update && apt-get install -y libdnnl-dev)
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target aclconv_bench

bench: bench-build
	./$(BENCH_BUILD)/bench/aclconv_bench $(BENCH_ARGS)

bench-check: bench-build
	./$(BENCH_BUILD)/bench/aclconv_bench --check $(BENCH_ARGS)

install: build
	cmake --install $(BUILD) --prefix $(or $(PREFIX),/usr/local)

clean:
	rm -rf build build-*
