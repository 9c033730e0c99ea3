/**
 * The flags that differ between the Kubernetes versions the test control plane runs (1.20 to current).
 * Everything else it passes is accepted by every version from 1.20 on.
 */
export interface ServerFlags {
  apiserver: string[];
  controllerManager: string[];
}

/** Minor version of `1.37.2` (37). */
export function minorOf(version: string): number {
  const m = /^1\.(\d+)\./.exec(version);
  if (!m) throw new Error(`not a Kubernetes 1.x version: ${version}`);
  return Number(m[1]);
}

/** Controllers the control plane turns off: cloud and node-network ones that need a cloud or real nodes. */
const UNWANTED = [
  // 1.28 and later
  'node-lifecycle-controller',
  'node-ipam-controller',
  'node-route-controller',
  'cloud-node-lifecycle-controller',
  'service-lb-controller',
  // before 1.28
  'nodelifecycle',
  'nodeipam',
  'route',
  'cloud-node-lifecycle',
  'service',
];

/** The controller names `kube-controller-manager --help` lists (its "All controllers:" line). */
export function knownControllers(help: string): string[] {
  const m = /All controllers:\s*([\s\S]*?)(?:\n\s*Disabled-by-default|$)/.exec(help);
  return m ? m[1]!.split(/[,\s]+/).filter(Boolean) : [];
}

/**
 * `known`: the controller names this kube-controller-manager knows (names changed in 1.28, and the cloud ones
 * left the binary later); disabling a name it does not know makes it exit.
 */
export function serverFlags(version: string, known: string[]): ServerFlags {
  const minor = minorOf(version);
  // 1.24 removed the insecure ports (`--insecure-port`, the controller-manager's `--port`).
  const insecureOff = minor < 24;
  const off = UNWANTED.filter((c) => known.includes(c)).map((c) => `-${c}`);
  return {
    apiserver: insecureOff ? ['--insecure-port=0'] : [],
    controllerManager: [...(insecureOff ? ['--port=0'] : []), `--controllers=${['*', ...off].join(',')}`],
  };
}
