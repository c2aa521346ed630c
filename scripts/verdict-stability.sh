#!/usr/bin/env bash
# Runs the shipped suites N times (default 10) identically and prints every verdict the runs gave — each test, each
# gate, each comparison measure of the report — marking the ones that differ between runs (a flip;
# docs/live-evaluation.md#stability). Exit 0 when no test or gate flipped, 1 when one did, 2 on a usage or setup error.
#
#   scripts/verdict-stability.sh [--live-stub] [RUNS] [extra agentlab run options...]
#
# Without --live-stub: the main job as a user types it (recorded providers, replay speed 1, gates on).
# With --live-stub: a live evaluation with the gates on against scripts/stub-provider.mjs on loopback (a fixed
# sentence after a jittered, size-dependent delay; a stub, not a model).
# Needs cli/target/agentlab.jar built (mvn -B -q install -DskipTests) and, with --live-stub, node on the PATH.
set -eu
cd "$(dirname "$0")/.."
live=false
if [ "${1:-}" = "--live-stub" ]; then live=true; shift; fi
runs=${1:-10}
[ $# -gt 0 ] && shift
case "$runs" in ''|*[!0-9]*) echo "verdict-stability: RUNS must be a number, got '$runs'" >&2; exit 2 ;; esac
[ -f cli/target/agentlab.jar ] || { echo "verdict-stability: build cli/target/agentlab.jar first" >&2; exit 2; }
work=$(mktemp -d)
stub=
trap '[ -n "$stub" ] && kill "$stub" 2> /dev/null; rm -rf "$work"' EXIT
options=()
if $live; then
  command -v node > /dev/null || { echo "verdict-stability: node is not on the PATH" >&2; exit 2; }
  node scripts/stub-provider.mjs 0 > "$work/stub.log" 2>&1 &
  stub=$!
  for _ in $(seq 1 100); do grep -q listening "$work/stub.log" && break; sleep 0.1; done
  url=$(sed -n 's/.*listening on //p' "$work/stub.log")
  [ -n "$url" ] || { echo "verdict-stability: the stub did not start: $(cat "$work/stub.log")" >&2; exit 2; }
  options=(--provider live --live-base-url "$url" --evaluate --config agentlab.gates.enabled=true)
  echo "verdict-stability: $runs live runs against the stub at $url"
else
  echo "verdict-stability: $runs runs of the main job (recorded providers, replay speed 1)"
fi
for i in $(seq 1 "$runs"); do
  java -jar cli/target/agentlab.jar run "${options[@]}" --report "$work/run$i" "$@" > "$work/run$i.log" 2>&1 || true
  [ -f "$work/run$i/results.json" ] || { echo "verdict-stability: run $i wrote no results:"; tail "$work/run$i.log"; exit 2; } >&2
done
python3 - "$work" "$runs" <<'PY'
import json, re, sys
work, runs = sys.argv[1], int(sys.argv[2])
seen = {}
for i in range(1, runs + 1):
    for test in json.load(open(f"{work}/run{i}/results.json"))["tests"]:
        kind = "gate" if test.get("kind") == "gate" else "test"
        seen.setdefault((kind, test["id"] if kind == "test" else test["mode"]), []).append(test["status"])
    for line in open(f"{work}/run{i}/report.md", encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("measure", "---"):
            seen.setdefault(("comparison", cells[0]), []).append(re.sub(r" \(.*\)$", "", cells[6]))
flipped = 0
tests = [v for (k, _), v in seen.items() if k == "test"]
stable_tests = sum(1 for v in tests if len(set(v)) == 1 and len(v) == runs)
print(f"tests: {stable_tests} of {len(tests)} gave the same verdict in all {runs} runs")
for (kind, what), verdicts in seen.items():
    counts = {v: verdicts.count(v) for v in dict.fromkeys(verdicts)}
    stable = len(counts) == 1 and len(verdicts) == runs
    flipped += kind != "comparison" and not stable
    if kind != "test" or not stable:
        print(f"{kind:<11} {what:<52} {', '.join(f'{v} ×{n}' for v, n in counts.items())}{'' if stable else '   <- FLIPPED'}")
print(f"verdict-stability: {flipped} test(s) or gate(s) flipped")
sys.exit(1 if flipped else 0)
PY
