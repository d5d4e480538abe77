#!/usr/bin/env bash
# Seed corpora of the fuzz targets (fuzz/corpus/<target>/, git-ignored), rebuilt at each call:
#   parse_class, build_graph: the compiled fixtures and a few dozen class files extracted from
#     the TPDB jars under $JTG_CORPUS (not committed: extracted here, at fuzz time);
#   parse_state: the fixture start states and inputs, and the states of the JSON graphs below;
#   read_json:   `jtg graph --format json` of the fixture-suite entries (partial graphs of at
#     most 300 nodes are fine).
# Needs `make fixtures` and a jtg binary ($JTG, default target/release/jtg).
set -euo pipefail
cd "$(dirname "$0")/.."
FIX=${JTG_FIXTURES:-build/fixtures}
CORPUS=${JTG_CORPUS:-../shared/corpus}
JTG=${JTG:-target/release/jtg}
JARS=${FUZZ_JARS:-40}
OUT=fuzz/corpus
[ -f "$FIX/List.class" ] || { echo "fuzz-corpus: no fixtures in $FIX (run make fixtures)" >&2; exit 2; }
[ -x "$JTG" ] || { echo "fuzz-corpus: no jtg binary at $JTG (run make build)" >&2; exit 2; }
rm -rf "$OUT"/{parse_class,build_graph,parse_state,read_json}
mkdir -p "$OUT"/{parse_class,build_graph,parse_state,read_json}

# Class files: fixtures, then the classes of the first $JARS jars of the corpus (sorted).
find "$FIX" -name '*.class' | while read -r f; do
  n=$(echo "${f#"$FIX"/}" | tr / _)
  cp "$f" "$OUT/parse_class/fx_$n"
done
if [ -d "$CORPUS" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  find "$CORPUS" -name '*.jar' | sort | head -n "$JARS" | while read -r jar; do
    j=$(basename "$jar" .jar)
    mkdir -p "$tmp/$j"
    unzip -q -o "$jar" '*.class' -d "$tmp/$j" 2>/dev/null || true
    find "$tmp/$j" -name '*.class' | while read -r f; do
      cp "$f" "$OUT/parse_class/tpdb_${j}_$(basename "$f")"
    done
  done
else
  echo "fuzz-corpus: no corpus at $CORPUS, fixtures only" >&2
fi
cp "$OUT"/parse_class/* "$OUT/build_graph/"

# States and graphs.
for f in java-fixtures/start/*.state java-fixtures/inputs/*.state; do
  cp "$f" "$OUT/parse_state/"
done
grep -v '^#' java-fixtures/suite.txt | while read -r method start; do
  [ -n "$method" ] || continue
  args=(graph "$FIX" "$method" --format json --max-nodes 300)
  [ -n "${start:-}" ] && args+=(--start "java-fixtures/start/$start")
  name="$method${start:+.$start}"
  "$JTG" "${args[@]}" >"$OUT/read_json/$name.json" 2>/dev/null || true
  [ -s "$OUT/read_json/$name.json" ] || rm -f "$OUT/read_json/$name.json"
done
# Each node's state text, for parse_state (python3 is only used to unpack the JSON).
if command -v python3 >/dev/null; then
  python3 - "$OUT" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for f in sorted((out / "read_json").glob("*.json")):
    g = json.loads(f.read_text())
    for n in g["nodes"][:20]:
        (out / "parse_state" / f"{f.stem}.n{n['id']}.state").write_text(n["state"])
PY
fi
for t in parse_class build_graph parse_state read_json; do
  echo "fuzz-corpus: $t: $(find "$OUT/$t" -type f | wc -l) seeds"
done
