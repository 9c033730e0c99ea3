import { BatchedWriter } from '../startup/batched-writer.js';
import { exitWhenFlushed } from '../startup/exit-when-flushed.js';
import type { OutStream } from './cli-io.js';

/**
 * The `kpt-live` executable. SIGINT/SIGTERM abort the run: the engine stops starting new work, saves the
 * inventory and returns; the process then exits 130 (SIGINT) or 143 (SIGTERM). A second Ctrl-C exits at
 * once; a SIGTERM after SIGINT (how CI runners cancel) does not cut the inventory write short.
 */
const controller = new AbortController();
let signalled: NodeJS.Signals | undefined;

// stdout to a pipe or file (CI logs) is written in batches, and flushed before each stderr write so the
// two keep their order when they share a log; a terminal gets every write at once (the progress view)
const batch = process.stdout.isTTY ? undefined : new BatchedWriter((text) => process.stdout.write(text));
const stdout: OutStream = batch
  ? { write: (text) => batch.add(text), isTTY: false, columns: process.stdout.columns }
  : process.stdout;
const stderr: OutStream = batch
  ? {
      write: (text) => {
        batch.flush();
        return process.stderr.write(text);
      },
      isTTY: process.stderr.isTTY,
      columns: process.stderr.columns,
    }
  : process.stderr;
process.on('exit', () => batch?.flush());

function onSignal(signal: NodeJS.Signals): void {
  if (signalled === 'SIGINT' && signal === 'SIGINT') {
    stderr.write('kpt-live: SIGINT again: exiting now; the inventory may not list every object\n');
    process.exit(130);
  }
  if (signalled) {
    // a CI runner follows SIGINT with SIGTERM: keep saving the inventory until SIGKILL
    stderr.write(`kpt-live: ${signal}: already stopping, saving the inventory\n`);
    return;
  }
  signalled = signal;
  stderr.write(
    `kpt-live: ${signal}: stopping after the current step and saving the inventory${signal === 'SIGINT' ? ' (Ctrl-C again exits now)' : ''}\n`,
  );
  controller.abort(new Error(`interrupted by ${signal}`));
}
// `kpt-live status | head -1`: a closed pipe ends the command quietly, not with a stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const argv = process.argv.slice(2);
// no top-level await: the ncc bundle (webpack) does not take it
void import('./main.js')
  .then(({ main }) =>
    main(argv, {
      stdout,
      stderr,
      cwd: process.cwd(),
      env: process.env,
      signal: controller.signal,
    }),
  )
  .then((code) => {
    if (signalled) stderr.write(`kpt-live: interrupted by ${signalled}\n`);
    process.exitCode = signalled ? (signalled === 'SIGINT' ? 130 : 143) : code;
  })
  .finally(() => {
    batch?.flush();
    exitWhenFlushed();
  });
