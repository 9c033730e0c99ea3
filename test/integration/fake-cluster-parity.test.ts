import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../support/fake-cluster/index.js';
import { useCluster } from '../support/harness/index.js';
import { parityCases } from '../support/parity-cases.js';
import { outcomeOf } from '../support/parity-outcome.js';

/**
 * Holds the fake cluster (test/support/fake-cluster) to the real API server: each case runs against both,
 * through the same ClusterClient calls, and must end in the same outcome: the answer (status, reason,
 * message, causes), whether the object exists and its resourceVersion moved, the field managers left, and
 * for ConfigMaps (no server defaults) the managedFields entries whole and the data. Unit tests of the
 * engine trust the fake because of this test.
 */
describe('the fake cluster answers as the real API server', () => {
  const cluster = useCluster({ namespace: false, connect: true });

  it.each(parityCases.map((k) => [k.name, k] as const))('%s', async (_name, kase) => {
    const ns = await cluster.namespace('parity');
    const real = await outcomeOf(cluster.conn.client, ns, kase);
    await kase.cleanup?.(cluster.conn.client, ns);
    const fake = new FakeCluster({ namespaces: [ns] });
    const simulated = await outcomeOf(fake.client(), ns, kase);
    expect(simulated).toEqual(real);
  });
});
