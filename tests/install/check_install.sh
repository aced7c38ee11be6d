#!/usr/bin/env bash
# Installs aclconv into a fresh prefix and builds CANN's official usage
# example the way CANN programs are built (g++, -lascendcl -lnnopbase -lopapi),
# plus a pkg-config and a CMake find_package consumer; runs them and checks the
# numbers the documentation promises.
# usage: check_install.sh <build-dir> <source-dir> <work-dir> [extra compiler flags]
# (the extra flags carry the sanitizer options of a sanitized build)
set -euo pipefail
build=$1 src=$2 work=$3 extra=${4:-}
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/ | head -n 1)
libdir=${libdir%/}

check_output() { # file: 196 x 2.0, 4 x 98.0, 2 x 98.0
  local out=$1
  [ "$(grep -c '^gradInputResult\[[0-9]*\] is: 2.000000$' "$out")" = 196 ] || { echo "bad gradInput in $out"; exit 1; }
  [ "$(grep -c '^gradWeightResult\[[0-9]*\] is: 98.000000$' "$out")" = 4 ] || { echo "bad gradWeight in $out"; exit 1; }
  [ "$(grep -c '^gradBiasResult\[[0-9]*\] is: 98.000000$' "$out")" = 2 ] || { echo "bad gradBias in $out"; exit 1; }
  [ "$(wc -l < "$out")" = 202 ] || { echo "unexpected extra output in $out"; exit 1; }
}

# 1. CANN's link line.
g++ -std=c++11 -Wall -Werror $extra "$src/examples/conv_backward_official.cpp" -I"$prefix/include" \
    -L"$libdir" -lascendcl -lnnopbase -lopapi -Wl,-rpath,"$libdir" -o "$work/official"
"$work/official" > "$work/official.out"
check_output "$work/official.out"

# 2. pkg-config, C, static and shared.
if command -v pkg-config >/dev/null 2>&1; then
  PKG_CONFIG_PATH=$libdir/pkgconfig
  export PKG_CONFIG_PATH
  gcc -std=c11 -Wall -Werror $extra -I"$src/examples" "$src/examples/conv_backward_2d.c" \
      $(pkg-config --cflags --libs aclconv) -Wl,-rpath,"$libdir" -o "$work/pc"
  "$work/pc" > "$work/pc.out"
  check_output "$work/pc.out"
fi

# 3. CMake package.
mkdir -p "$work/cm"
cat > "$work/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(aclconv REQUIRED)
add_executable(consumer $src/examples/conv_backward_2d.c)
target_link_libraries(consumer PRIVATE aclconv::aclconv)
CM
cmake -S "$work/cm" -B "$work/cm/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="$extra" >/dev/null
cmake --build "$work/cm/build" >/dev/null
"$work/cm/build/consumer" > "$work/cm.out"
check_output "$work/cm.out"
echo "install check passed"
