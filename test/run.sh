#!/usr/bin/env bash
# The whole suite: typecheck, lint, unit + HTTP + SSE tests, then the real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck
# Lint and format (zero warnings), module boundaries, unused files and exports.
npm run -s lint
bash test/ensure-chromium.sh
bash test/ensure-radicale.sh
bash test/ensure-dovecot.sh
bash test/ensure-go.sh
bash test/ensure-postgres.sh
npx vitest run --config test/vitest.config.ts
