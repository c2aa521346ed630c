#!/usr/bin/env bash
# The flat-memory benchmark (docs/performance.md#memory): `bin/agentlab run` on 2,000, 20,000 and 200,000 generated
# single-turn volume cases (suite files of 2,000 cases each, the side-by-side benchmark's cases), one run per count,
# with each whole process's wall, CPU and peak RSS from /usr/bin/time, and optionally the live heap by class halfway
# through the run (jcmd GC.class_histogram, which collects first). Prints a Markdown table, writes each run's output,
# report and `modes` section of metrics.json under benchmarks/target/memory/<label>/<count>/.
#
# Usage: benchmarks/memory/run.sh [-n 2000,20000,200000] [-j JAR] [-l LABEL] [-H] [-P]
#   -n COUNTS  comma-separated case counts, each a multiple of 2,000 (or below 2,000: one file)
#   -j JAR     the agentlab.jar to run (default cli/target/agentlab.jar), through bin/agentlab (AGENTLAB_JAR)
#   -l LABEL   names the output folder (default: the jar's file name)
#   -H         take a class histogram of the live heap when half of the cases have finished
#   -P         split the peak RSS into what the JVM maps (its smaps, read every 50 ms, kept at the highest RSS seen):
#              the kit's class-data archive, the JDK's, libjvm.so, other files, anonymous memory (heap, code cache,
#              metaspace, thread stacks, malloc); a second table, after the first
#   each run's GC log (-Xlog:gc) gives the largest heap left after a full collection: what the run kept then
#   AGENTLAB_JAVA_OPTS  more JVM options (bin/agentlab reads them)
#   needs java, node (the case generator), /usr/bin/time (Debian: time), jcmd for -H
# Compare two runs' figures: diff <(jq -S . A/<count>/modes.json) <(jq -S . B/<count>/modes.json)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
counts=2000,20000,200000
jar="$repo/cli/target/agentlab.jar"
label=""
histogram=false
parts=false
while getopts "n:j:l:HPh" option; do
    case "$option" in
        n) counts="$OPTARG" ;;
        j) jar="$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG")" ;;
        l) label="$OPTARG" ;;
        H) histogram=true ;;
        P) parts=true ;;
        *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
die() {
    echo "memory: $*" >&2
    exit 1
}
[[ -f "$jar" ]] || die "missing $jar: build it first with mvn -B -q install -DskipTests"
[[ -x /usr/bin/time ]] || die "missing /usr/bin/time (Debian: apt-get install time)"
command -v node >/dev/null || die "node is not on PATH (it writes the cases)"
command -v jq >/dev/null || die "jq is not on PATH (it cuts the modes out of metrics.json)"
label="${label:-$(basename "$jar" .jar)}"
cases_home="$repo/benchmarks/target/memory/cases"
out_home="$repo/benchmarks/target/memory/$label"

# <dir> holding <n> cases: files of 2,000 cases (the generator's suite, its id made unique per file), kept between runs.
cases() {
    local n="$1" dir="$cases_home/$1" per=2000 files k
    if [[ -f "$dir/.complete" ]]; then
        echo "$dir"
        return
    fi
    rm -rf "$dir"
    mkdir -p "$dir/agentlab"
    if (( n <= per )); then
        node "$repo/benchmarks/side-by-side/generate.mjs" "$dir/gen" "$n" http://127.0.0.1:1/v1 >/dev/null
        mv "$dir/gen/agentlab/"*.suite.yaml "$dir/agentlab/"
    else
        (( n % per == 0 )) || die "-n: $n is not a multiple of $per"
        files=$(( n / per ))
        node "$repo/benchmarks/side-by-side/generate.mjs" "$dir/gen" "$per" http://127.0.0.1:1/v1 >/dev/null
        for (( k = 1; k <= files; k++ )); do
            sed "s/^id: volume-$per\$/id: volume-$per-part-$k/" "$dir/gen/agentlab/volume-$per.suite.yaml" \
                > "$dir/agentlab/volume-$per-part-$k.suite.yaml"
        done
    fi
    rm -rf "$dir/gen"
    touch "$dir/.complete"
    echo "$dir"
}

# The java process under <pid> (nice, then time, then the launcher's shell, then java).
java_under() {
    local pid="$1" child
    for child in $(pgrep -P "$pid" || true); do
        if [[ "$(cat "/proc/$child/comm" 2>/dev/null)" == java ]]; then
            echo "$child"
            return
        fi
        java_under "$child"
    done
}

# The live heap by class when half of the cases have finished (the run prints one "ok" line per case).
histogram_at_half() {
    local launcher_pid="$1" n="$2" run="$3" java_pid="" done_cases
    while kill -0 "$launcher_pid" 2>/dev/null; do
        [[ -z "$java_pid" ]] && java_pid="$(java_under "$launcher_pid")"
        done_cases="$(grep -c '^  ok ' "$run/out" 2>/dev/null || true)"
        if [[ -n "$java_pid" ]] && (( ${done_cases:-0} >= n / 2 )); then
            jcmd "$java_pid" GC.class_histogram > "$run/histogram.txt" 2>&1 || true
            return
        fi
        sleep 1
    done
}

# The java process's mappings at the highest RSS seen while <launcher pid> runs, into <run>/smaps-at-peak.
smaps_at_peak() {
    local launcher_pid="$1" run="$2" java_pid="" rss peak=0
    while kill -0 "$launcher_pid" 2>/dev/null; do
        [[ -z "$java_pid" ]] && java_pid="$(java_under "$launcher_pid")"
        if [[ -n "$java_pid" ]]; then
            rss="$(awk '/^Rss:/ { print $2 }' "/proc/$java_pid/smaps_rollup" 2>/dev/null || true)"
            if [[ -n "$rss" ]] && (( rss > peak )); then
                cp "/proc/$java_pid/smaps" "$run/smaps-at-peak.tmp" 2>/dev/null \
                    && mv "$run/smaps-at-peak.tmp" "$run/smaps-at-peak" && peak="$rss"
            fi
        fi
        sleep 0.05
    done
}

