#!/usr/bin/env bash
# Makes sure the command-line tools the integration tests drive as a user would are available, and prints the
# path of each on stdout, one per line (`kubectl=PATH`, `helm=PATH`; progress goes to stderr):
#   kubectl  at the current test server's version (the release pinned in k8s-modules/go.mod); the tests run it
#            against the 1.20.2 server too (kubectl writes the field-manager names; the server only records them)
#   helm     v3.22.0 (HELM_VERSION), the Helm 3 CLI users install releases with
# Both are test-only tools: the action and the CLI never run them.
#
# Where each comes from, in this order:
#   1. the cache: ${KPT_LIVE_CACHE:-$HOME/.cache/kpt-live-action}/kubectl-X.Y.Z/kubectl, .../helm-X.Y.Z/helm
#   2. an official release download, where the network allows (skipped with KPT_LIVE_NO_DOWNLOAD=1)
#   3. a build from Go modules (`go` and a module proxy), with -trimpath -ldflags='-s -w' and the version stamps
#      the projects' own release builds set. kubectl builds from k8s-modules (the module the test servers build
#      from), helm with `go install helm.sh/helm/v3/cmd/helm@VERSION`.
# A tool on PATH is never used: its version would decide what the tests measure.
# Concurrent callers wait for each other (flock), so a parallel test run never builds twice.
# Usage: ensure-test-tools.sh [kubectl] [helm]   (default: both)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODULES="$HERE/k8s-modules"
HELM_VERSION="${HELM_VERSION:-3.22.0}"
CACHE_ROOT="${KPT_LIVE_CACHE:-${HOME}/.cache/kpt-live-action}"

log() { echo "[test-tools] $*" >&2; }
fail() { log "error: $*"; exit 1; }

KUBE_VERSION="$(sed -n 's/^[[:space:]]*k8s.io\/kubernetes v\([0-9.]*\)$/\1/p' "$MODULES/go.mod" | head -1)"
[ -n "$KUBE_VERSION" ] || fail "no k8s.io/kubernetes version pinned in ${MODULES}/go.mod"
KUBE_MINOR="$(echo "$KUBE_VERSION" | cut -d. -f2)"

tool_version() { # tool path: its version as X.Y.Z, or nothing
  case "$1" in
    kubectl) "$2" version --client 2>/dev/null | sed -n 's/^Client Version: v\([0-9.]*\).*/\1/p' ;;
    helm) "$2" version --template '{{.Version}}' 2>/dev/null | sed -n 's/^v\([0-9.]*\)$/\1/p' ;;
  esac
}

get() { curl -fsSL --connect-timeout 5 --max-time 600 -o "$2" "$1" 2>/dev/null; }
can_download() { [ "${KPT_LIVE_NO_DOWNLOAD:-0}" != 1 ] && command -v curl >/dev/null; }
need_go() { command -v go >/dev/null || fail "$1 is not cached and cannot be downloaded, and \`go\` is not on PATH to build it (install Go 1.25+)"; }

build_kubectl() { # stage
  if can_download && get "https://dl.k8s.io/v${KUBE_VERSION}/bin/linux/amd64/kubectl" "$1/kubectl"; then
    chmod +x "$1/kubectl"; log "downloaded kubectl ${KUBE_VERSION}"; return 0
  fi
  need_go "kubectl ${KUBE_VERSION}"
  log "building kubectl ${KUBE_VERSION} from Go modules (k8s-modules; a few minutes on 2 cores, less after the test servers' build)"
  local stamp="" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    stamp="$stamp -X $pkg.gitVersion=v${KUBE_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${KUBE_MINOR} -X $pkg.gitTreeState=clean"
  done
  (cd "$MODULES" && CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=readonly" \
    go build -trimpath -ldflags="-s -w${stamp}" -o "$1/" k8s.io/kubernetes/cmd/kubectl) >&2
}

build_helm() { # stage
  if can_download && get "https://get.helm.sh/helm-v${HELM_VERSION}-linux-amd64.tar.gz" "$1/helm.tgz"; then
    tar -xzf "$1/helm.tgz" -C "$1" --strip-components=1 linux-amd64/helm && rm -f "$1/helm.tgz"
    log "downloaded helm ${HELM_VERSION}"; return 0
  fi
  rm -f "$1/helm.tgz"
  need_go "helm ${HELM_VERSION}"
  log "building helm ${HELM_VERSION} from Go modules (a few minutes on 2 cores)"
  # The stamps Helm's Makefile sets: the version, and the Kubernetes version `helm template` assumes (client-go's
  # minor, as Helm derives it: helm 3.22 uses client-go v0.37, so 1.37)
  local client_go minor stamp
  client_go="$(go mod download -json "helm.sh/helm/v3@v${HELM_VERSION}" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  minor="$(sed -n 's/^[[:space:]]*k8s.io\/client-go v0\.\([0-9]*\)\..*$/\1/p' "$client_go" | head -1)"
  [ -n "$minor" ] || fail "cannot read the client-go version of helm ${HELM_VERSION}"
  stamp="-X helm.sh/helm/v3/internal/version.version=v${HELM_VERSION} -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
  for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    stamp="$stamp -X ${pkg}.k8sVersionMajor=1 -X ${pkg}.k8sVersionMinor=${minor}"
  done
  (cd "$1" && CGO_ENABLED=0 GOBIN="$1" GOFLAGS="-buildvcs=false" \
    go install -trimpath -ldflags="-s -w ${stamp}" "helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}") >&2
}

ensure() { # tool version: prints tool=PATH
  local tool="$1" version="$2" dir="${CACHE_ROOT}/$1-$2"
  if [ "$(tool_version "$tool" "$dir/$tool" || true)" = "$version" ]; then echo "$tool=$dir/$tool"; return 0; fi
  mkdir -p "$CACHE_ROOT"
  exec 8>"$CACHE_ROOT/.lock-$tool-$version"
  if ! flock -n 8; then log "another process is providing ${tool} ${version}; waiting for it"; flock 8; fi
  if [ "$(tool_version "$tool" "$dir/$tool" || true)" != "$version" ]; then
    local stage="${dir}.part-$$" start
    start=$(date +%s)
    rm -rf "$stage"; mkdir -p "$stage"
    # shellcheck disable=SC2064 # expand now: the stage of this tool
    trap "rm -rf '$stage'" EXIT
    "build_$tool" "$stage" || fail "could not provide ${tool} ${version} (see the output above)"
    local got; got="$(tool_version "$tool" "$stage/$tool" || true)"
    [ "$got" = "$version" ] || fail "the ${tool} just provided says version '${got}', expected ${version}"
    rm -rf "$dir"; mv "$stage" "$dir"; trap - EXIT
    log "${tool} ${version} ready in $(($(date +%s) - start)) s; cached in ${dir}"
  fi
  exec 8>&-
  echo "$tool=$dir/$tool"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(kubectl helm)
for t in "${tools[@]}"; do
  case "$t" in
    kubectl) ensure kubectl "$KUBE_VERSION" ;;
    helm) ensure helm "$HELM_VERSION" ;;
    *) fail "unknown tool '$t' (expected kubectl or helm)" ;;
  esac
done
