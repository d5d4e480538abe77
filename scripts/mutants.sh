#!/usr/bin/env bash
# Mutation testing of `jtg check` over the fixture suite: every entry of java-fixtures/suite.txt,
# `jtg mutate` with a fixed seed; prints each entry's line, the four fates (killed, not covered,
# equivalent, survived), the score killed / (killed + survived) and the counts per mutant kind. JOBS entries run at once (each its own JVM); the output is in suite order
# whatever JOBS is. OUT keeps every entry's full `--verbose` listing (default: a temp dir).
set -euo pipefail
JTG=${JTG:-target/release/jtg}
N=${N:-200}
MAX=${MAX:-80}
JOBS=${JOBS:-1}
FIXTURES=${FIXTURES:-build/fixtures}
SUITE=${SUITE:-java-fixtures/suite.txt}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
killed=0; uncov=0; equiv=0; surv=0; total=0
declare -A kinds
mapfile -t lines < <(grep -v '^\s*#' "$SUITE" | grep -v '^\s*$')

# one entry: its listing to $OUT/<index>.txt (the index keeps the suite order)
run_entry() {
  local i=$1 method start
  read -r method start <<<"${lines[$i]}" || true
  local args=("$FIXTURES" "$method" -n "$N" --seed 1 --max-mutants "$MAX" --min-score 0 ${ENUMERATE:+--enumerate})
  if [[ -n "${start:-}" ]]; then args+=(--start "java-fixtures/start/$start"); fi
  "$JTG" mutate "${args[@]}" --verbose </dev/null >"$OUT/$i.txt" 2>"$OUT/$i.err" \
    || { echo "jtg mutate failed on ${lines[$i]}: $(tail -1 "$OUT/$i.err")" >&2; return 1; }
}
export -f run_entry
export JTG N MAX ENUMERATE OUT FIXTURES
# bash arrays cannot be exported: hand the suite lines over in a file
printf '%s\n' "${lines[@]}" >"$OUT/suite.lines"
seq 0 $(( ${#lines[@]} - 1 )) | xargs -P "$JOBS" -I{} bash -c \
  'mapfile -t lines <"$OUT/suite.lines"; run_entry "$1"' _ {}

for i in "${!lines[@]}"; do
  full=$(cat "$OUT/$i.txt")
  line=$(tail -1 <<<"$full")
  # per mutation kind: the `<fate> <operator>` lines of --verbose
  while read -r fate op _; do
    case "$fate" in killed|not-covered|equivalent|SURVIVED) kinds["$op $fate"]=$(( ${kinds["$op $fate"]:-0} + 1 ));; esac
  done <<<"$full"
  echo "$line"
  read -r t k c e s <<<"$(sed -E 's/.*: ([0-9]+) mutants tried .*: ([0-9]+) killed, ([0-9]+) not covered, ([0-9]+) equivalent, ([0-9]+) survived.*/\1 \2 \3 \4 \5/' <<<"$line")"
  total=$((total + t)); killed=$((killed + k)); uncov=$((uncov + c)); equiv=$((equiv + e)); surv=$((surv + s))
done
live=$((killed + surv))
score=$(awk -v k="$killed" -v l="$live" 'BEGIN { printf "%.1f", (l > 0 ? 100 * k / l : 100) }')
echo "suite: $total mutants: $killed killed, $uncov not covered, $equiv equivalent, $surv survived; score killed / (killed + survived) $score %"
for op in $(printf '%s\n' "${!kinds[@]}" | cut -d' ' -f1 | sort -u); do
  echo "kind $op: ${kinds["$op killed"]:-0} killed, ${kinds["$op not-covered"]:-0} not covered, ${kinds["$op equivalent"]:-0} equivalent, ${kinds["$op SURVIVED"]:-0} survived"
done
echo "listings: $OUT"
