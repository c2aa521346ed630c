#!/bin/bash
# Which Surefire versions run the engine's tests: builds a copy of examples/parity-gate (its Surefire side only,
# `mvn test`, failIfNoTests=true) with each version given, offline, against the local repository the kit is
# installed in, and prints the tests each reported (docs/engine.md#surefire-versions).
# Usage: scripts/surefire-versions.sh 3.5.3 3.5.4 3.6.1   (MAVEN_REPO=<dir> to use another local repository)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
for v in "$@"; do
  d=$(mktemp -d "/tmp/agentlab-surefire-$v-XXXX")
  cp -r "$root/examples/parity-gate/." "$d/"; rm -rf "$d/target"
  python3 - "$d/pom.xml" "$v" <<'PY'
import re, sys
pom, version = sys.argv[1], sys.argv[2]
text = open(pom).read()
text = re.sub(r"(<artifactId>maven-surefire-plugin</artifactId>\s*<version>)[^<]*(</version>)",
              r"\g<1>" + version + r"\g<2>", text, count=1)
open(pom, "w").write(text)
PY
  (cd "$d" && mvn -B -o -Dmaven.repo.local="$repo" test > build.log 2>&1; code=$?
   echo "surefire $v: exit $code | $(grep -E 'Tests run: [0-9]+, Fail' build.log | tail -1 | sed 's/.*Tests run/Tests run/') | $(grep -E 'No tests were executed|could not be resolved' build.log | head -1 | cut -c1-120)")
done
