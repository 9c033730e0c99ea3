#!/usr/bin/env bash
# Makes sure kube-apiserver, kube-controller-manager and etcd of ONE Kubernetes version are available and prints
# the directory that holds them on stdout (progress goes to stderr). It never hands back another version.
# It also installs squid (Debian package), the forward proxy the connection tests run, and provides kubectl and
# helm, the test-only tools (ensure-test-tools.sh).
#
# K8S_VERSION (default `current`):
#   current   the release pinned in scripts/control-plane/k8s-modules/go.mod (bump it with k8s-modules/bump.sh)
#   oldest    1.20.2, the oldest supported, built from Debian 12's `kubernetes` source package
#   X.Y.Z     any other release: downloaded, or built from Go modules like `current`
#
# Where the binaries come from, for that version, in this order:
#   1. $KUBEBUILDER_ASSETS, then PATH: only when `kube-apiserver --version` is exactly that version (and, for a
#      current release, the etcd beside it is 3.5 or newer: Debian's etcd 3.4 is never used for it)
#   2. the cache: ${KPT_LIVE_CACHE:-$HOME/.cache/kpt-live-action}/k8s-X.Y.Z/
#   3. an official release download, where the network allows (skipped with KPT_LIVE_NO_DOWNLOAD=1)
#   4. a build: 1.20.2 from Debian 12's source package (with Debian 12's Go 1.19); every other version from Go
#      modules (`go` and a module proxy), with -trimpath -ldflags='-s -w'
# Concurrent callers for one version wait for each other (flock), so a parallel test run never builds twice.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODULES="$HERE/k8s-modules"
OLDEST=1.20.2
pinned_version() { sed -n 's/^[[:space:]]*k8s.io\/kubernetes v\([0-9.]*\)$/\1/p' "$MODULES/go.mod" | head -1; }
pinned_etcd() { sed -n 's/^[[:space:]]*go.etcd.io\/etcd\/server\/v3 v\([0-9.]*\).*$/\1/p' "$MODULES/go.mod" | head -1; }

log() { echo "[control-plane] $*" >&2; }
fail() { log "error: $*"; exit 1; }

case "${K8S_VERSION:-current}" in
  current | latest | "") VERSION="$(pinned_version)" ;;
  oldest) VERSION="$OLDEST" ;;
  v[0-9]* | [0-9]*) VERSION="${K8S_VERSION#v}" ;;
  *) fail "K8S_VERSION=${K8S_VERSION}: expected current, oldest or a release like 1.34.2" ;;
esac
[[ "$VERSION" =~ ^1\.[0-9]+\.[0-9]+$ ]] ||
  fail "K8S_VERSION=${K8S_VERSION}: expected a full release version like 1.34.2 (or current, oldest)"
MINOR="$(echo "$VERSION" | cut -d. -f2)"
[ "$MINOR" -ge 20 ] || fail "Kubernetes ${VERSION} is older than the oldest supported (${OLDEST})"

CACHE_ROOT="${KPT_LIVE_CACHE:-${HOME}/.cache/kpt-live-action}"
CACHE="${CACHE_ROOT}/k8s-${VERSION}"
BINS=(kube-apiserver kube-controller-manager etcd)

apiserver_version() { "$1/kube-apiserver" --version 2>/dev/null | sed -n 's/^Kubernetes v\([0-9.]*\).*/\1/p'; }
etcd_ok() { # dir: an etcd fit for VERSION (3.5+ for anything newer than 1.20)
  [ -x "$1/etcd" ] || return 1
  [ "$MINOR" -le 20 ] && return 0
  local v; v="$("$1/etcd" --version 2>/dev/null | sed -n 's/^etcd Version: 3\.\([0-9]*\).*/\1/p')"
  [ -n "$v" ] && [ "$v" -ge 5 ]
}
usable() { # dir: holds every binary, of the right version
  local d="$1" b
  for b in "${BINS[@]}"; do [ -x "$d/$b" ] || return 1; done
  [ "$(apiserver_version "$d")" = "$VERSION" ] && etcd_ok "$d"
}

# squid: the forward proxy of the connection tests (test/support/squid.ts). Installed here, with the test
# servers' other Debian packages, so that the tests themselves never install anything.
if ! command -v squid >/dev/null && [ ! -x /usr/sbin/squid ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else sudo="-"; fi
  if [ "$sudo" != "-" ] && command -v apt-get >/dev/null; then
    log "installing Debian package squid (the forward proxy of the connection tests)"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq squid; } >&2 ||
      log "could not install squid: the proxy tests will fail"
  else
    log "squid is missing and cannot be installed here (needs root and apt-get): the proxy tests will fail"
  fi
fi

# kubectl and helm, the test-only tools the integration tests drive as a user would: their own cache and lock
# (ensure-test-tools.sh), provided here so that a test never builds them; missing, they fail only those tests
"$HERE/ensure-test-tools.sh" >/dev/null ||
  log "could not provide kubectl and helm (test-only tools): the tests that run them will fail"

