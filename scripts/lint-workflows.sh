#!/usr/bin/env bash
# Lints every GitHub Actions workflow of the repository (.github/workflows) and every example
# (examples/workflows) with actionlint, which also runs shellcheck on each `run:` script.
# actionlint 1.7.12 predates the `queue` key of `concurrency` (GitHub added it in May 2026; the examples use
# `queue: max` so that no pending deploy is cancelled): exactly that message is ignored, nothing else.
# Arguments, when given, are the files to lint instead (the tests pass broken ones to see it fail).
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONLINT="$(bash scripts/ensure-actionlint.sh)"
shopt -s nullglob
files=(.github/workflows/*.yml .github/workflows/*.yaml examples/workflows/*.yml examples/workflows/*.yaml)
[ "$#" -gt 0 ] && files=("$@")
exec "$ACTIONLINT" -no-color -ignore 'unexpected key "queue" for "concurrency" section' "${files[@]}"