# One table row from <run>/smaps-at-peak: each part's resident MiB.
rss_parts_row() {
    local n="$1" run="$2"
    [[ -f "$run/smaps-at-peak" ]] || { echo "| $n | no sample (see $run/err) | | | | | |"; return; }
    awk -v n="$n" '
        /^[0-9a-f]+-[0-9a-f]+ / {
            file = $6
            part = "anon"
            if (file ~ /agentlab.*\.jsa/) part = "kit"
            else if (file ~ /\/classes\.jsa$/) part = "jdk"
            else if (file ~ /\/libjvm\.so$/) part = "libjvm"
            else if (file ~ /^\//) part = "files"
        }
        /^Rss:/ { rss[part] += $2; total += $2 }
        END {
            printf "| %s | %d MiB | %.1f | %.1f | %.1f | %.1f | %.1f |\n", n, total / 1024, rss["kit"] / 1024,
                rss["jdk"] / 1024, rss["libjvm"] / 1024, rss["files"] / 1024, rss["anon"] / 1024
        }' "$run/smaps-at-peak"
}

# bin/agentlab writes the class-data archive of the JVM it runs on at the end of that JVM's second run after a build
# (one archive per JVM build; the first run only asks for it, docs/performance.md#archive-on-the-second-run), and that
# run's peak RSS includes the dump (377 against 228 MiB at 20,000 cases, 2026-12-07): two runs on one case first,
# outside the figures, make it if it is missing.
if [[ "${AGENTLAB_CDS:-on}" != off ]]; then
    warm="$(cases 1)"
    mkdir -p "$out_home"
    for round in 1 2; do
        rm -rf "$out_home/warm-up"
        AGENTLAB_JAR="$jar" AGENTLAB_LAUNCHER_TRACE=1 "$repo/bin/agentlab" run --suites "$warm/agentlab" --speed 0 \
            --modes chat_agent_tools --no-gates --report "$out_home/warm-up" >"$out_home/warm-up-$round.out" 2>&1 \
            || true
    done
    # the archive this JVM maps or made, as the launcher's trace names it
    archive="$(sed -n -e 's/.* -XX:SharedArchiveFile=\([^ ]*\) .*/\1/p' \
        -e 's/.* -XX:ArchiveClassesAtExit=\([^ ]*\)\.[0-9]* .*/\1/p' "$out_home/warm-up-2.out" | head -n 1)"
    [[ -n "$archive" && -f "$archive" && ! "$jar" -nt "$archive" ]] || echo "memory: the warm-up runs wrote no" \
        "class-data archive (see $out_home/warm-up-2.out); measuring without" >&2
fi
echo "| cases | wall | CPU (user + sys) | peak RSS | live after a full collection, at most | result | metrics.json | index.html |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
IFS=, read -r -a sizes <<<"$counts"
for n in "${sizes[@]}"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n expects comma-separated positive counts, got '$counts'"
    dir="$(cases "$n")"
    run="$out_home/$n"
    rm -rf "$run"
    mkdir -p "$run"
    AGENTLAB_JAR="$jar" AGENTLAB_JAVA_OPTS="${AGENTLAB_JAVA_OPTS:-} -Xlog:gc:file=$run/gc.log" \
        nice -n 15 /usr/bin/time -f '%e %U %S %M' -o "$run/time" "$repo/bin/agentlab" run \
        --suites "$dir/agentlab" --speed 0 --modes chat_agent_tools --no-gates --report "$run/report" \
        > "$run/out" 2> "$run/err" &
    pid=$!
    if [[ "$histogram" == true ]]; then
        histogram_at_half "$pid" "$n" "$run" &
    fi
    if [[ "$parts" == true ]]; then
        smaps_at_peak "$pid" "$run" &
    fi
    status=0
    wait "$pid" || status=$?
    wait || true
    read -r wall user sys rss < <(tail -n 1 "$run/time")
    result="$(grep -E '^[0-9]+ tests: ' "$run/out" | cut -d';' -f1 || true)"
    [[ -n "$result" ]] || result="exit $status, no summary (see $run/err)"
    if [[ -f "$run/report/metrics.json" ]]; then
        jq '.modes' "$run/report/metrics.json" > "$run/modes.json" 2>/dev/null || true
    fi
    size() {
        [[ -f "$1" ]] && echo "$(( $(stat -c %s "$1") / 1024 )) KiB" || echo "-"
    }
    # "Pause Full (...) 500M->300M(800M)": the heap after a full collection is what the run kept then
    live="$(grep 'Pause Full' "$run/gc.log" | sed -E 's/.*->([0-9]+)M\(.*/\1/' | sort -n | tail -n 1)"
    printf '| %s | %.1f s | %.1f s | %d MiB | %s | %s | %s | %s |\n' "$n" "$wall" "$(echo "$user + $sys" | bc)" \
        "$(( rss / 1024 ))" "${live:+$live MiB}" "$result" "$(size "$run/report/metrics.json")" \
        "$(size "$run/report/index.html")"
done
if [[ "$parts" == true ]]; then
    echo
    echo "| cases | peak RSS sampled | the kit's archive, MiB | the JDK's archive | libjvm.so | other files | anonymous |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    for n in "${sizes[@]}"; do
        rss_parts_row "$n" "$out_home/$n"
    done
fi
