import { connectClusterAhead } from './action/cluster-access.js';
import { type ActionInputs, parseInputs } from './action/inputs.js';
import { exitWhenFlushed } from './startup/exit-when-flushed.js';

// The inputs are parsed once, here; with a kubeconfig input and a mode that talks to the cluster, the
// connection starts before the rest of the action (main.js, a chunk of its own) is loaded. Inputs that do not
// parse are reported by run().
let inputs: ActionInputs | Error;
try {
  inputs = parseInputs();
  if (inputs.mode !== 'resolve' && inputs.mode !== 'drift')
    connectClusterAhead(inputs.kubeconfig, inputs.context);
} catch (err) {
  inputs = err as Error;
}
const { run } = await import('./action/main.js');
await run(inputs);
exitWhenFlushed();
