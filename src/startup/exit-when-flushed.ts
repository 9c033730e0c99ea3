/**
 * Ends the process once stdout and stderr have taken everything written to them, instead of letting the
 * event loop run dry: the work is done by then, and Node's teardown of the heap a large run leaves
 * (25-35 ms after a 1000-object apply) is skipped. The exit code is `process.exitCode`. Each stream's
 * empty write calls back after the writes queued before it (asynchronous pipes, as on macOS, included);
 * a stream that is closed calls back with an error, which changes nothing here.
 */
export function exitWhenFlushed(): void {
  let pending = 2;
  const done = () => {
    pending--;
    if (pending === 0) process.exit();
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.destroyed || !stream.writable) done();
    else stream.write('', () => done());
  }
}
