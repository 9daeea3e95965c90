#!/usr/bin/env bash
# The receipt interop test checks LogLine's checkpoints and proofs with Go's own signed-note and
# transparency-log packages (Debian's golang-go and golang-golang-x-mod-dev); nothing else is downloaded.
set -euo pipefail
has_go_mod() { command -v go >/dev/null 2>&1 && [ -d /usr/share/gocode/src/golang.org/x/mod/sumdb/tlog ]; }
if has_go_mod; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's Go and golang.org/x/mod for the receipt interop test (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq golang-go golang-golang-x-mod-dev >/dev/null
  has_go_mod && exit 0
fi
echo "The receipt interop test needs Go and golang.org/x/mod: run 'sudo apt-get install -y golang-go golang-golang-x-mod-dev'." >&2
exit 1
