#!/usr/bin/env bash
# Makes sure actionlint (the workflow linter, a Go module) and shellcheck (which actionlint runs on every `run:`
# script) are available, and prints the actionlint binary's path on stdout (progress goes to stderr).
#
# actionlint: ${KPT_LIVE_CACHE:-$HOME/.cache/kpt-live-action}/actionlint-<version>/actionlint, built once per
# machine with `go install` (GOBIN pointed at that directory), then reused: a second run builds nothing.
# shellcheck: PATH, else the Debian package (as root or through sudo).
# Concurrent callers wait for each other (flock), so a parallel test run never builds twice.
set -euo pipefail

VERSION=1.7.12
CACHE_ROOT="${KPT_LIVE_CACHE:-${HOME}/.cache/kpt-live-action}"
DIR="${CACHE_ROOT}/actionlint-${VERSION}"
BIN="${DIR}/actionlint"

log() { echo "[actionlint] $*" >&2; }
fail() { log "error: $*"; exit 1; }

if ! command -v shellcheck >/dev/null; then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else sudo="-"; fi
  if [ "$sudo" != "-" ] && command -v apt-get >/dev/null; then
    log "installing Debian package shellcheck (actionlint checks every run: script with it)"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq shellcheck; } >&2 ||
      fail "could not install shellcheck"
  else
    fail "shellcheck is missing and cannot be installed here (needs root and apt-get)"
  fi
fi

built() { [ -x "$BIN" ] && [ "$("$BIN" -version 2>/dev/null | head -1)" = "$VERSION" ]; }
if built; then echo "$BIN"; exit 0; fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock-actionlint-${VERSION}"
if ! flock -n 9; then log "another process is building actionlint ${VERSION}; waiting for it"; flock 9; fi
if built; then echo "$BIN"; exit 0; fi

command -v go >/dev/null || fail "go is needed to build actionlint ${VERSION} (go install github.com/rhysd/actionlint/cmd/actionlint@v${VERSION})"
log "building actionlint ${VERSION} with $(go version) (once per machine, into ${DIR})"
PART="${DIR}.part-$$"
rm -rf "$PART"
mkdir -p "$PART"
# -ldflags sets the version `actionlint -version` prints (a module build has none otherwise)
GOBIN="$PART" GOFLAGS="${GOFLAGS:-} -trimpath" go install \
  -ldflags="-s -w -X github.com/rhysd/actionlint.version=${VERSION}" \
  "github.com/rhysd/actionlint/cmd/actionlint@v${VERSION}" >&2 || { rm -rf "$PART"; fail "go install failed"; }
rm -rf "$DIR"
mv "$PART" "$DIR"
built || fail "the built actionlint does not report version ${VERSION}"
echo "$BIN"
