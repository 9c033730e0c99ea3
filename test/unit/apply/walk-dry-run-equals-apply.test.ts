import { describe, expect, it } from 'vitest';
import { Annotations } from '../../../src/common/constants.js';
import {
  applied,
  checkDryRunThenApply,
  cm,
  cmRef,
  runsOf,
  type StateRow,
  web,
} from '../../support/dry-run-vs-apply.js';
import { inventory, ns } from '../../support/fake-walk.js';
import { service } from '../../support/harness/builders.js';

/**
 * For each state a cluster may be in, the dry run (the preview) decides what the real apply then does, and
 * the dry run after it finds nothing left to do where the state allows (test/support/dry-run-vs-apply.ts
 * says what each row checks). These rows are about what the cluster holds; walk-ownership-equals-apply has
 * the rows about who holds the fields.
 */
const owned = { [Annotations.OwningInventory]: inventory.id };
const dependsOnBase = { dependsOn: `/namespaces/${ns}/ConfigMap/base` };

const rows: StateRow[] = [
  {
    state: 'fresh: nothing in the cluster',
    package: () => [cm('a', { x: '1' }), web(), service('web', { namespace: ns })],
    decided: { 'ConfigMap/a': 'create', 'Deployment/web': 'create', 'Service/web': 'create' },
  },
  {
    state: 'unchanged: our last apply is in place',
    package: () => [cm('a', { x: '1' }), web()],
    setup: applied(() => [cm('a', { x: '1' }), web()]),
    decided: { 'ConfigMap/a': 'unchanged', 'Deployment/web': 'unchanged' },
  },
  {
    state: 'an object no inventory owns, under the strict inventory policy',
    package: () => [cm('a', { x: '1' })],
    setup: async (w) => w.fake.seed(cm('a', { x: '1' })),
    decided: { 'ConfigMap/a': 'skip' },
    again: { 'ConfigMap/a': 'skip' },
  },
  {
    state: 'always-replace: deleted and created again on every apply',
    package: () => [
      cm('a', { x: '1' }, { annotations: { 'kapp.k14s.io/update-strategy': 'always-replace' } }),
    ],
    setup: applied(() => [
      cm('a', { x: '1' }, { annotations: { 'kapp.k14s.io/update-strategy': 'always-replace' } }),
    ]),
    decided: { 'ConfigMap/a': 'replace' },
    again: { 'ConfigMap/a': 'replace' },
  },
  {
    state: 'fallback-on-replace: an immutable field (a Deployment selector) changed',
    package: () => [
      web('example/app:1', {
        app: 'web2',
        annotations: { 'kapp.k14s.io/update-strategy': 'fallback-on-replace' },
      }),
    ],
    setup: applied(() => [web('example/app:1')]),
    decided: { 'Deployment/web': 'replace' },
  },
  {
    state: 'update-strategy skip: an existing object is left as it is',
    package: () => [cm('a', { x: '2' }, { annotations: { 'kapp.k14s.io/update-strategy': 'skip' } })],
    setup: applied(() => [cm('a', { x: '1' })]),
    decided: { 'ConfigMap/a': 'skip' },
    again: { 'ConfigMap/a': 'skip' },
    check: (w) => expect(w.fake.object(cmRef('a'))!.data).toEqual({ x: '1' }),
  },
  {
    state: 'an object being deleted (held by a finalizer)',
    package: () => [cm('a', { x: '1' }), cm('b', { x: '1' })],
    setup: async (w) =>
      w.fake.seed({
        ...cm('a', { x: '1' }, { annotations: owned, finalizers: ['example.com/hold'] }),
        metadata: {
          ...cm('a', { x: '1' }, { annotations: owned, finalizers: ['example.com/hold'] }).metadata,
          deletionTimestamp: '2024-01-01T00:00:00Z',
        },
      }),
    decided: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'create' },
    refused: true,
    again: { 'ConfigMap/a': 'error', 'ConfigMap/b': 'create' },
  },
  {
    state: 'a dependency another inventory owns: it and what depends on it are skipped',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) =>
      w.fake.seed(cm('base', { x: '1' }, { annotations: { [Annotations.OwningInventory]: 'other-inv' } })),
    decided: { 'ConfigMap/base': 'skip', 'ConfigMap/app': 'skip' },
    again: { 'ConfigMap/base': 'skip', 'ConfigMap/app': 'skip' },
  },
  {
    state: 'a dependency the server rejects: the pre-flight refuses',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) => w.fake.faults.fail({ op: 'apply', name: 'base' }, 422),
    decided: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
    refused: true,
    again: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
  },
  {
    state:
      'a dependency the server rejects, preflight off: it fails at its write, what depends on it is skipped',
    package: () => [cm('base', { x: '1' }), cm('app', { x: '1' }, dependsOnBase)],
    setup: async (w) => w.fake.faults.fail({ op: 'apply', name: 'base' }, 422),
    options: { preflight: 'off' },
    decided: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
    again: { 'ConfigMap/base': 'error', 'ConfigMap/app': 'skip' },
  },
];

describe('the dry run decides what the apply then does', () => {
  it.each(runsOf(rows))('$state (preflight: $preflight)', checkDryRunThenApply);
});
