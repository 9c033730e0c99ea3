import { describe, expect, it } from 'vitest';
import type { ObjectId } from '../../../src/common/object-id.js';
import { classifyDrift, previewErrors, type StatusVerdict } from '../../../src/drift/classify-drift.js';
import { emptySummary, type PreviewDocument, type PreviewObject } from '../../../src/preview/types.js';

const id = (kind: string, name: string, group = ''): ObjectId => ({ group, kind, namespace: 'app', name });
const cm = id('ConfigMap', 'settings');
const web = id('Deployment', 'web', 'apps');
const svc = id('Service', 'web');
const old = id('ConfigMap', 'old');

function doc(objects: Omit<PreviewObject, 'apiVersion'>[]): PreviewDocument {
  const summary = emptySummary();
  for (const o of objects) summary[o.action]++;
  return {
    package: 'deploy/app',
    summary,
    objects: objects.map((o) => ({ apiVersion: 'v1', ...o })),
    waves: [],
    edges: [],
    context: { fieldManager: 'kpt-live-action' },
  };
}

const current = (i: ObjectId): StatusVerdict => ({ id: i, status: 'Current', message: 'ok' });

describe('classifyDrift', () => {
  it('reports configure (with the changes), create, prune and status, nothing for unchanged healthy objects', () => {
    const change = { path: 'data.greeting', op: 'change' as const, before: 'edited', after: 'hello' };
    const preview = doc([
      { id: cm, action: 'configure', changes: [change] },
      { id: svc, action: 'create' },
      { id: web, action: 'unchanged' },
      { id: id('ConfigMap', 'fine'), action: 'unchanged' },
      { id: old, action: 'prune', reason: 'no longer in the package' },
    ]);
    const statuses: StatusVerdict[] = [
      current(cm),
      { id: svc, status: 'NotFound', message: 'Resource not found' },
      { id: web, status: 'InProgress', message: 'not Current after 5s: Available: 0/1' },
      current(id('ConfigMap', 'fine')),
      current(old),
    ];
    expect(classifyDrift(preview, statuses)).toEqual([
      { id: cm, drift: 'configure', changes: [change] },
      { id: svc, drift: 'create' },
      { id: web, drift: 'status', status: 'InProgress', message: 'not Current after 5s: Available: 0/1' },
      { id: old, drift: 'prune', message: 'no longer in the package' },
    ]);
  });

  it('an object in sync and Current everywhere is no drift', () => {
    const preview = doc([
      { id: cm, action: 'unchanged' },
      { id: web, action: 'unchanged' },
    ]);
    expect(classifyDrift(preview, [current(cm), current(web)])).toEqual([]);
  });

  it('a Failed object is drift even though its spec matches', () => {
    const preview = doc([{ id: web, action: 'unchanged' }]);
    expect(
      classifyDrift(preview, [{ id: web, status: 'Failed', message: 'Progress deadline exceeded' }]),
    ).toEqual([{ id: web, drift: 'status', status: 'Failed', message: 'Progress deadline exceeded' }]);
  });

  it('a changed object that is also unhealthy is listed once, as configure, with its status', () => {
    const change = { path: 'spec.replicas', op: 'change' as const, before: '3', after: '1' };
    const preview = doc([{ id: web, action: 'configure', changes: [change] }]);
    expect(classifyDrift(preview, [{ id: web, status: 'InProgress', message: 'Available: 1/3' }])).toEqual([
      { id: web, drift: 'configure', changes: [change], status: 'InProgress', message: 'Available: 1/3' },
    ]);
  });

  it('is not drift: ownership-only configure, always-replace, skips, orphans, entries already gone', () => {
    const preview = doc([
      { id: cm, action: 'configure', reason: 'field ownership moves to kpt-live-action; no values change' },
      {
        id: svc,
        action: 'replace',
        reason: 'kapp.k14s.io/update-strategy: always-replace (deleted and created again)',
      },
      {
        id: web,
        action: 'skip',
        reason: 'kapp.k14s.io/update-strategy: skip (the live object is left as it is)',
      },
      { id: old, action: 'orphan', reason: 'cli-utils.sigs.k8s.io/on-remove: keep' },
    ]);
    const statuses: StatusVerdict[] = [
      current(cm),
      current(svc),
      current(web),
      { id: old, status: 'InProgress', message: 'orphans are not judged' },
      { id: id('ConfigMap', 'gone'), status: 'NotFound', message: 'Resource not found' },
    ];
    expect(classifyDrift(preview, statuses)).toEqual([]);
  });

  it('a replace forced by an immutable field is configure drift', () => {
    const preview = doc([{ id: svc, action: 'replace', reason: 'replace (immutable field spec.clusterIP)' }]);
    expect(classifyDrift(preview, [current(svc)])).toEqual([
      { id: svc, drift: 'configure', message: 'replace (immutable field spec.clusterIP)' },
    ]);
  });

  it('objects about to be pruned are not judged by health', () => {
    const preview = doc([{ id: old, action: 'prune' }]);
    expect(classifyDrift(preview, [{ id: old, status: 'Failed', message: 'x' }])).toEqual([
      { id: old, drift: 'prune' },
    ]);
  });

  it('previewErrors lists the objects the server refused to dry-run', () => {
    const preview = doc([
      { id: cm, action: 'unchanged' },
      { id: svc, action: 'error', reason: 'forbidden' },
    ]);
    expect(previewErrors(preview).map((o) => o.id)).toEqual([svc]);
  });
});