# 1. KUBEBUILDER_ASSETS, then PATH (only at the exact version)
if [ -n "${KUBEBUILDER_ASSETS:-}" ] && usable "$KUBEBUILDER_ASSETS"; then echo "$KUBEBUILDER_ASSETS"; exit 0; fi
if command -v kube-apiserver >/dev/null; then
  d="$(dirname "$(command -v kube-apiserver)")"
  if usable "$d"; then echo "$d"; exit 0; fi
fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock-${VERSION}"
if ! flock -n 9; then log "another process is providing Kubernetes ${VERSION}; waiting for it"; flock 9; fi

# 2. cache
if usable "$CACHE"; then echo "$CACHE"; exit 0; fi

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*  (install it by hand, or run as root)"; return 1; fi
}
apt_updated=0
apt_update() { as_root apt-get update -qq >&2; apt_updated=1; }
apt_install() { # packages (name or name/release)
  local missing=() p
  for p in "$@"; do dpkg -s "${p%%/*}" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || fail "apt-get not found; please install: ${missing[*]}"
  [ $apt_updated = 1 ] || apt_update
  log "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >&2
}

STAGE="${CACHE}.part-$$"
rm -rf "$STAGE"; mkdir -p "$STAGE"
trap 'rm -rf "$STAGE"' EXIT
publish() { # moves the staged binaries into the cache, checks them, prints the directory
  rm -rf "$CACHE"; mv "$STAGE" "$CACHE"
  usable "$CACHE" || fail "the binaries in ${CACHE} are not Kubernetes ${VERSION} (kube-apiserver says: $(apiserver_version "$CACHE"))"
  log "$1; cached in ${CACHE}"
  echo "$CACHE"; exit 0
}

# etcd for 1.20 comes from Debian (3.4, what 1.20 was released with)
debian_etcd() { apt_install etcd-server; ln -sf "$(command -v etcd || echo /usr/bin/etcd)" "$STAGE/etcd"; }

# 3. official download
if [ "${KPT_LIVE_NO_DOWNLOAD:-0}" != 1 ] && command -v curl >/dev/null; then
  get() { curl -fsSL --connect-timeout 5 --max-time 600 -o "$2" "$1" 2>/dev/null; }
  base="https://dl.k8s.io/v${VERSION}/bin/linux/amd64"
  if get "$base/kube-apiserver" "$STAGE/kube-apiserver" && get "$base/kube-controller-manager" "$STAGE/kube-controller-manager"; then
    chmod +x "$STAGE"/kube-*
    if [ "$VERSION" = "$OLDEST" ]; then debian_etcd; publish "downloaded Kubernetes ${VERSION}"; fi
    etcd_v="$(pinned_etcd)"
    if [ "$VERSION" = "$(pinned_version)" ] && [ -n "$etcd_v" ] &&
      get "https://github.com/etcd-io/etcd/releases/download/v${etcd_v}/etcd-v${etcd_v}-linux-amd64.tar.gz" "$STAGE/etcd.tgz"; then
      tar -xzf "$STAGE/etcd.tgz" -C "$STAGE" --strip-components=1 "etcd-v${etcd_v}-linux-amd64/etcd"
      rm -f "$STAGE/etcd.tgz"
      publish "downloaded Kubernetes ${VERSION} and etcd ${etcd_v}"
    fi
  fi
  rm -f "$STAGE"/*
  log "no official download of Kubernetes ${VERSION} reachable; building it"
fi

# 4a. 1.20.2: Debian 12's source package
if [ "$VERSION" = "$OLDEST" ]; then
  exec "$HERE/build-debian-1.20.sh" "$STAGE" "$CACHE"
fi

# 4b. any other version: Go modules
command -v go >/dev/null || fail "Kubernetes ${VERSION} is not cached and cannot be downloaded, and \`go\` is not on PATH to build it (install Go 1.25+ or set KUBEBUILDER_ASSETS)"
BUILD="${CACHE_ROOT}/build-${VERSION}"
if [ "$VERSION" = "$(pinned_version)" ]; then
  module="$MODULES"
else
  log "Kubernetes ${VERSION} is not the pinned release ($(pinned_version)); pinning a copy of the build module to it"
  rm -rf "$BUILD"; mkdir -p "$BUILD"; cp -r "$MODULES"/. "$BUILD"/
  "$BUILD/bump.sh" "$VERSION" >&2 || fail "Kubernetes ${VERSION} cannot be built from Go modules (is it a released version on the module proxy?)"
  module="$BUILD"
fi
log "first run: building kube-apiserver, kube-controller-manager and etcd ${VERSION} from Go modules"
log "(about 15-20 minutes on 2 cores the first time; later runs start in seconds from ${CACHE})"
start=$(date +%s)
# the version stamp (`kube-apiserver --version`, GET /version): a module build has no git metadata to take it from
stamp=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp="$stamp -X $pkg.gitVersion=v${VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${MINOR} -X $pkg.gitTreeState=clean"
done
(
  cd "$module"
  CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=readonly" go build -trimpath -ldflags="-s -w${stamp}" -o "$STAGE/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager ./cmd/etcd
) >&2 || fail "building Kubernetes ${VERSION} from Go modules failed (see the go output above)"
[ "$module" = "$MODULES" ] || rm -rf "$BUILD"
publish "built Kubernetes ${VERSION} from Go modules in $(($(date +%s) - start)) s"
