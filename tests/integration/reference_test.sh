#!/usr/bin/env bash
# The flag reference and every command's help: docs/flags.md and the README's index of flags are
# what the binary's tables write now (else: run scripts/reference.sh); each command answers
# --help and -h with exit 0; `stampede help FLAG` finds a flag of any command; the man page the
# build wrote covers every flag. Costs about 1 s.
source "$(dirname "$0")/lib.sh" "$@"
ROOT=$(realpath "$(dirname "$0")/../..")

"$STAMPEDE" help --markdown >"$TEST_TMP/flags.md"
diff -u "$ROOT/docs/flags.md" "$TEST_TMP/flags.md" >"$TEST_TMP/flags.diff" ||
  fail "docs/flags.md is stale: run bash scripts/reference.sh BINARY ($(head -c 1500 "$TEST_TMP/flags.diff"))"
"$STAMPEDE" help --readme >"$TEST_TMP/readme.md"
sed -n '/<!-- flags:begin/,/<!-- flags:end -->/p' "$ROOT/README.md" | sed '1d;$d' >"$TEST_TMP/readme.now"
diff -u "$TEST_TMP/readme.now" "$TEST_TMP/readme.md" >"$TEST_TMP/readme.diff" ||
  fail "README.md's flags are stale: run bash scripts/reference.sh BINARY ($(head -c 1500 "$TEST_TMP/readme.diff"))"

for command in "" serve report compare shards; do
  for flag in --help -h; do
    # shellcheck disable=SC2086 # the load run has no command word
    run_stampede "help_${command:-load}$flag" $command $flag
    expect_rc 0
    grep -q "^stampede${command:+ $command}: " "$OUT" || fail "$command $flag: $(head -c 300 "$OUT")"
    grep -q "^Usage:" "$OUT" || fail "$command $flag prints no usage"
  done
done
run_stampede help_flag help -m
expect_rc 0
grep -q -- "-m, --connections N" "$OUT" || fail "help -m: $(cat "$OUT")"
run_stampede help_serve_flag help idle-timeout
expect_rc 0
grep -q "stampede serve, under" "$OUT" || fail "help idle-timeout does not name serve: $(cat "$OUT")"
run_stampede help_unknown help --no-such-flag
expect_rc 2

# The man page: written by the build beside the binary (stampede help --man), every flag in it.
MAN=$(dirname "$STAMPEDE")/stampede.1
[[ -s $MAN ]] || fail "the build wrote no man page at $MAN"
"$STAMPEDE" help --man | cmp -s - "$MAN" || fail "$MAN is not what stampede help --man writes"
while read -r flag; do
  grep -qF -- ".B ${flag//-/\\-}" "$MAN" || fail "the man page lacks $flag"
done < <(sed -nE 's/^\| `(-[^ ,`]*).*/\1/p' "$ROOT/docs/flags.md")  # each flag's first spelling
pass
