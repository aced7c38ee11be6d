# Thin wrapper around CMake: `make run` builds and runs the main example,
# `make test` builds and runs every test. BUILD selects the build directory.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build run test asan tsan install clean bench

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

# The whole test suite under ThreadSanitizer.
tsan:
	$(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DACLCONV_TSAN=ON -DACLCONV_BUILD_BENCH=OFF"

# The operator benchmark against oneDNN (never part of `make test`); see
# docs/benchmarks.md. BENCH_ARGS adds options, e.g.
#   make bench BENCH_ARGS="--suite bench/suites/quick.suite"
BENCH_BUILD ?= build-bench
BENCH_ARGS ?=
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
