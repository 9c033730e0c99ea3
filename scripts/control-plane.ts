import { startControlPlane } from './control-plane/control-plane.js';
import { startKubeletSimulator } from './control-plane/kubelet-simulator.js';

/** Starts the local control plane and the kubelet simulator, prints how to reach them, runs until Ctrl-C. */
const cp = await startControlPlane({ log: (l) => console.log(l) });
const sim = await startKubeletSimulator(cp.admin);
console.log(`\nexport KUBECONFIG=${cp.kubeconfigPath}\n(Ctrl-C stops it)`);
const stop = async () => {
  sim.stop();
  await cp.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
