#!/usr/bin/env bash
# The ledger's PostgreSQL tests start throwaway clusters from Debian's PostgreSQL server binaries
# (initdb, pg_ctl) on loopback ports; nothing else is downloaded.
set -euo pipefail
has_postgres() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; }
if has_postgres; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the ledger's PostgreSQL tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
  has_postgres && exit 0
fi
echo "The ledger's PostgreSQL tests need PostgreSQL's server: run 'sudo apt-get install -y postgresql' (or put 'initdb' and 'pg_ctl' on PATH)." >&2
exit 1
