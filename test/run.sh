#!/usr/bin/env bash
# The whole suite: typecheck, unit + HTTP + SSE tests, then the real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc --noEmit
bash test/ensure-chromium.sh
bash test/ensure-radicale.sh
npx vitest run --config test/vitest.config.ts
