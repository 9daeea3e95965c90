#!/usr/bin/env bash
# CalDAV tests run against Debian's Radicale on a loopback port; nothing else is downloaded.
set -euo pipefail
has_radicale() { command -v radicale >/dev/null 2>&1 || /usr/bin/python3 -c "import radicale" >/dev/null 2>&1; }
if has_radicale; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's radicale for the CalDAV tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq radicale >/dev/null
  has_radicale && exit 0
fi
echo "CalDAV tests need Radicale: run 'sudo apt-get install -y radicale' (or put a 'radicale' command on PATH)." >&2
exit 1
