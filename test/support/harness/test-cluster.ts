import { afterAll, beforeAll } from 'vitest';
import type { RestClient } from '../../../scripts/control-plane/rest.js';
import type { Connection } from '../../../src/kube/connect.js';
import { adminClient, createNamespace } from '../cluster.js';
import { productClient } from '../engine.js';

/**
 * One test file's (or describe block's) access to the shared control plane: the admin REST client, a
 * namespace of its own created before its tests and deleted after them (with any further namespace its
 * tests ask for), and, when asked, a connection of the product's own kube layer, closed after them.
 *
 *   const cluster = useCluster({ namespace: 'apply', connect: true });
 *   it('...', async () => { await applyObjects(cluster.conn, objects, newInventory(cluster.ns)); });
 *
 * The deletions are requested, not awaited to completion: the namespace controller finishes them while
 * the next files run.
 */
export interface TestCluster {
  /** The admin REST client (every permission), usable at once. */
  readonly api: RestClient;
  /** The namespace created for these tests (from their first hook on). */
  readonly ns: string;
  /** The product's connection (when `connect` was asked; from the first hook on). */
  readonly conn: Connection;
  /** One more namespace (`<prefix>-<random>`), deleted with the others after the tests. */
  namespace(prefix?: string): Promise<string>;
}

export interface UseClusterOptions {
  /** The namespace's name prefix; false: no namespace of its own. */
  namespace?: string | false;
  /** Connect the product's client (admin kubeconfig). */
  connect?: boolean;
}

export function useCluster(options: UseClusterOptions = {}): TestCluster {
  const api = adminClient();
  const created: string[] = [];
  let ns: string | undefined;
  let conn: Connection | undefined;

  const namespace = async (prefix = 'test') => {
    const name = await createNamespace(api, prefix);
    created.push(name);
    return name;
  };

  beforeAll(async () => {
    if (options.connect) conn = await productClient();
    if (options.namespace !== false) ns = await namespace(options.namespace ?? 'test');
  });
  afterAll(async () => {
    conn?.client.close();
    await Promise.all(created.map((name) => api.request('DELETE', `/api/v1/namespaces/${name}`)));
  });

  return {
    api,
    get ns() {
      if (ns === undefined)
        throw new Error('useCluster: the namespace exists from the first hook on (none was asked?)');
      return ns;
    },
    get conn() {
      if (!conn)
        throw new Error(
          'useCluster: no connection (ask for `connect: true`; it exists from the first hook on)',
        );
      return conn;
    },
    namespace,
  };
}
