#!/usr/bin/env bash
# Runs the property tests of @sked/model and @sked/server N times (default 20), each run with
# fresh random seeds (fast-check draws a new seed per property per run), and reports every failing
# run with its counterexample and seed: a seed that finds a bug becomes a fixed example.
#
#   scripts/property-soak.sh [N] [package...]      e.g. scripts/property-soak.sh 20
#                                                       scripts/property-soak.sh 5 apps/server
#
# A property test file is a *.test.ts holding `test.prop` or `fc.assert`. The packages are built
# first (turbo, cached). Logs of failing runs stay in $SOAK_LOGS (default a fresh temporary
# directory). Exit status: 0 when every run passed, 1 otherwise.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/bootstrap.sh
export PATH="$root/node_modules/.bin:$PATH"

runs="${1:-20}"
shift || true
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "property-soak: N must be a positive integer, not \"$runs\"" >&2
  exit 2
fi
packages=("$@")
[ ${#packages[@]} -eq 0 ] && packages=(packages/model apps/server)
logs="${SOAK_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/property-soak.XXXXXX")}"
mkdir -p "$logs"

turbo run build --filter=@sked/model --filter=@sked/server... --output-logs=errors-only >/dev/null ||
  { echo "property-soak: the build failed" >&2; exit 1; }

failed=0
total=0
for pkg in "${packages[@]}"; do
  mapfile -t files < <(cd "$pkg" && grep -rlE 'test\.prop|fc\.assert' src --include='*.test.ts' | sort)
  if [ ${#files[@]} -eq 0 ]; then
    echo "property-soak: no property test file in $pkg" >&2
    exit 2
  fi
  echo "== $pkg: ${#files[@]} property test files, $runs runs"
  for ((i = 1; i <= runs; i++)); do
    total=$((total + 1))
    log="$logs/$(basename "$pkg")-run$i.log"
    start=$(date +%s)
    if (cd "$pkg" && vitest run "${files[@]}" --reporter=dot) >"$log" 2>&1; then
      echo "run $i: pass ($(($(date +%s) - start)) s)"
      rm -f "$log"
    else
      failed=$((failed + 1))
      echo "run $i: FAIL ($(($(date +%s) - start)) s), log: $log"
      # The failing tests, and fast-check's counterexample and seed.
      grep -aE 'FAIL |Counterexample|seed' "$log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u | head -20 | sed 's/^/    /'
    fi
  done
done
echo "property-soak: $((total - failed)) of $total runs passed, $failed failed"
[ "$failed" -eq 0 ]
