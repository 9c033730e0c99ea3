#!/usr/bin/env bash
# Fails when dist/ (the bundle the runner executes) does not match a fresh build of src/.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent package >/dev/null
if ! git diff --quiet -- dist || [ -n "$(git ls-files --others --exclude-standard dist)" ]; then
  echo "dist/ is stale: run 'npm run package' and commit dist/" >&2
  git --no-pager diff --stat -- dist >&2
  exit 1
fi
echo "dist/ is current"
