#!/usr/bin/env bash
# Mutation testing of `jtg check` over the fixture suite: every entry of java-fixtures/suite.txt,
# `jtg mutate` with a fixed seed; prints each entry's line and the overall score.
set -euo pipefail
JTG=${JTG:-target/release/jtg}
N=${N:-200}
MAX=${MAX:-80}
killed=0; equiv=0; total=0; enum=0
declare -A kinds
mapfile -t lines < <(grep -v '^\s*#' java-fixtures/suite.txt | grep -v '^\s*$')
for entry in "${lines[@]}"; do
  read -r method start <<<"$entry" || true
  args=(build/fixtures "$method" -n "$N" --seed 1 --max-mutants "$MAX" --min-score 0 ${ENUMERATE:+--enumerate})
  if [[ -n "${start:-}" ]]; then args+=(--start "java-fixtures/start/$start"); fi
  full=$("$JTG" mutate "${args[@]}" --verbose </dev/null)
  line=$(tail -1 <<<"$full")
  # per mutation kind: `killed|equivalent|SURVIVED <operator>` lines of --verbose
  while read -r fate op rest; do
    case "$fate" in killed|equivalent|SURVIVED) kinds["$op $fate"]=$(( ${kinds["$op $fate"]:-0} + 1 ));; esac
    if [[ "$fate" == equivalent && "$rest" == *": bounded enumeration"* ]]; then
      kinds["$op enum"]=$(( ${kinds["$op enum"]:-0} + 1 ))
    fi
  done <<<"$full"
  echo "$line"
  read -r t k e <<<"$(sed -E 's/.*: ([0-9]+) mutants tried .*: ([0-9]+) killed, ([0-9]+) equivalent.*/\1 \2 \3/' <<<"$line")"
  en=$(sed -E 's/.*\(([0-9]+) equivalent by bounded enumeration.*/\1/' <<<"$line")
  total=$((total + t)); killed=$((killed + k)); equiv=$((equiv + e)); enum=$((enum + en))
done
live=$((total - equiv))
strict=$((live + enum))
echo "suite: $total mutants, $killed killed, $equiv equivalent ($enum by bounded enumeration only), $((live - killed)) survived; score $(( live > 0 ? 1000 * killed / live : 1000 ))‰, counting bounded-enumeration equivalents as survivors $(( strict > 0 ? 1000 * killed / strict : 1000 ))‰"
for op in $(printf '%s\n' "${!kinds[@]}" | cut -d' ' -f1 | sort -u); do
  echo "kind $op: ${kinds["$op killed"]:-0} killed, ${kinds["$op equivalent"]:-0} equivalent (${kinds["$op enum"]:-0} by bounded enumeration only), ${kinds["$op SURVIVED"]:-0} survived"
done
