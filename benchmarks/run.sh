#!/usr/bin/env bash
# Runs every benchmark and measurement in a few minutes on 2 cores, prints the table of figures, ratios and goals,
# and writes it to benchmarks/results/<date>.md (commit it). Usage: benchmarks/run.sh [jmh options...]
# BENCHMARKS_SKIP_INSTALL=1 skips the install when the reactor is already installed (MAVEN_OPTS reaches both mvn).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ "${BENCHMARKS_SKIP_INSTALL:-}" == 1 ]] || mvn -B -q install -DskipTests
mvn -B -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
OUT=benchmarks/target/figures
mkdir -p "$OUT"
# JMH: one fork each (iterations are set per benchmark class), -prof gc for allocation per operation
java -cp "$CP" org.openjdk.jmh.Main -f 1 -prof gc -rf json -rff "$OUT/jmh.json" \
  "io.agentlab.benchmarks.*Benchmark" "$@"
java -cp "$CP" io.agentlab.benchmarks.FirstVisibleDelay "$OUT/first-visible.json"
java -Xmx1g -cp "$CP" io.agentlab.benchmarks.EngineThroughput "$OUT/engine.json" 1000
java -cp "$CP" io.agentlab.benchmarks.Report "$OUT" benchmarks/results
