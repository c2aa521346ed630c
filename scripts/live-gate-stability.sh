#!/usr/bin/env bash
# Runs a live evaluation with the gates on N times (default 10) against one stub server on loopback
# (scripts/stub-provider.mjs: a fixed sentence after a jittered, size-dependent delay; not a model) and prints, per
# gate and per comparison measure, the verdicts the N identical runs gave: a gate or verdict that differs between them
# is a flip (docs/gates.md#stability). Exit 0 when no gate flipped, 1 when one did, 2 on a usage or setup error.
#
#   scripts/live-gate-stability.sh [RUNS] [extra agentlab run options...]
#
# Needs node on the PATH and cli/target/agentlab.jar built (mvn -B -q install -DskipTests).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10}
[ $# -gt 0 ] && shift
case "$runs" in ''|*[!0-9]*) echo "live-gate-stability: RUNS must be a number, got '$runs'" >&2; exit 2 ;; esac
[ -f cli/target/agentlab.jar ] || { echo "live-gate-stability: build cli/target/agentlab.jar first" >&2; exit 2; }
command -v node > /dev/null || { echo "live-gate-stability: node is not on the PATH" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill "$stub" 2> /dev/null || true; rm -rf "$work"' EXIT
node scripts/stub-provider.mjs 0 > "$work/stub.log" 2>&1 &
stub=$!
for _ in $(seq 1 100); do grep -q listening "$work/stub.log" && break; sleep 0.1; done
url=$(sed -n 's/.*listening on //p' "$work/stub.log")
[ -n "$url" ] || { echo "live-gate-stability: the stub did not start: $(cat "$work/stub.log")" >&2; exit 2; }
echo "live-gate-stability: $runs runs against the stub at $url"
for i in $(seq 1 "$runs"); do
  java -jar cli/target/agentlab.jar run --provider live --live-base-url "$url" --evaluate \
      --config agentlab.gates.enabled=true --report "$work/run$i" "$@" > "$work/run$i.log" 2>&1 || true
  [ -f "$work/run$i/results.json" ] || { echo "live-gate-stability: run $i wrote no results:"; tail "$work/run$i.log"; exit 2; } >&2
done
python3 - "$work" "$runs" <<'PY'
import json, re, sys
work, runs = sys.argv[1], int(sys.argv[2])
seen = {}
for i in range(1, runs + 1):
    results = json.load(open(f"{work}/run{i}/results.json"))
    for test in results["tests"]:
        if test.get("kind") == "gate":
            seen.setdefault(("gate", test["mode"]), []).append(test["status"])
    for line in open(f"{work}/run{i}/report.md", encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("measure", "---"):
            seen.setdefault(("comparison", cells[0]), []).append(re.sub(r" \(.*\)$", "", cells[6]))
flipped = 0
print(f"{'kind':<11} {'what':<52} verdicts over {runs} runs")
for (kind, what), verdicts in seen.items():
    counts = {v: verdicts.count(v) for v in dict.fromkeys(verdicts)}
    stable = len(counts) == 1 and len(verdicts) == runs
    flipped += kind == "gate" and not stable
    print(f"{kind:<11} {what:<52} {', '.join(f'{v} ×{n}' for v, n in counts.items())}{'' if stable else '   <- FLIPPED'}")
print(f"live-gate-stability: {flipped} gate(s) flipped")
sys.exit(1 if flipped else 0)
PY
