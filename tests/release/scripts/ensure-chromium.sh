#!/usr/bin/env bash
# Installs Debian's chromium when it is missing (the browser checks drive it with playwright-core;
# nothing downloads a browser of its own). Other installs may hold the dpkg lock: wait for it.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-chromium: chromium is missing; install it with: sudo apt-get install chromium" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium" >&2
apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends chromium >&2
command -v chromium >/dev/null
