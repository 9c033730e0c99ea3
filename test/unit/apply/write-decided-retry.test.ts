import { describe, expect, it } from 'vitest';
import { WriteAttempts } from '../../../src/apply/ownership-write.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import type { ObjectRef } from '../../../src/kube/cluster-client.js';
import type { RequestMatch } from '../../support/fake-cluster/index.js';
import { actionsOf, decisionsOf, ns, type Walk, walkOnFake } from '../../support/fake-walk.js';
import { deployment } from '../../support/harness/builders.js';

/**
 * A write carried out as decided (ownership-write.ts): the managedFields move (a JSON patch testing the
 * resourceVersion the decision was made on), then the apply pinned to that resourceVersion. When the
 * object changes in between, the write answers 409 (or the patch's test 422): it is read again and decided
 * again, without a second dry-run when only its status moved (a controller's write), with one when a field
 * moved, up to WriteAttempts times. A row: the state, who writes in between (a fault that runs another
 * writer first), and what the run did.
 */
const webRef: ObjectRef = {
  apiVersion: 'apps/v1',
  group: 'apps',
  kind: 'Deployment',
  namespace: ns,
  name: 'web',
};
const web = (image: string, o: Parameters<typeof deployment>[1] = {}) =>
  deployment('web', { namespace: ns, image, ...o });
const imageOf = (o: KubeObject | undefined) =>
  (o!.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image;

/** A hand edit of the image (kubectl set image): the apply takes it back, pinned. */
const handEdited = async (w: Walk) => {
  expect((await w.apply([web('example/app:1')])).run.outcome).toBe('success');
  await setImage(w, 'example/app:hotfix');
};
const setImage = (w: Walk, image: string) =>
  w.client.jsonPatch(
    webRef,
    [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
    {
      fieldManager: 'kubectl-set',
    },
  );
/** A Helm release adopted: its fields move to us first (the managedFields patch), then the apply. */
const helmRelease = async (w: Walk) => {
  w.fake.seed([
    web('example/app:1', { annotations: { 'meta.helm.sh/release-name': 'rel' } }),
    { manager: 'helm' },
  ]);
};
/** A controller's status write (the readyWorkloads reconciler then writes its own again). */
const statusWrite = (w: Walk) => () => w.fake.setStatus(webRef, { observedGeneration: 0, replicas: 0 });

interface RetryRow {
  rule: string;
  setup: (w: Walk) => Promise<unknown>;
  package: KubeObject;
  options?: { inventoryPolicy: 'adopt' };
  /** The write the other writer races, and what it does first (`times` in a row). */
  race: { match: RequestMatch; run: (w: Walk) => () => unknown; times: number };
  /** The outcome of the Deployment, its image after, and the requests of the run for it. */
  action: string;
  message?: RegExp;
  image: string;
  dryRuns: number;
  /** The HTTP status of each of the run's writes of it, in order. */
  writes: number[];
}

const pinnedApply: RequestMatch = { op: 'apply', name: 'web', dryRun: false };
const fieldsPatch: RequestMatch = { op: 'jsonPatch', name: 'web', dryRun: false };

const rows: RetryRow[] = [
  {
    rule: 'a status write in between: 409 once, decided again without a dry-run, then written',
    setup: handEdited,
    package: web('example/app:1'),
    race: { match: pinnedApply, run: statusWrite, times: 1 },
    action: 'configured',
    image: 'example/app:1',
    dryRuns: 1,
    writes: [409, 200],
  },
  {
    rule: 'the field decided on changed in between: decided again with a dry-run, then written',
    setup: handEdited,
    package: web('example/app:1'),
    race: { match: pinnedApply, run: (w) => () => setImage(w, 'example/app:second-hotfix'), times: 1 },
    action: 'configured',
    image: 'example/app:1',
    dryRuns: 2,
    writes: [409, 200],
  },
  {
    rule: "a status write before the managedFields move: the patch's test fails (422), decided again, written",
    setup: helmRelease,
    package: web('example/app:1'),
    options: { inventoryPolicy: 'adopt' },
    race: { match: fieldsPatch, run: statusWrite, times: 1 },
    action: 'configured',
    image: 'example/app:1',
    dryRuns: 1,
    // the managedFields patch twice, then the apply
    writes: [422, 200, 200],
  },
  {
    rule: `a status write before each of ${WriteAttempts} attempts: the object fails, saying so`,
    setup: handEdited,
    package: web('example/app:1'),
    race: { match: pinnedApply, run: statusWrite, times: Number.POSITIVE_INFINITY },
    action: 'failed',
    message:
      /Deployment web changed under each of 5 attempts to write it as decided \(another writer updates it all the time\): apply again/,
    image: 'example/app:hotfix',
    dryRuns: 1,
    writes: Array(WriteAttempts).fill(409),
  },
];

describe('a write decided again when the object changed under it', () => {
  it.each(rows)('$rule', async (row) => {
    const w = await walkOnFake();
    await row.setup(w);
    const mark = w.fake.log.mark();
    w.fake.faults.add(row.race.match, { type: 'before', run: row.race.run(w) }, row.race.times);
    const { run } = await w.apply([row.package], { options: row.options });
    expect(actionsOf(run), run.error).toEqual({ 'Deployment/web': row.action });
    const o = run.objects.find((x) => x.id.name === 'web')!;
    if (row.message) expect(o.message).toMatch(row.message);
    expect(imageOf(w.fake.object(webRef))).toBe(row.image);
    // the run's own requests (the racing hand edit writes as kubectl-set)
    const ofWeb = w.fake.log
      .since(mark)
      .filter((r) => r.name === 'web' && r.kind === 'Deployment' && r.fieldManager !== 'kubectl-set');
    expect(ofWeb.filter((r) => r.op === 'apply' && r.dryRun).length).toBe(row.dryRuns);
    expect(ofWeb.filter((r) => r.mutating && !r.dryRun).map((r) => r.status)).toEqual(row.writes);
    if (row.action === 'configured') {
      // the decision recorded is the one carried out: the hand edit or the release, on the fresh object
      const d = decisionsOf(run)['Deployment/web'];
      expect(d.action).toBe('configure');
      expect(d.ownership?.fields.length).toBeGreaterThan(0);
      // and what is left is in sync with the package
      const again = await w.apply([row.package], { dryRun: true, options: row.options });
      expect(actionsOf(again.run)).toEqual({ 'Deployment/web': 'unchanged' });
    }
  });
});
