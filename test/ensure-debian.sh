#!/usr/bin/env bash
# What the tests need from Debian, and nothing downloaded from anywhere else. Each missing
# piece is installed with apt-get when this runs as root (one `apt-get update` for all of them);
# otherwise one line per missing piece says what to install, and the script fails.
#
#   bash test/ensure-debian.sh                      everything `npm test` needs
#   bash test/ensure-debian.sh chromium radicale    only those
#   bash test/ensure-debian.sh faketime              for `npm run test:moved-clock` (not in the default list)
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

# Per piece: is it here, which Debian packages bring it, who needs it, and what else will do.
has_chromium() { [ -x "$CHROMIUM" ]; }
has_radicale() { command -v radicale >/dev/null 2>&1 || /usr/bin/python3 -c "import radicale" >/dev/null 2>&1; }
has_dovecot() { command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ]; }
has_go() { command -v go >/dev/null 2>&1 && [ -d /usr/share/gocode/src/golang.org/x/mod/sumdb/tlog ]; }
has_faketime() { command -v faketime >/dev/null 2>&1; }
has_postgres() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; }

packages() {
  case "$1" in
    chromium) echo "chromium" ;;
    radicale) echo "radicale" ;;
    dovecot) echo "dovecot-imapd" ;;
    go) echo "golang-go golang-golang-x-mod-dev" ;;
    postgres) echo "postgresql" ;;
    faketime) echo "faketime" ;;
  esac
}
needed_by() {
  case "$1" in
    chromium) echo "Browser tests need Chromium at $CHROMIUM" ;;
    radicale) echo "CalDAV tests need Radicale" ;;
    dovecot) echo "Inbound-mail tests need Dovecot" ;;
    go) echo "The receipt interop test needs Go and golang.org/x/mod" ;;
    postgres) echo "The ledger's PostgreSQL tests need PostgreSQL's server" ;;
    faketime) echo "Moving the clock needs faketime" ;;
  esac
}
or_else() {
  case "$1" in
    chromium) echo " (or set CHROMIUM_PATH)" ;;
    radicale) echo " (or put a 'radicale' command on PATH)" ;;
    dovecot) echo " (or put a 'dovecot' command on PATH)" ;;
    postgres) echo " (or put 'initdb' and 'pg_ctl' on PATH)" ;;
  esac
}

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(chromium radicale dovecot go postgres)
missing=()
for piece in "${wanted[@]}"; do
  case "$piece" in
    chromium | radicale | dovecot | go | postgres | faketime) ;;
    *) echo "ensure-debian: unknown piece '$piece' (chromium, radicale, dovecot, go, postgres, faketime)" >&2 && exit 2 ;;
  esac
  "has_$piece" || missing+=("$piece")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  pkgs=()
  for piece in "${missing[@]}"; do
    [ "$piece" = dovecot ] && continue
    read -ra p <<<"$(packages "$piece")" && pkgs+=("${p[@]}")
  done
  echo "Installing Debian's $(for piece in "${missing[@]}"; do packages "$piece"; done | tr '\n' ' ')for the tests (one time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  [ ${#pkgs[@]} -gt 0 ] && apt-get install -y -qq "${pkgs[@]}" >/dev/null
  if [[ " ${missing[*]} " == *" dovecot "* ]]; then
    apt-get install -y -qq --no-install-recommends dovecot-imapd >/dev/null
    # The package starts a system-wide server; the tests start their own and need none.
    (command -v systemctl >/dev/null 2>&1 && systemctl disable --now dovecot >/dev/null 2>&1) || true
  fi
  still=()
  for piece in "${missing[@]}"; do "has_$piece" || still+=("$piece"); done
  missing=("${still[@]+"${still[@]}"}")
  [ ${#missing[@]} -eq 0 ] && exit 0
fi
for piece in "${missing[@]}"; do
  echo "$(needed_by "$piece"): run 'sudo apt-get install -y $(packages "$piece")'$(or_else "$piece")." >&2
done
exit 1
