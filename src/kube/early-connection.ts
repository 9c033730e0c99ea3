import { ResourceGroupApiVersion, ResourceGroupKind } from '../common/constants.js';
import type { Connection } from './connect.js';

/** A connection being made ahead of need: `take()` hands it over (its failure surfaces there), `drop()` closes it. */
export interface EarlyConnection {
  take(): Promise<Connection>;
  drop(): void;
}

/**
 * Starts `connecting` now and sends the request every mode makes first (the ResourceGroup kind's discovery,
 * answered from the client's cache later), so that round trip overlaps whatever the front end does next:
 * loading the rest of the program, selecting packages. A failure is not reported here: `take()` rethrows it
 * where the front end would have connected. `drop()` closes a connection nobody took (a usage error, a run
 * with nothing to do), so the process can exit.
 */
export function connectAhead(connecting: Promise<Connection>): EarlyConnection {
  connecting.then((c) => c.client.resolve(ResourceGroupApiVersion, ResourceGroupKind)).catch(() => {});
  let taken = false;
  return {
    take: () => {
      taken = true;
      return connecting;
    },
    drop: () => {
      if (!taken)
        connecting.then(
          (c) => c.client.close(),
          () => {},
        );
    },
  };
}
