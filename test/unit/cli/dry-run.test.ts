import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import { previewEvents, splitPreview } from '../../../src/cli/dry-run.js';
import { eventPrinter } from '../../../src/cli/output.js';
import type { ObjectId } from '../../../src/common/object-id.js';
import { emptySummary, type PreviewDocument, type PreviewObject } from '../../../src/preview/types.js';

const goldenDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../golden/kpt');
const golden = (file: string) => readFileSync(path.join(goldenDir, file), 'utf8');

const NS = 'NAMESPACE';
const cm = (name: string): ObjectId => ({ group: '', kind: 'ConfigMap', namespace: NS, name });
const svc: ObjectId = { group: '', kind: 'Service', namespace: NS, name: 'web' };
const deploy: ObjectId = { group: 'apps', kind: 'Deployment', namespace: NS, name: 'web' };

function doc(objects: PreviewObject[], waves: string[][]): PreviewDocument {
  const summary = emptySummary();
  for (const o of objects) summary[o.action]++;
  return {
    package: 'basic',
    summary,
    objects,
    waves,
    edges: [],
    context: { fieldManager: 'kpt-live-action' },
  };
}

const obj = (id: ObjectId, action: PreviewObject['action'], wave = 1, reason?: string): PreviewObject => ({
  id,
  apiVersion: id.group ? `${id.group}/v1` : 'v1',
  action,
  wave,
  ...(reason ? { reason } : {}),
});

/** The events as the CLI prints them, without the `Dry-run strategy` line it prints first. */
function print(events: RunEvent[], format: 'events' | 'json'): string {
  let out = '';
  const p = eventPrinter(format, (t) => (out += t), { now: () => new Date('2000-01-01T00:00:00Z') });
  for (const e of events) p.event(e);
  p.finish();
  return out;
}

describe('apply --dry-run events', () => {
  const create = doc(
    [obj(cm('config-map-1'), 'create'), obj(svc, 'create'), obj(deploy, 'create')],
    [['ConfigMap/config-map-1', 'Service/web', 'Deployment/web']],
  );
  const prune = doc(
    [
      obj(cm('config-map-2'), 'create'),
      obj(svc, 'unchanged'),
      obj(deploy, 'unchanged'),
      obj(cm('config-map-1'), 'prune'),
    ],
    [['ConfigMap/config-map-2', 'Service/web', 'Deployment/web']],
  );

  it.each([
    ['a new package', create, 'apply-dry-create'],
    ['a package that prunes', prune, 'apply-dry-prune'],
  ])("print %s as kpt's dry-run does (events)", (_what, d, name) => {
    expect(`Dry-run strategy: server\n${print(previewEvents(d), 'events')}`).toBe(
      golden(`${name}.events.txt`),
    );
  });

  it.each([
    ['a new package', create, 'apply-dry-create'],
    ['a package that prunes', prune, 'apply-dry-prune'],
  ])("print %s as kpt's dry-run does (json)", (_what, d, name) => {
    expect(print(previewEvents(d), 'json')).toBe(golden(`${name}.jsonl`));
  });

  it('turns skips, errors and orphans into skipped/failed events with their reasons, one group per wave', () => {
    const ns: ObjectId = { group: '', kind: 'Namespace', namespace: '', name: 'team' };
    const d = doc(
      [
        obj(ns, 'create', 1),
        obj(
          cm('taken'),
          'skip',
          2,
          'inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch)',
        ),
        obj(deploy, 'error', 2, 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1'),
        obj(cm('kept'), 'orphan', 1, 'annotation prevents deletion'),
        obj(cm('old'), 'prune', 1),
      ],
      [['Namespace/team'], ['ConfigMap/taken', 'Deployment/web']],
    );
    expect(print(previewEvents(d), 'events')).toBe(
      [
        'inventory update started',
        'inventory update finished',
        'apply phase started',
        'namespace/team apply successful',
        'apply phase finished',
        'apply phase started',
        'configmap/taken apply skipped: inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch)',
        'deployment.apps/web apply failed: Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1',
        'apply phase finished',
        'prune phase started',
        'configmap/kept prune skipped: annotation prevents deletion',
        'configmap/old prune successful',
        'prune phase finished',
        'inventory update started',
        'inventory update finished',
        'apply result: 3 attempted, 1 successful, 1 skipped, 1 failed',
        'prune result: 2 attempted, 1 successful, 1 skipped, 0 failed',
        '',
      ].join('\n'),
    );
  });

  it('splits apply from prune objects by the apply waves, or by action when they do not add up', () => {
    const d = doc([obj(cm('a'), 'skip'), obj(cm('b'), 'skip')], [['ConfigMap/a']]);
    expect(splitPreview(d)).toEqual({ apply: [d.objects[0]], prune: [d.objects[1]] });
    const odd = doc(
      [obj(cm('a'), 'create'), obj(cm('b'), 'prune')],
      [['ConfigMap/a', 'ConfigMap/x', 'ConfigMap/y']],
    );
    expect(splitPreview(odd)).toEqual({ apply: [odd.objects[0]], prune: [odd.objects[1]] });
  });
});
