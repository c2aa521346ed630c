#!/usr/bin/env bash
# The start-up benchmark: wall time from the process's start to the first request the kit's replay server receives
# (the fixed cost before the first case runs), and the whole process's wall, CPU and peak RSS, for N generated cases,
# R runs each, with bin/agentlab and with a plain java -jar. Prints a Markdown table. See docs/performance.md#start-up.
#
# Usage: benchmarks/side-by-side/startup.sh [-n 1,200] [-r 5]
#   needs cli/target/agentlab.jar (mvn -B -q install -DskipTests), java, node, /usr/bin/time (Debian: time)
set -euo pipefail

name=startup
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
counts=1,200
runs=5
while getopts "n:r:h" option; do
    case "$option" in
        n) counts="$OPTARG" ;;
        r) runs="$OPTARG" ;;
        *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
check_counts
require_tools
work="$home/startup"
rm -rf "$work" && mkdir -p "$work"

# one run: launcher name, cases dir, out dir; prints "first-request-s wall-s cpu-s rss-mib"
one() {
    local launcher="$1" cases="$2" dir="$3" t0 first
    rm -rf "$dir" && mkdir -p "$dir"
    local probe="$dir/first-request"
    set_agentlab_args "$cases" "$dir"
    t0="$(date +%s%6N)"
    if [[ "$launcher" == bin/agentlab ]]; then
        AGENTLAB_JAVA_OPTS="-Dagentlab-build.first-request-file=$probe" /usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
            "$repo/bin/agentlab" "${agentlab_args[@]}" >"$dir/out" 2>"$dir/err" || true
    else
        AGENTLAB_JAVA_OPTS="-Dagentlab-build.first-request-file=$probe" /usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
            java -jar "$jar" "${agentlab_args[@]}" >"$dir/out" 2>"$dir/err" || true
    fi
    [[ -s "$probe" ]] || die "no request reached the replay server (see $dir/out and $dir/err)"
    first="$(cat "$probe")"
    awk -v f="$first" -v t="$t0" '{ printf "%.3f %.2f %.2f %.0f\n", (f - t) / 1e6, $1, $2 + $3, $4 / 1024 }' \
        <(tail -1 "$dir/time")
}

echo "| cases | started by | process start to first request (median of $runs) | wall | CPU | peak RSS | load at start |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for n in "${sizes[@]}"; do
    generate "$work/n$n" "$n" "http://127.0.0.1:1/v1"
    for launcher in bin/agentlab java-jar; do
        # a build's first run asks for the class-data archive and its second makes it
        # (docs/performance.md#archive-on-the-second-run): neither is measured
        for _ in 1 2; do
            one "$launcher" "$work/n$n" "$work/warm" >/dev/null
        done
        loadavg="$(load)"
        : >"$work/rows"
        for r in $(seq "$runs"); do
            one "$launcher" "$work/n$n" "$work/run-$r" >>"$work/rows"
        done
        sort -n -k1 "$work/rows" | awk -v n="$n" -v l="$launcher" -v load="$loadavg" '
            { f[NR] = $1; w[NR] = $2; c[NR] = $3; m[NR] = $4 }
            END { k = int((NR + 1) / 2); printf "| %s | %s | %.3f s (%.3f–%.3f) | %.2f s | %.2f s | %.0f MiB | %s |\n",
                  n, l, f[k], f[1], f[NR], w[k], c[k], m[k], load }'
    done
done
