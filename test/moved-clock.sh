#!/usr/bin/env bash
# The non-browser suite with the process clock itself moved (Debian's faketime) to awkward
# instants: the ones named on the command line (ISO 8601, UTC), or every row of AWKWARD_INSTANTS
# in test/support/clock.ts. PROJECTS chooses the test kinds (default: pure module http).
#   bash test/moved-clock.sh 2026-11-28T10:00:00Z
#   PROJECTS="pure module" bash test/moved-clock.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/ensure-debian.sh faketime radicale dovecot go postgres
if [ "$#" -gt 0 ]; then
  instants=("$@")
else
  mapfile -t instants < <(node --import tsx -e 'const { AWKWARD_INSTANTS } = await import("./test/support/clock.ts"); for (const r of AWKWARD_INSTANTS) console.log(r.iso);')
fi
projects=()
for p in ${PROJECTS:-pure module http}; do projects+=(--project "$p"); done
failed=()
for iso in "${instants[@]}"; do
  at=$(date -u -d "$iso" '+%Y-%m-%d %H:%M:%S')
  echo "== the process clock at $at UTC"
  # An offset, not a start time: every process started meanwhile (Dovecot, Radicale, a restarted
  # server) reads the same moved clock instead of starting it again. Only the wall clock moves:
  # timers and durations keep the real monotonic clock.
  offset=$(($(date -u -d "$iso" +%s) - $(date -u +%s)))
  sign=+
  [ "$offset" -lt 0 ] && sign=
  if ! TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "${sign}${offset}" npx vitest run --config test/vitest.config.ts "${projects[@]}"; then
    failed+=("$iso")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed with the clock at: ${failed[*]}" >&2
  exit 1
fi
echo "passed at ${#instants[@]} instant(s)"
