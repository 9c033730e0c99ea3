#!/usr/bin/env bash
# Pins the current test server to another Kubernetes release: rewrites go.mod (k8s.io/kubernetes at that
# version, every staging module it replaces with a local path pinned to the matching v0.x, the etcd server the
# release requires) and go.sum. Usage: bump.sh 1.37.2   (then run the tests; commit go.mod and go.sum)
set -euo pipefail
cd "$(dirname "$0")"
ver="${1:?usage: bump.sh X.Y.Z}"; ver="${ver#v}"
minor="${ver#*.}"; staging="v0.${minor}"
gomod="$(go mod download -json "k8s.io/kubernetes@v${ver}" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
[ -f "$gomod" ] || { echo "bump.sh: k8s.io/kubernetes@v${ver} not found on the module proxy" >&2; exit 1; }
goline="$(sed -n 's/^go \(.*\)$/\1/p' "$gomod" | head -1)"
etcd="$(awk '$1=="go.etcd.io/etcd/server/v3" {print $2; exit}' "$gomod")"
{
  echo "// Builds the current test server (kube-apiserver, kube-controller-manager, etcd) and kubectl from Go modules."
  echo "// The Kubernetes version below is the single source of truth; change it with ./bump.sh X.Y.Z."
  echo "module kpt-live-action.dev/k8s-modules"
  echo
  echo "go ${goline}"
  echo
  echo "godebug default=go${goline%.*}"
  echo
  echo "require ("
  echo "	k8s.io/kubernetes v${ver}"
  echo "	go.etcd.io/etcd/server/v3 ${etcd}"
  echo ")"
  echo
  echo "replace ("
  sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*$#\1#p' "$gomod" | sort -u | while read -r m; do
    echo "	${m} => ${m} ${staging}"
  done
  echo ")"
} > go.mod
rm -f go.sum
go mod tidy
echo "pinned Kubernetes v${ver} (staging ${staging}, etcd ${etcd}, go ${goline})"
