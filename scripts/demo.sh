#!/usr/bin/env bash
# make demo: the main job end to end on the thesis examples.
set -euo pipefail
cd "$(dirname "$0")/.."
JTG=target/release/jtg
FIX=build/fixtures
OUT=build/demo
mkdir -p "$OUT"

# Runs a command that must find a violation (exit 1); any other exit ends the demo.
# $1: what was broken, for the message; the rest: the command.
expect_caught() {
  local what=$1
  shift
  local rc=0
  "$@" || rc=$?
  if [ $rc -ne 1 ]; then
    echo "demo: the broken $what was not caught (exit $rc, expected 1)" >&2
    exit 1
  fi
  echo "(exit 1: the violation above is the expected result)"
}

echo "== Fig. 2.11: List.contains"
$JTG graph $FIX List.contains
$JTG graph $FIX List.contains --format svg -o $OUT/contains.svg
echo
echo "== Fig. 2.13: List.get on a cyclic list (start state A)"
cat java-fixtures/start/List.get.cyclic.state
echo
$JTG graph $FIX List.get --start java-fixtures/start/List.get.cyclic.state
$JTG graph $FIX List.get --start java-fixtures/start/List.get.cyclic.state --format svg -o $OUT/get.svg
echo
echo "== Soundness: every concrete run in the JVM is a path of the graph"
$JTG check $FIX List.contains -n 10000 --seed 1
$JTG check $FIX List.get --start java-fixtures/start/List.get.cyclic.state -n 1000 --seed 1 --max-steps 5000
echo
echo "== A hand-broken graph: contains' null successor of the instance refinement removed"
$JTG graph $FIX List.contains --format json -o $OUT/contains.json
# drop the refinement edge labelled `o1 = null`
python3 - "$OUT/contains.json" "$OUT/broken.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
null = {"label": "ref_eq", "r": "o1", "p": "null", "equal": True}
g["edges"] = [e for e in g["edges"] if not (e["kind"] == "refine" and null in e["labels"])]
json.dump(g, open(sys.argv[2], "w"), indent=1)
PY
expect_caught "graph" $JTG check $FIX List.contains --graph $OUT/broken.json -n 200 --seed 1
echo
echo "== Termination verdicts: YES with ranking functions, NO with a looping input"
$JTG prove $FIX List.contains --check 200
$JTG prove $FIX List.get --start java-fixtures/start/List.get.cyclic.state --check 20
$JTG prove $FIX NonTerm.parity --max-steps 5000
$JTG prove $FIX NonTerm.walk --start java-fixtures/start/NonTerm.walk.cyclic.state --max-steps 5000
echo
echo "== A hand-broken certificate: contains' ranking function negated, caught on JVM runs"
expect_caught "certificate" $JTG prove $FIX List.contains --check 20 --break-certificate rank
echo
echo "== A hand-broken invariant: the subtractive gcd's loop-head bound negated, caught on JVM runs"
$JTG prove $FIX IntLoops.gcdPositive --check 20
expect_caught "invariant" $JTG prove $FIX IntLoops.gcdPositive --check 20 --break-certificate invariant
echo
echo "pictures: $OUT/contains.svg $OUT/get.svg"
