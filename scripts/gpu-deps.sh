#!/usr/bin/env bash
# gpu-deps.sh: the Debian packages a GPU host without a package manager needs to build tmapgen's core
# (Abseil, simdjson), carried as .deb files (docs/gpu-checks.md, "Building on a GPU host").
#
#   scripts/gpu-deps.sh fetch            here (Debian, network): apt-get download them into .debs/
#   scripts/gpu-deps.sh unpack PREFIX    there: dpkg-deb -x each .debs/*.deb into PREFIX (or, without
#                                        dpkg, python3 reads the .deb's ar and data.tar); prints the CMake
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
    for f in "${files[@]}"; do
      if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -x "$f" "$prefix"
      else  # no dpkg on this host: a .deb is an ar archive whose data.tar.* holds the files
        python3 - "$f" "$prefix" <<'PY'
import io, sys, tarfile
deb, prefix = sys.argv[1], sys.argv[2]
with open(deb, "rb") as f:
    if f.read(8) != b"!<arch>\n":
        sys.exit(deb + ": not a .deb (ar) archive")
    while True:
        hdr = f.read(60)
        if len(hdr) < 60:
            sys.exit(deb + ": no data.tar member")
        name, size = hdr[:16].decode().strip().rstrip("/"), int(hdr[48:58].decode().strip())
        data = f.read(size)
        if size % 2:
            f.read(1)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as t:
                try:
                    t.extractall(prefix, filter="tar")
                except TypeError:  # Python without extraction filters
                    t.extractall(prefix)
            break
PY
      fi
    done
    prefix=$(cd "$prefix" && pwd)
    libdir=$prefix/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
    echo "export LD_LIBRARY_PATH=$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" > "$prefix/env.sh"
    echo "$prefix/usr"
    ;;
  *) echo "usage: gpu-deps.sh fetch | unpack PREFIX" >&2; exit 2 ;;
esac
