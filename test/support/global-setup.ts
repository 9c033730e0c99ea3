import type { TestProject } from 'vitest/node';
import { type ControlPlane, startControlPlane } from '../../scripts/control-plane/control-plane.js';
import {
  type KubeletSimulator,
  startKubeletSimulator,
} from '../../scripts/control-plane/kubelet-simulator.js';

/**
 * One real control plane (etcd + kube-apiserver + kube-controller-manager) and one kubelet simulator for
 * the whole integration run. Test files isolate themselves with their own namespaces (see cluster.ts).
 */
let cp: ControlPlane | undefined;
let sim: KubeletSimulator | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: {
      server: string;
      /** Kubernetes version of the test server, e.g. `1.37.2` (K8S_VERSION picks it). */
      version: string;
      kubeconfigPath: string;
      restrictedKubeconfigPath: string;
      adminToken: string;
      restrictedToken: string;
      restrictedUser: string;
      auditLogPath: string;
    };
  }
}

export async function setup(project: TestProject): Promise<void> {
  cp = await startControlPlane({ log: (l) => process.stderr.write(`[control-plane] ${l}\n`) });
  sim = await startKubeletSimulator(cp.admin);
  project.provide('controlPlane', {
    server: cp.server,
    version: cp.version,
    kubeconfigPath: cp.kubeconfigPath,
    restrictedKubeconfigPath: cp.restrictedKubeconfigPath,
    adminToken: cp.adminToken,
    restrictedToken: cp.restrictedToken,
    restrictedUser: cp.restrictedUser,
    auditLogPath: cp.auditLogPath,
  });
}

export async function teardown(): Promise<void> {
  sim?.stop();
  await cp?.stop();
}
