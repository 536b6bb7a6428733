#!/usr/bin/env bash
# The --html page's script on data real runs rarely give: every request refused, thresholds and
# checks and a capacity plan, two sweep targets, no per-second p50/p90, and a command line and
# title written to break out of the page's data script. Each sample in html/samples is put into
# page.html as the build does (report/html/assemble.py, with uPlot as package-lock.json pins it)
# and must render in headless Chromium with every check of html/check_page.py holding.
source "$(dirname "$0")/lib.sh" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
PAGE_DIR=$HERE/../../report/html
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh --test)"
UPLOT=$(npm_modules "$PAGE_DIR")/uplot

for sample in "$HERE"/html/samples/*.json; do
  name=$(basename "$sample" .json)
  "$PYTHON" "$PAGE_DIR/assemble.py" "$UPLOT" "$sample" "$TEST_TMP/$name.html" ||
    fail "$name: assemble.py failed"
  "$PYTHON" "$HERE/html/check_page.py" "$TEST_TMP/$name.html" "$sample" >&2 || fail "$name: the page does not show its data"
done
pass
