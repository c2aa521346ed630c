#!/usr/bin/env bash
# Where `agentlab run` spends its time and memory on the side-by-side cases, and what a class-data-sharing archive
# saves. For each N: one run under JFR summarised by ProfilePhases.java (phases, activities, threads, GC, JIT), one
# run logging class loads with their uptime and polling every thread's CPU (the start-up timeline without JFR's own
# start-up in it; JIT and GC threads included), then the same run alternately with the JVM's defaults, with an
# application CDS archive (-XX:SharedArchiveFile) and with each -j list of options: median wall / CPU / RSS.
#
# Usage: benchmarks/side-by-side/profile.sh [-n 20,200] [-r 5] [-b 'JVM options'] [-j 'JVM options']... [-s]
#   -b: options of the profiled runs (e.g. bin/agentlab's); -s: skip the profiles, only compare the options
#   needs cli/target/agentlab.jar, java, node; in -b and -j, @archive names the CDS archive the script makes
#   writes into benchmarks/target/side-by-side/profile (or $SIDE_BY_SIDE_HOME/profile) and prints the summary
set -euo pipefail

name="side-by-side profile"
# The JVM profiled is the one given the options here: `java -jar` must run in place, not start itself again with the
# launcher's options (docs/performance.md#java-jar), or every run would measure those and the archive dump would fail.
export AGENTLAB_RELAUNCH=off
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
counts=20,200
runs=5
variants=()
base=""
skip=false
while getopts "n:r:j:b:sh" option; do
    case "$option" in
        n) counts="$OPTARG" ;;
        r) runs="$OPTARG" ;;
        j) variants+=("$OPTARG") ;;
        b) base="$OPTARG" ;;
        s) skip=true ;;
        *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
check_counts
require_tools
command -v node >/dev/null || die "node is not on PATH (it writes the cases)"
work="$home/profile"
mkdir -p "$work"

