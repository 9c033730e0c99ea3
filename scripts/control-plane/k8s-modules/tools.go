//go:build tools

// Package k8smodules records the Kubernetes commands this module builds (the test servers, and kubectl as a
// test-only tool), so `go mod tidy` keeps their dependencies. It is never compiled (build tag `tools`).
package k8smodules

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
