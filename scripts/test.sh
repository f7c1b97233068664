#!/usr/bin/env bash
# `npm test`: set up, then build, typecheck, lint, format check and every test of every package.
# Ends with one line `N passed, N failed` counted from the vitest JSON results.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/bootstrap.sh
status=0
step() { echo "== $*"; }

find packages apps tests -maxdepth 2 -name .vitest-result.json -delete 2>/dev/null

step "build, typecheck, lint"
turbo run build typecheck lint --concurrency=2 --output-logs=errors-only || status=1
step "unused exports (knip)"
pnpm run --silent lint:exports || { echo "knip: remove the exports listed above, or use them"; status=1; }
step "format check"
prettier --check . --log-level=warn || { echo "prettier: run 'pnpm format' to fix the files listed above"; status=1; }
# the tests run even when a check above failed, so one run shows every problem
step "tests"
turbo run test --concurrency=1 --output-logs=full --continue || status=1
node scripts/test-summary.mjs || status=1
exit $status
