#!/usr/bin/env bash
# The whole suite: typecheck, lint, unit + HTTP + SSE tests, then the real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck
# Lint and format (zero warnings), module boundaries, unused files and exports.
npm run -s lint
# What the tests need from Debian (Chromium, Radicale, Dovecot, Go, PostgreSQL), installed when missing.
bash test/ensure-debian.sh
npx vitest run --config test/vitest.config.ts
