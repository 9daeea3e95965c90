#!/usr/bin/env bash
# Inbound-mail tests run against Debian's Dovecot (IMAP) on a loopback port; nothing else is downloaded.
set -euo pipefail
has_dovecot() { command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ]; }
if has_dovecot; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's dovecot-imapd for the inbound-mail tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends dovecot-imapd >/dev/null
  # The package starts a system-wide server; the tests start their own and need none.
  (command -v systemctl >/dev/null 2>&1 && systemctl disable --now dovecot >/dev/null 2>&1) || true
  has_dovecot && exit 0
fi
echo "Inbound-mail tests need Dovecot: run 'sudo apt-get install -y dovecot-imapd' (or put a 'dovecot' command on PATH)." >&2
exit 1
