# Shared by run.sh and profile.sh (sourced, after they set `name`): the repository's paths, one-line failures, the
# case counts and run counts they accept, the prerequisites, and how agentlab is run on the generated cases.

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
jar="$repo/cli/target/agentlab.jar"
home="${SIDE_BY_SIDE_HOME:-$repo/benchmarks/target/side-by-side}"

die() {
    echo "$name: $*" >&2
    exit 1
}

# Checks -n (comma-separated case counts, into the array `sizes`) and -r (runs, `runs`).
check_counts() {
    [[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "-r expects a positive number of runs, got '$runs'"
    IFS=, read -r -a sizes <<<"$counts"
    [[ ${#sizes[@]} -gt 0 ]] || die "-n expects comma-separated positive case counts, got '$counts'"
    for n in "${sizes[@]}"; do
        [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n expects comma-separated positive case counts, got '$counts'"
    done
}

require_tools() {
    [[ -f "$jar" ]] || die "missing $jar: build it first with mvn -B -q install -DskipTests"
    command -v java >/dev/null || die "java is not on PATH (JDK 17+ needed)"
    [[ -x /usr/bin/time ]] || die "missing /usr/bin/time: install it (Debian: apt-get install time)"
}

# Writes the n side-by-side cases of both tools into <dir>/agentlab and <dir>/promptfoo.
generate() {
    local dir="$1" n="$2" base_url="$3"
    node "$here/generate.mjs" "$dir" "$n" "$base_url" || die "could not write the $n cases into $dir"
}

# Sets the array `agentlab_args`: the command line tool's arguments that run agentlab on the cases under <cases>,
# report in <dir> (after `java <options> -jar "$jar"`, or after the launcher bin/agentlab).
set_agentlab_args() {
    local cases="$1" dir="$2"
    agentlab_args=(run --suites "$cases/agentlab" --speed 0 --modes chat_agent_tools --no-gates --report "$dir/report")
}

# Runs <launcher command...> twice on one generated case in <dir>, outside any figure: a build's first run only asks
# for the class-data archive of the JVM it runs on and its second makes it, at seconds and twice the memory
# (docs/performance.md#archive-on-the-second-run), so the measured runs after this map it.
warm_archive() {
    local dir="$1" round
    shift
    rm -rf "$dir" && mkdir -p "$dir"
    generate "$dir/cases" 1 http://127.0.0.1:9/v1
    for round in 1 2; do
        set_agentlab_args "$dir/cases" "$dir/report-$round"
        "$@" "${agentlab_args[@]}" >"$dir/out-$round" 2>&1 || true
    done
}

# Fails unless <dir>/out says that all n cases ran and passed (one "ok" line each and the summary line).
check_agentlab() {
    local n="$1" dir="$2" ok
    ok="$(grep -c "^  ok    level-" "$dir/out" 2>/dev/null || true)"
    grep -q "^$n tests: $n passed, 0 failed, 0 skipped" "$dir/out" 2>/dev/null && [[ "$ok" == "$n" ]] \
        || die "agentlab did not pass all $n cases (ok lines: ${ok:-0}; see $dir/out and $dir/err)"
}

load() {
    cut -d' ' -f1-3 /proc/loadavg
}
