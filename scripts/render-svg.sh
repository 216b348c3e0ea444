#!/usr/bin/env bash
# render-svg.sh: renders an SVG (from `tmapgen show --svg`) to PNG with headless Chromium, at the SVG's own size.
#
#   scripts/render-svg.sh IN.svg OUT.png
#
# Needs Debian's chromium (apt-get install chromium). Exit status: 0 rendered, 1 render failed or the PNG is
# empty, 2 bad usage or no chromium.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: scripts/render-svg.sh IN.svg OUT.png" >&2
  exit 2
fi
in=$1
out=$2
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [[ -z "$browser" ]]; then
  echo "render-svg.sh: no chromium found (apt-get install chromium)" >&2
  exit 2
fi
[[ -r "$in" ]] || { echo "render-svg.sh: cannot read $in" >&2; exit 2; }
# The window is the SVG's width and height attributes.
width=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)".*/\1/p' "$in" | head -1)
height=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\)".*/\1/p' "$in" | head -1)
width=${width:-1200}
height=${height:-800}
abs_in=$(cd "$(dirname "$in")" && pwd)/$(basename "$in")
abs_out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A small HTML page keeps the SVG at 1:1 with no margin.
printf '<!doctype html><html><body style="margin:0;background:white"><img src="file://%s" width="%s" height="%s"></body></html>\n' \
  "$abs_in" "$width" "$height" > "$tmp/page.html"
"$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$tmp/profile" \
  --allow-file-access-from-files --window-size="$width,$height" --screenshot="$abs_out" "file://$tmp/page.html" \
  >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
if [[ ! -s "$abs_out" ]]; then
  cat "$tmp/log" >&2
  echo "render-svg.sh: no PNG written" >&2
  exit 1
fi
echo "rendered $out (${width}x${height})"
