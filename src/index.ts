import { connectAtStart } from './action/early-connect.js';
import { exitWhenFlushed } from './common/exit-when-flushed.js';

// the cluster connection starts before the rest of the action is loaded (main.js is a chunk of its own)
const early = connectAtStart();
const { run } = await import('./action/main.js');
await run(early);
exitWhenFlushed();
