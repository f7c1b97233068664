#!/usr/bin/env bash
# `npm start`: set up, build, and run the sample server with demo data.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/bootstrap.sh
turbo run build --filter=@sked/server... --output-logs=errors-only >&2
exec node apps/server/dist/main.js --demo "$@"
