#!/usr/bin/env bash
# gpu-deps.sh: the Debian packages a GPU host without a package manager needs to build tmapgen's core
# (Abseil, simdjson), carried as .deb files (docs/gpu-checks.md, "Building on a GPU host").
#
#   scripts/gpu-deps.sh fetch            here (Debian, network): apt-get download them into .debs/
#   scripts/gpu-deps.sh unpack PREFIX    there: dpkg -x each .debs/*.deb into PREFIX; prints the CMake
#                                        prefix path (PREFIX/usr) to pass as -DCMAKE_PREFIX_PATH, and
#                                        writes PREFIX/env.sh, to source before running what was built:
#                                        it puts PREFIX's libraries on LD_LIBRARY_PATH (the build's RUNPATH
#                                        names only direct dependencies; Abseil's own libraries need each
#                                        other, e.g. libabsl_strings -> libabsl_strings_internal)
# The core never links libcuda; these are the only libraries it needs beyond the C++ runtime.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
debs=$root/.debs
pkgs=(libabsl-dev libabsl20220623 libsimdjson-dev libsimdjson14)
case "${1:-}" in
  fetch)
    mkdir -p "$debs"
    (cd "$debs" && apt-get download "${pkgs[@]}" 2>/dev/null)
    ls "$debs"
    ;;
  unpack)
    prefix=${2:?usage: gpu-deps.sh unpack PREFIX}
    mkdir -p "$prefix"
    shopt -s nullglob
    files=("$debs"/*.deb)
    if [ "${#files[@]}" -eq 0 ]; then
      echo "gpu-deps.sh: no .deb files in $debs (run 'scripts/gpu-deps.sh fetch' on a Debian host and carry .debs/)" >&2
      exit 2
    fi
    for f in "${files[@]}"; do dpkg -x "$f" "$prefix"; done
    prefix=$(cd "$prefix" && pwd)
    libdir=$prefix/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
    echo "export LD_LIBRARY_PATH=$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" > "$prefix/env.sh"
    echo "$prefix/usr"
    ;;
  *) echo "usage: gpu-deps.sh fetch | unpack PREFIX" >&2; exit 2 ;;
esac
