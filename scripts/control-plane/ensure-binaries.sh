#!/usr/bin/env bash
# Makes sure kube-apiserver, kube-controller-manager, kube-scheduler (1.20.2) and etcd are available
# (and squid, the forward proxy of the connection tests), and prints the directory that holds them on stdout (progress goes to stderr).
#
# Order of preference:
#   1. $KUBEBUILDER_ASSETS (envtest convention) or PATH, when they hold kube-apiserver + etcd
#   2. the cache: ${KPT_LIVE_CACHE:-$HOME/.cache/kpt-live-action}/k8s-<version>/
#   3. an official release download, where the network allows (skipped with KPT_LIVE_NO_DOWNLOAD=1)
#   4. a build from Debian's `kubernetes` source package, with the two Go-version patches
#      (docs/control-plane.md explains them)
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.20.2}"
CACHE_ROOT="${KPT_LIVE_CACHE:-${HOME}/.cache/kpt-live-action}"
CACHE="${CACHE_ROOT}/k8s-${K8S_VERSION}"
BINS=(kube-apiserver kube-controller-manager kube-scheduler)

log() { echo "[control-plane] $*" >&2; }

have_all() {
  local dir="$1"
  for b in "${BINS[@]}" etcd; do [ -x "$dir/$b" ] || return 1; done
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*  (install it by hand, or run as root)"; return 1; fi
}

apt_updated=0
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null; then
    log "apt-get not found; please install: ${missing[*]}"; return 1
  fi
  if [ $apt_updated = 0 ]; then as_root apt-get update -qq >&2; apt_updated=1; fi
  log "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >&2
}

link_etcd() {
  # etcd comes from PATH or Debian's etcd-server package.
  local dir="$1"
  if [ ! -x "$dir/etcd" ]; then
    if ! command -v etcd >/dev/null; then apt_install etcd-server; fi
    ln -sf "$(command -v etcd)" "$dir/etcd"
  fi
}

# squid: the forward proxy the connection tests put in front of the API server (test/support/squid.ts).
# Installed here, with the control plane's other Debian packages, so that tests never install anything.
if ! command -v squid >/dev/null && [ ! -x /usr/sbin/squid ]; then
  apt_install squid || log "could not install squid: the proxy tests (test/integration/connect-proxy.test.ts) will fail"
fi

# 1. KUBEBUILDER_ASSETS or PATH
if [ -n "${KUBEBUILDER_ASSETS:-}" ] && have_all "$KUBEBUILDER_ASSETS"; then
  echo "$KUBEBUILDER_ASSETS"; exit 0
fi
if command -v kube-apiserver >/dev/null && command -v kube-controller-manager >/dev/null && command -v etcd >/dev/null; then
  dir="$(dirname "$(command -v kube-apiserver)")"
  if have_all "$dir"; then echo "$dir"; exit 0; fi
fi

mkdir -p "$CACHE"
# 2. cache
if have_all "$CACHE"; then echo "$CACHE"; exit 0; fi
for b in "${BINS[@]}"; do [ -x "$CACHE/$b" ] || missing_k8s=1; done
if [ -z "${missing_k8s:-}" ]; then link_etcd "$CACHE"; echo "$CACHE"; exit 0; fi

# 3. official download
if [ "${KPT_LIVE_NO_DOWNLOAD:-0}" != 1 ] && command -v curl >/dev/null; then
  base="https://dl.k8s.io/v${K8S_VERSION}/bin/linux/amd64"
  ok=1
  for b in "${BINS[@]}"; do
    if ! curl -fsSL --connect-timeout 5 --max-time 300 -o "$CACHE/$b.part" "$base/$b" 2>/dev/null; then ok=0; break; fi
    mv "$CACHE/$b.part" "$CACHE/$b"; chmod +x "$CACHE/$b"
  done
  rm -f "$CACHE"/*.part
  if [ $ok = 1 ]; then link_etcd "$CACHE"; log "downloaded Kubernetes ${K8S_VERSION}"; echo "$CACHE"; exit 0; fi
  log "no official download reachable; building from Debian's kubernetes source package instead"
fi

# 4. build from Debian source
log "first run: building Kubernetes ${K8S_VERSION} from Debian's source package (about 5-8 minutes on 2 cores)."
log "later runs start in seconds from the cache at ${CACHE}"
apt_install golang-go etcd-server rsync jq make golang-github-modern-go-reflect2-dev golang-github-json-iterator-go-dev dpkg-dev curl

# a deb-src entry derived from the machine's own Debian sources
if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      | as_root tee /etc/apt/sources.list.d/kpt-live-action-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list | as_root tee /etc/apt/sources.list.d/kpt-live-action-src.list >/dev/null
  fi
  as_root apt-get update -qq >&2
fi

WORK="${CACHE_ROOT}/build-${K8S_VERSION}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
log "fetching source package"
apt-get source --download-only -qq kubernetes >&2
tarball="$(ls kubernetes_*.orig.tar.gz | head -1)"
tar xzf "$tarball"
src="$(ls -d kubernetes-*/ | head -1)"; cd "$src"

swap_vendor() { # module path, Debian gocode path, new version
  local mod="$1" from="$2" ver="$3" old
  old="$(awk -v m="$mod" '$1=="#" && $2==m && $3!="=>" {print $3; exit}' vendor/modules.txt)"
  rm -rf "vendor/$mod"; mkdir -p "vendor/$mod"
  cp -r "$from"/. "vendor/$mod/"; rm -f "vendor/$mod/go.mod" "vendor/$mod/go.sum"
  find "vendor/$mod" -name '*_test.go' -delete
  # the replace directive, in go.mod and in both "=>" lines of vendor/modules.txt
  sed -i "s#${mod} => ${mod} ${old}\$#${mod} => ${mod} ${ver}#" go.mod vendor/modules.txt
}
log "patch 1: vendored reflect2 v1.0.1 -> v1.0.2 (segfaults under Go >= 1.18)"
swap_vendor github.com/modern-go/reflect2 /usr/share/gocode/src/github.com/modern-go/reflect2 v1.0.2
log "patch 2: CRD validation must not treat \"\" as null under Go 1.19"
for f in vendor/github.com/go-openapi/validate/type.go vendor/k8s.io/kube-openapi/pkg/validation/validate/type.go; do
  [ -f "$f" ] || continue
  sed -i 's/data == nil || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))/data == nil/' "$f"
  grep -q 'reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data))' "$f" && { log "patch 2 did not apply to $f"; exit 1; }
done

mkdir -p .go/src/k8s.io && ln -sfn ../../.. .go/src/k8s.io/kubernetes
export HOME="$WORK/home" GOPATH="$PWD/.go" CGO_ENABLED=0
mkdir -p "$HOME"
log "building kube-apiserver, kube-controller-manager, kube-scheduler"
make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler" >&2
for b in "${BINS[@]}"; do cp "_output/bin/$b" "$CACHE/$b.part"; mv "$CACHE/$b.part" "$CACHE/$b"; done
link_etcd "$CACHE"
cd /; rm -rf "$WORK"
log "built and cached in $CACHE"
echo "$CACHE"
