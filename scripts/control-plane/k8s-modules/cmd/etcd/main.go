// Command etcd is etcd's own server entry point, built at the version the pinned Kubernetes release requires.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
