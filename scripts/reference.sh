#!/usr/bin/env bash
# Rewrites the flag reference from the flag tables of a built stampede: docs/flags.md (stampede
# help --markdown) and the README's part between its flags markers (stampede help --readme).
# tests/integration/reference_test.sh fails while either is stale.
# Usage: bash scripts/reference.sh [path/to/stampede]    (default: build/stampede)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/stampede}")
"$bin" help --markdown >docs/flags.md
{
  sed '/<!-- flags:begin/q' README.md
  "$bin" help --readme
  sed -n '/<!-- flags:end -->/,$p' README.md
} >README.md.new
mv README.md.new README.md
echo "reference.sh: docs/flags.md and README.md's flags rewritten from $bin"
