#!/usr/bin/env bash
# `npm test`: set up, then build, typecheck, lint, format check and every test of every package.
# Ends with one line `N passed, N failed` counted from the vitest JSON results.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/bootstrap.sh
status=0
failed_steps=()
step() { echo "== $*"; }

find packages apps tests -maxdepth 2 -name .vitest-result.json -delete 2>/dev/null
find packages apps tests -maxdepth 3 -path '*/coverage/coverage-summary.json' -delete 2>/dev/null

step "build, typecheck, lint"
turbo run build typecheck lint --concurrency=2 --output-logs=errors-only || { status=1; failed_steps+=("build, typecheck, lint"); }
step "unused exports (knip)"
pnpm run --silent lint:exports || { echo "knip: remove the exports listed above, or use them"; status=1; failed_steps+=("unused exports"); }
step "format check"
prettier --check . --log-level=warn || { echo "prettier: run 'pnpm format' to fix the files listed above"; status=1; failed_steps+=("format check"); }
# the tests run even when a check above failed, so one run shows every problem
step "tests"
turbo run test --concurrency=1 --output-logs=full --continue || status=1
node scripts/test-summary.mjs || status=1
# the count above is of tests only: a check that failed before them is named last, so no one reads
# "N passed, 0 failed" as a green run
if [ ${#failed_steps[@]} -gt 0 ]; then echo "FAILED before the tests: ${failed_steps[*]} (exit 1)"; fi
exit $status
