import { describe, expect, it } from 'vitest';
import type { PreflightMode } from '../../../src/apply/run-options.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import type { RequestMatch } from '../../support/fake-cluster/index.js';
import { actionsOf, ns, type Walk, walkOnFake } from '../../support/fake-walk.js';
import { configMap, service } from '../../support/harness/builders.js';

/**
 * The pre-flight: a real apply walks first as a silent dry run, and an object that walk decides is an error
 * (the server rejects its dry-run, or does not answer) stops the run before its first write. Which objects
 * it asks about is `preflight`: `auto` every existing object and the first new object of each kind and
 * namespace of the first wave, `all` every object, `off` none (each object is judged by its own write, the
 * others are applied). A row: the mode, the state, the fault, and the refusal or the outcome per object.
 */
const cm = (name: string) => configMap(name, { x: '1' }, { namespace: ns });
const pkg = (): KubeObject[] => [cm('a'), cm('z'), service('svc', { namespace: ns })];

interface PreflightRow {
  rule: string;
  preflight: PreflightMode;
  /** Objects applied before (the state the run starts from). */
  existing?: KubeObject[];
  /** The requests the server answers with `status`: dry-runs only, or every apply of the object. */
  fault: { match: RequestMatch; status: number };
  /** The run stops before its first write with this error. */
  refused?: RegExp;
  /** Else what it did to each object. */
  actions?: Record<string, string>;
}

const dryRunOf = (name: string): RequestMatch => ({ op: 'apply', name, dryRun: true });
const everyApplyOf = (name: string): RequestMatch => ({ op: 'apply', name });

const rows: PreflightRow[] = [
  {
    rule: 'auto: a new object, the first of its kind, rejected',
    preflight: 'auto',
    fault: { match: dryRunOf('svc'), status: 422 },
    refused: /pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed:\n- Service\/svc: /,
  },
  {
    rule: 'auto: an existing object to configure, rejected',
    preflight: 'auto',
    existing: [configMap('z', { x: '0' }, { namespace: ns })],
    fault: { match: dryRunOf('z'), status: 422 },
    refused: /rejected 1 object\(s\); nothing was changed:\n- ConfigMap\/z: /,
  },
  {
    rule: 'auto: an existing object proven unchanged is not asked (so a fault on its dry-run is never met)',
    preflight: 'auto',
    existing: [cm('z')],
    fault: { match: dryRunOf('z'), status: 422 },
    actions: { 'ConfigMap/a': 'created', 'ConfigMap/z': 'unchanged', 'Service/svc': 'created' },
  },
  {
    rule: 'auto: the server does not answer (503)',
    preflight: 'auto',
    fault: { match: dryRunOf('svc'), status: 503 },
    refused:
      /could not complete for 1 object\(s\) \(the API server did not answer, after retries\); nothing was changed:\n- Service\/svc/,
  },
  {
    rule: 'auto: a new object not sampled is judged by its own write, after its valid siblings',
    preflight: 'auto',
    fault: { match: everyApplyOf('z'), status: 422 },
    actions: { 'ConfigMap/a': 'created', 'ConfigMap/z': 'failed', 'Service/svc': 'created' },
  },
  {
    rule: 'all: a new object auto would not sample, rejected',
    preflight: 'all',
    fault: { match: dryRunOf('z'), status: 422 },
    refused: /rejected 1 object\(s\); nothing was changed:\n- ConfigMap\/z: /,
  },
  {
    rule: 'off: nothing is dry-run; the rejected object fails at its write, the others are applied',
    preflight: 'off',
    fault: { match: everyApplyOf('svc'), status: 422 },
    actions: { 'ConfigMap/a': 'created', 'ConfigMap/z': 'created', 'Service/svc': 'failed' },
  },
];

const writesSince = (w: Walk, mark: number) => w.fake.log.since(mark).filter((r) => r.mutating && !r.dryRun);

describe('the pre-flight', () => {
  it.each(rows)('$rule', async (row) => {
    const w = await walkOnFake();
    if (row.existing)
      expect((await w.apply(row.existing, { options: { prune: false } })).run.outcome).toBe('success');
    w.fake.faults.fail(row.fault.match, row.fault.status);
    const mark = w.fake.log.mark();
    const { run } = await w.apply(pkg(), { options: { preflight: row.preflight } });
    if (row.refused) {
      expect(run.outcome).toBe('error');
      expect(run.error).toMatch(row.refused);
      expect(writesSince(w, mark)).toEqual([]);
      return;
    }
    expect(actionsOf(run), run.error).toEqual(row.actions);
    expect(run.outcome).toBe(Object.values(row.actions!).includes('failed') ? 'failed' : 'success');
    if (row.preflight === 'off') expect(w.fake.log.since(mark).filter((r) => r.dryRun)).toEqual([]);
  });
});