# One agentlab run on the n cases with extra JVM options; checks that every case passed; sets `figures` to
# "wall-s CPU-s RSS-MiB". (Called in the script's own shell, never in $(...), so that a failure stops the script.)
agentlab() {
    local n="$1" dir="$2"
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    set_agentlab_args "$work/n$n/cases" "$dir"
    (cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$dir/time" java "$@" -jar "$jar" "${agentlab_args[@]}" \
        >"$dir/out" 2>"$dir/err") || true
    check_agentlab "$n" "$dir"
    figures="$(awk '{ printf "%s %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$dir/time")"
}

# One agentlab run started directly (no /usr/bin/time), its threads' CPU polled from /proc every 0.2 s until it exits;
# prints the CPU by thread group and the run's wall time and peak RSS.
threads() {
    local n="$1" dir="$2" pid start end hwm=0
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    start="$(date +%s.%N)"
    set_agentlab_args "$work/n$n/cases" "$dir"
    (cd "$dir" && exec java "$@" -jar "$jar" "${agentlab_args[@]}" >"$dir/out" 2>"$dir/err") &
    pid=$!
    : >"$dir/threads"
    while kill -0 "$pid" 2>/dev/null; do
        # each task's stat: "tid (name) state ... utime stime" - the name may hold spaces, so split at ") "
        cat /proc/"$pid"/task/*/stat >>"$dir/threads" 2>/dev/null || true
        hwm="$(awk -v last="$hwm" '/VmHWM/ { last = $2 } END { print last }' /proc/"$pid"/status 2>/dev/null \
            || echo "$hwm")"
        sleep 0.2
    done
    wait "$pid" || true
    end="$(date +%s.%N)"
    check_agentlab "$n" "$dir"
    echo "CPU by JVM thread group (/proc, polled every 0.2 s; run wall $(awk -v a="$start" -v b="$end" \
        'BEGIN { printf "%.2f", b - a }') s, peak RSS $((hwm / 1024)) MiB):"
    echo
    echo "| thread group | CPU s | threads |"
    echo "| --- | --- | --- |"
    awk -v hz="$(getconf CLK_TCK)" -v pid="$pid" '
        {
            lp = index($0, "("); rp = index($0, ") ")
            name = substr($0, lp + 1, rp - lp - 1); split(substr($0, rp + 2), f, " ")
            tid = substr($0, 1, lp - 2); ticks = f[12] + f[13]     # utime, stime: fields 14 and 15 of stat
            if (ticks >= best[tid]) { best[tid] = ticks; names[tid] = name }
        }
        END {
            for (tid in best) {
                name = names[tid]
                group = name ~ /^C[12] Compiler/ ? "JIT compilers (C1, C2)" \
                    : name ~ /^(GC Thread|G1 )/ ? "GC (G1 workers, marking, refinement)" \
                    : name == "java" ? (tid == pid ? "launcher (waits for main)" : "main") \
                    : name ~ /^qtp/ ? "WireMock (Jetty qtp)" : name ~ /^agentlab/ ? "kit threads (agentlab-*)" \
                    : name ~ /^OkHttp/ ? "OkHttp" : name ~ /^VM Thread/ ? "VM thread (safepoints)" : "other: " name
                cpu[group] += best[tid] / hz; count[group]++; total += best[tid] / hz
            }
            for (g in cpu) printf "| %s | %.2f | %d |\n", g, cpu[g], count[g] | "sort -t\"|\" -k3 -rn"
            close("sort -t\"|\" -k3 -rn")
            printf "| total | %.2f | |\n", total
        }' "$dir/threads"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

echo "agentlab profile: n=$counts; load $(load); $(nproc) cores; $(java -version 2>&1 | sed -n 2p)"
# The CDS archive (-XX:ArchiveClassesAtExit on one run of the smallest count), for @archive in -b and -j.
archive="$work/agentlab.jsa"
rm -f "$archive"
for n in "${sizes[@]}"; do
    rm -rf "$work/n$n"
    generate "$work/n$n/cases" "$n" http://127.0.0.1:9/v1 # promptfoo's half is not used here
done
agentlab "${sizes[0]}" "$work/cds-dump" "-XX:ArchiveClassesAtExit=$archive"
[[ -s "$archive" ]] || die "the JVM wrote no CDS archive (see $work/cds-dump/err)"
# shellcheck disable=SC2206 # a list of options
base_options=($(sed "s|@archive|$archive|g" <<<"$base"))
[[ -z "$base" ]] || echo "profiled runs with: $base"
for n in "${sizes[@]}"; do
    $skip && break
    echo
    echo "## $n cases"
    echo
    # JFR: the 'profile' settings with the densest method sampling (10-20 ms by default leaves a few hundred samples
    # a run); deep stacks so the phase markers stay in view.
    agentlab "$n" "$work/n$n/jfr" "${base_options[@]}" \
        "-XX:StartFlightRecording=filename=$work/n$n/jfr/run.jfr,settings=profile,method-profiling=max" \
        -XX:FlightRecorderOptions=stackdepth=512
    read -r wall cpu rss <<<"$figures"
    echo "Under JFR: wall $wall s, CPU $cpu s, peak RSS $rss MiB (JFR adds its own start-up and sampling)."
    echo
    java "$here/ProfilePhases.java" "$work/n$n/jfr/run.jfr"
    echo
    # The start-up timeline without JFR, and the CPU of every JVM thread (JIT compilers and GC threads included,
    # which JFR's samples never see) read from /proc while the run lasts.
    threads "$n" "$work/n$n/classes" "${base_options[@]}" "-Xlog:class+load:file=$work/n$n/classes.log:uptime"
    echo
    echo "Class-load timeline (-Xlog:class+load, same run): first class of each stage, seconds after JVM start"
    echo
    echo "| stage | first class at | classes loaded by then |"
    echo "| --- | --- | --- |"
    awk -v OFS=' | ' '
        function stage(label, pattern) { labels[++count] = label; patterns[count] = pattern }
        BEGIN {
            stage("CLI main (picocli)", "picocli\\.CommandLine ");
            stage("JUnit launcher", "org\\.junit\\.platform\\.launcher\\.core\\.LauncherFactory ");
            stage("suite discovery (YAML)", "io\\.agentlab\\.engine\\.internal\\.suite\\.SuiteReader ");
            stage("WireMock start", "io\\.agentlab\\.providers\\.recorded\\.TimedReplay ");
            stage("first case", "io\\.agentlab\\.engine\\.internal\\.execution\\.CaseRun ");
            stage("control matrix", "io\\.agentlab\\.report\\.internal\\.ControlMatrix ");
            stage("capability growth", "io\\.agentlab\\.report\\.internal\\.CapabilityGrowth ");
            stage("HTML report", "io\\.agentlab\\.report\\.internal\\.HtmlReport ");
        }
        {
            loaded++
            time = substr($1, 2, length($1) - 3)
            if ($0 ~ /shared objects file/) shared++
            for (i = 1; i <= count; i++) if (!(i in at) && $0 ~ patterns[i]) { at[i] = time; by[i] = loaded }
            last = time
        }
        END {
            for (i = 1; i <= count; i++) print "| " labels[i], (i in at ? at[i] " s" : "not loaded"), by[i] " |"
            print "| last class loaded", last " s", loaded " (" shared + 0 " from the JDK'"'"'s CDS archive) |"
        }' "$work/n$n/classes.log"
    echo
done

# JVM options compared with the defaults, each N, runs alternating: the CDS archive always, then every -j variant.
variants=("-XX:SharedArchiveFile=@archive" "${variants[@]}")
echo "## JVM options"
echo
echo "CDS archive: -XX:ArchiveClassesAtExit on one ${sizes[0]}-case run, $(du -m "$archive" | cut -f1) MiB (@archive below)."
echo "Runs alternate between the defaults and each variant; median of $runs."
echo
echo "| cases | JVM options | wall / CPU / peak RSS | saved against the defaults: wall / CPU / RSS | load at start |"
echo "| --- | --- | --- | --- | --- |"
for n in "${sizes[@]}"; do
    loadavg="$(load)"
    : >"$work/variants-$n.txt"
    for i in $(seq "$runs"); do
        agentlab "$n" "$work/variant" -Xshare:auto
        echo "0 $figures" >>"$work/variants-$n.txt"
        for v in "${!variants[@]}"; do
            # shellcheck disable=SC2046 # a variant is a list of options
            agentlab "$n" "$work/variant" $(sed "s|@archive|$archive|g" <<<"${variants[$v]}")
            echo "$((v + 1)) $figures" >>"$work/variants-$n.txt"
        done
    done
    m() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$work/variants-$n.txt" | median; }
    for v in $(seq 0 "${#variants[@]}"); do
        label="defaults"
        [[ "$v" == 0 ]] || label="\`${variants[$((v - 1))]}\`"
        awk -v n="$n" -v label="$label" -v load="$loadavg" -v w="$(m "$v" 2)" -v c="$(m "$v" 3)" -v r="$(m "$v" 4)" \
            -v w0="$(m 0 2)" -v c0="$(m 0 3)" -v r0="$(m 0 4)" 'BEGIN {
                printf "| %s | %s | %.2f s / %.2f s / %.0f MiB | %s | %s |\n", n, label, w, c, r,
                    label == "defaults" ? "" : sprintf("%.2f s / %.2f s / %.0f MiB", w0 - w, c0 - c, r0 - r), load }'
    done
done
