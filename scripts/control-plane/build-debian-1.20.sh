#!/usr/bin/env bash
# Builds kube-apiserver and kube-controller-manager 1.20.2 from Debian 12 (bookworm)'s `kubernetes` source
# package, with bookworm's Go 1.19, and puts them with Debian's etcd into the cache.
# Called by ensure-binaries.sh (which holds the lock): build-debian-1.20.sh STAGE_DIR CACHE_DIR
#
# Works on Debian 12 and 13:
# - the source always comes from bookworm (`apt-get source kubernetes/bookworm`), through a deb-src entry for
#   bookworm made from the machine's own Debian mirror, so it follows bookworm's security updates;
# - the compiler is bookworm's golang-1.19-go, called by path (/usr/lib/go-1.19/bin), whatever `go` comes first
#   on PATH. On Debian 13, which has no Go 1.19, bookworm's binary packages are added with apt pin priority 100,
#   so they never replace a trixie package: only what is asked for by name (`golang-1.19-go/bookworm`) comes
#   from there. Go toolchains from the module proxy start at 1.21, too new for this tree.
# Two Go-version patches are applied (docs/control-plane.md explains them).
set -euo pipefail
STAGE="$1"; CACHE="$2"
VERSION=1.20.2
CACHE_ROOT="$(dirname "$CACHE")"
GO119=/usr/lib/go-1.19/bin
trap 'rm -rf "$STAGE"' EXIT

log() { echo "[control-plane] $*" >&2; }
fail() { log "error: $*"; exit 1; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*  (install it by hand, or run as root)"; return 1; fi
}
command -v apt-get >/dev/null || fail "Kubernetes 1.20.2 is built from Debian's source package: apt-get is needed"

# The machine's Debian mirrors (the archive and the security archive), read from its own apt sources.
mirrors() {
  { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n'
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb\(-src\)\?[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\3/p'
  } | grep -E '/debian(-security)?/?$' | sed 's#/$##' | sort -u || true
}
all_mirrors="$(mirrors)"
archive="$(echo "$all_mirrors" | grep -v -- '-security$' | head -1 || true)"
security="$(echo "$all_mirrors" | grep -- '-security$' | head -1 || true)"
[ -n "$archive" ] || fail "no Debian mirror found in /etc/apt/sources.list*; add one (a .../debian URI)"
codename="$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")"

sources=/etc/apt/sources.list.d/kpt-live-action-bookworm.sources
want_types="deb-src"
[ "$codename" = bookworm ] || want_types="deb deb-src"
entry="Types: ${want_types}
URIs: ${archive}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"
[ -z "$security" ] || entry="${entry}
Types: ${want_types}
URIs: ${security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"
if [ "$(cat "$sources" 2>/dev/null)" != "$(printf '%s' "$entry")" ]; then
  log "adding apt sources for bookworm (${want_types}) from ${archive}"
  printf '%s' "$entry" | as_root tee "$sources" >/dev/null
  if [ "$codename" != bookworm ]; then
    printf 'Package: *\nPin: release n=bookworm\nPin-Priority: 100\n' |
      as_root tee /etc/apt/preferences.d/kpt-live-action-bookworm >/dev/null
  fi
fi
as_root apt-get update -qq >&2

pkgs=(etcd-server rsync jq make curl dpkg-dev golang-github-modern-go-reflect2-dev)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ -x "$GO119/go" ] || missing+=("golang-1.19-go/bookworm")
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >&2
fi
[ -x "$GO119/go" ] || fail "Go 1.19 did not install at ${GO119}"

log "first run: building Kubernetes ${VERSION} from bookworm's source package with Go 1.19 (about 15-20 minutes on 2 cores)"
WORK="${CACHE_ROOT}/build-${VERSION}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
apt-get source --download-only -qq kubernetes/bookworm >&2
tarball="$(ls kubernetes_*.orig.tar.gz | head -1)"
log "source: ${tarball}"
tar xzf "$tarball"
src="$(ls -d kubernetes-*/ | head -1)"; cd "$src"

swap_vendor() { # module path, Debian gocode path, new version
  local mod="$1" from="$2" ver="$3" old
  old="$(awk -v m="$mod" '$1=="#" && $2==m && $3!="=>" {print $3; exit}' vendor/modules.txt)"
  rm -rf "vendor/$mod"; mkdir -p "vendor/$mod"
  cp -r "$from"/. "vendor/$mod/"; rm -f "vendor/$mod/go.mod" "vendor/$mod/go.sum"
  find "vendor/$mod" -name '*_test.go' -delete
  sed -i "s#${mod} => ${mod} ${old}\$#${mod} => ${mod} ${ver}#" go.mod vendor/modules.txt
}
log "patch 1: vendored reflect2 v1.0.1 -> v1.0.2 (segfaults under Go >= 1.18)"
swap_vendor github.com/modern-go/reflect2 /usr/share/gocode/src/github.com/modern-go/reflect2 v1.0.2
log "patch 2: CRD validation must not treat \"\" as null under Go 1.19"
for f in vendor/github.com/go-openapi/validate/type.go vendor/k8s.io/kube-openapi/pkg/validation/validate/type.go; do
  [ -f "$f" ] || continue
  sed -i 's/data == nil || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))/data == nil/' "$f"
  ! grep -q 'reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data))' "$f" || fail "patch 2 did not apply to $f"
done

mkdir -p .go/src/k8s.io && ln -sfn ../../.. .go/src/k8s.io/kubernetes
export HOME="$WORK/home" GOPATH="$PWD/.go" CGO_ENABLED=0 PATH="$GO119:$PATH" GOTOOLCHAIN=local GOFLAGS=
mkdir -p "$HOME"
start=$(date +%s)
# the version stamp (kube-apiserver --version) comes from these; the tarball has no git metadata
export KUBE_GIT_VERSION="v${VERSION}" KUBE_GIT_TREE_STATE=clean KUBE_GIT_MAJOR=1 KUBE_GIT_MINOR=20
make WHAT="cmd/kube-apiserver cmd/kube-controller-manager" >&2
cp _output/bin/kube-apiserver _output/bin/kube-controller-manager "$STAGE/"
ln -sf "$(command -v etcd || echo /usr/bin/etcd)" "$STAGE/etcd"
cd /; rm -rf "$WORK"
got="$("$STAGE/kube-apiserver" --version | sed -n 's/^Kubernetes v\([0-9.]*\).*/\1/p')"
[ "$got" = "$VERSION" ] || fail "the build says it is Kubernetes '${got}', not ${VERSION}"
rm -rf "$CACHE"; mv "$STAGE" "$CACHE"
log "built Kubernetes ${VERSION} from Debian's source in $(($(date +%s) - start)) s; cached in ${CACHE}"
echo "$CACHE"
