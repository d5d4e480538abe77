#!/usr/bin/env bash
# Builds the graph of every fixture-suite entry and prints one line each (a quick look; the
# engine test `fixture_suite` is the real check).
cd "$(dirname "$0")/.."
JTG=${JTG:-target/debug/jtg}
grep -v '^#' java-fixtures/suite.txt | while read -r m s; do
  [ -z "$m" ] && continue
  args=(); [ -n "$s" ] && args=(--start "java-fixtures/start/$s")
  for ints in unbounded java; do
    printf '%-22s %-32s %-9s ' "$m" "${s:--}" "$ints"
    out=$(timeout 60 $JTG graph build/fixtures "$m" "${args[@]}" --ints $ints --max-nodes "${MAX_NODES:-5000}" 2>&1 >/dev/null)
    code=$?
    if [ $code -eq 0 ]; then
      $JTG graph build/fixtures "$m" "${args[@]}" --ints $ints | head -1 | sed 's/^graph [^:]*: //'
    else
      echo "exit $code: ${out:0:150}"
    fi
  done
done
