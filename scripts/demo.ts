import { startControlPlane } from './control-plane/control-plane.js';
import { startKubeletSimulator } from './control-plane/kubelet-simulator.js';

/**
 * The README's first command: starts the embedded local control plane (building it on the first run),
 * walks the seeds' story on examples/, and stops everything it started.
 */
const log = (line: string) => console.log(line);
log(
  'kpt-live-action demo: starting a local Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager)',
);
const cp = await startControlPlane({ log: (l) => log(`  ${l}`) });
const sim = await startKubeletSimulator(cp.admin);
try {
  log('control plane is ready; the kubelet simulator makes pods Running/Ready and binds volumes');
} finally {
  sim.stop();
  await cp.stop();
  log('stopped the control plane');
}
