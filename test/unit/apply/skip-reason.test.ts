import { describe, expect, it } from 'vitest';
import { isHousekeeping } from '../../../src/apply/inventory-namespace.js';
import { isBlockedOutcome, type ObjectOutcome, runFailed } from '../../../src/apply/run-result.js';
import {
  blockedExplanation,
  isBlockingSkip,
  type SkipReason,
  skipFix,
  skipMessage,
} from '../../../src/apply/skip-reason.js';
import type { ObjectId } from '../../../src/common/object-id.js';
import { applyBlockedBy, preventsDeletion, pruneBlockedBy } from '../../../src/inventory/ownership.js';
import { previewOfSkip } from '../../../src/preview/preview-object.js';

const ns: ObjectId = { group: '', kind: 'Namespace', namespace: '', name: 'team' };
const cm: ObjectId = { group: '', kind: 'ConfigMap', namespace: 'team', name: 'app' };
const owned = (owner?: string): { metadata: { name: string; annotations: Record<string, string> } } => ({
  metadata: { name: 'x', annotations: owner ? { 'config.k8s.io/owning-inventory': owner } : {} },
});

const byOther: SkipReason = {
  type: 'inventory-policy',
  strategy: 'Apply',
  match: 'NoMatch',
  policy: 'strict',
  owner: { id: 'other-id', resourceGroup: { namespace: 'team', name: 'inventory-other' } },
};
const unowned: SkipReason = { type: 'inventory-policy', strategy: 'Apply', match: 'Empty', policy: 'strict' };
const dependency: SkipReason = { type: 'dependency', dependency: ns, cause: 'apply actuation skipped' };

describe('inventory policy (cli-utils filters)', () => {
  it('apply: strict takes only absent or own objects; adopt also unowned; force-adopt anything', () => {
    expect(applyBlockedBy(undefined, 'me', 'strict')).toBeUndefined();
    expect(applyBlockedBy(owned('me'), 'me', 'strict')).toBeUndefined();
    expect(applyBlockedBy(owned(), 'me', 'strict')).toEqual({ match: 'Empty' });
    expect(applyBlockedBy(owned(), 'me', 'adopt')).toBeUndefined();
    expect(applyBlockedBy(owned('other'), 'me', 'adopt')).toEqual({ match: 'NoMatch', owner: 'other' });
    expect(applyBlockedBy(owned('other'), 'me', 'force-adopt')).toBeUndefined();
  });

  it('prune: strict deletes only its own; adopt also unowned', () => {
    expect(pruneBlockedBy(owned('me'), 'me', 'strict')).toBeUndefined();
    expect(pruneBlockedBy(owned(), 'me', 'strict')).toEqual({ match: 'Empty' });
    expect(pruneBlockedBy(owned(), 'me', 'adopt')).toBeUndefined();
    expect(pruneBlockedBy(owned('other'), 'me', 'adopt')).toEqual({ match: 'NoMatch', owner: 'other' });
  });

  it('names the annotation that keeps an object', () => {
    const keep = { metadata: { name: 'x', annotations: { 'kapp.k14s.io/delete-strategy': 'orphan' } } };
    expect(preventsDeletion(keep)).toEqual({ key: 'kapp.k14s.io/delete-strategy', value: 'orphan' });
    expect(preventsDeletion(owned('me'))).toBeUndefined();
  });
});

describe('skip reasons', () => {
  it("keeps kpt's message and adds who owns the object", () => {
    expect(skipMessage(byOther)).toBe(
      'inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): owned by another inventory: inventory other-id (ResourceGroup team/inventory-other)',
    );
    expect(skipMessage(unowned)).toBe(
      'inventory policy prevented actuation (strategy: Apply, status: Empty, policy: MustMatch): not owned by any inventory',
    );
    expect(skipMessage(dependency)).toBe('dependency apply actuation skipped: _team__Namespace');
    expect(skipMessage({ type: 'annotation', key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' })).toBe(
      'annotation prevents deletion ("cli-utils.sigs.k8s.io/on-remove": "keep")',
    );
  });

  it('only skips the user did not choose block a run', () => {
    expect(isBlockingSkip(byOther)).toBe(true);
    expect(isBlockingSkip(unowned)).toBe(true);
    expect(isBlockingSkip(dependency)).toBe(true);
    expect(isBlockingSkip({ type: 'dependent', dependent: cm, cause: 'delete actuation failed' })).toBe(true);
    expect(isBlockingSkip({ type: 'annotation', key: 'k', value: 'keep' })).toBe(false);
    expect(isBlockingSkip({ type: 'in-use', message: 'namespace still in use: team' })).toBe(false);
    expect(isBlockingSkip({ type: 'just-applied', uid: 'u' })).toBe(false);
    expect(isBlockingSkip({ type: 'cancelled' })).toBe(false);
    expect(isBlockingSkip(undefined)).toBe(false);
  });

  it('says what to do: adopt for unowned objects, destroy the owner or force-adopt for owned ones', () => {
    expect(skipFix(unowned)).toMatch(/inventory-policy: adopt/);
    expect(skipFix(byOther)).toBe(
      'destroy the package that owns it (ResourceGroup team/inventory-other), or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)',
    );
    expect(skipFix({ ...byOther, owner: { id: 'other-id' } })).toMatch(/inventory other-id/);
    expect(skipFix(dependency)).toBe('fix Namespace/team first (it is listed too)');
    expect(skipFix({ type: 'in-use', message: 'm' })).toBeUndefined();
    expect(blockedExplanation(unowned)).toMatch(
      /not owned by any inventory\. Fix: set inventory-policy: adopt/,
    );
  });
});

describe('run outcome', () => {
  const skipped = (skip?: SkipReason): ObjectOutcome => ({
    id: cm,
    action: 'skipped',
    ...(skip ? { skip } : {}),
  });

  it('a blocked object fails the run unless allow-skipped; a chosen skip never does', () => {
    expect(isBlockedOutcome(skipped(byOther))).toBe(true);
    expect(runFailed([skipped(byOther)], false)).toBe(true);
    expect(runFailed([skipped(byOther)], true)).toBe(false);
    expect(runFailed([skipped({ type: 'in-use', message: 'm' })], false)).toBe(false);
    // kapp update-strategy skip: a successful apply that changed nothing
    expect(runFailed([{ id: cm, action: 'skipped' }], false)).toBe(false);
    expect(
      runFailed([{ id: cm, action: 'abandoned', skip: { type: 'annotation', key: 'k', value: 'v' } }], false),
    ).toBe(false);
    // a failure still fails with allow-skipped
    expect(runFailed([{ id: cm, action: 'created', reconcile: 'Timeout' }], true)).toBe(true);
  });
});

describe('previewOfSkip', () => {
  it('shows a blocked object as an error with the owner and the fix', () => {
    expect(previewOfSkip(byOther, { allowSkipped: false })).toEqual({
      action: 'error',
      reason: skipMessage(byOther),
      blocked: {
        cause: 'inventory-policy',
        owner: { id: 'other-id', resourceGroup: { namespace: 'team', name: 'inventory-other' } },
        fix: skipFix(byOther),
      },
    });
    expect(previewOfSkip(dependency, { allowSkipped: false })).toMatchObject({
      action: 'error',
      blocked: { cause: 'dependency' },
    });
  });

  it('keeps `skip` for chosen skips and under allow-skipped, `orphan` for abandoned objects', () => {
    expect(previewOfSkip(byOther, { allowSkipped: true })).toEqual({
      action: 'skip',
      reason: skipMessage(byOther),
    });
    const inUse: SkipReason = { type: 'in-use', message: 'namespace still in use: team' };
    expect(previewOfSkip(inUse, { allowSkipped: false })).toEqual({ action: 'skip', reason: inUse.message });
    const keep: SkipReason = { type: 'annotation', key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' };
    expect(previewOfSkip(keep, { allowSkipped: false, abandon: true }).action).toBe('orphan');
  });
});

describe('isHousekeeping: what destroy may leave behind in the Namespace it deletes', () => {
  const inv = { name: 'inventory-web', namespace: 'team', id: 'web-id' };
  const o = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'X',
    metadata: { name, ...extra },
  });
  it.each<[string, string, ReturnType<typeof o>, boolean]>([
    ['', 'ConfigMap', o('kube-root-ca.crt'), true],
    ['', 'ServiceAccount', o('default'), true],
    [
      '',
      'Secret',
      o('default-token-abcde', { annotations: { 'kubernetes.io/service-account.name': 'default' } }),
      true,
    ],
    ['', 'Event', o('web.1234'), true],
    ['events.k8s.io', 'Event', o('web.1234'), true],
    ['coordination.k8s.io', 'Lease', o('kpt-live-action.inventory-web'), true],
    [
      '',
      'ConfigMap',
      o('inventory-web-change-x', { labels: { 'kpt-live-action.dev/history-of': 'inventory-web' } }),
      true,
    ],
    ['kpt.dev', 'ResourceGroup', o('inventory-web'), true],
    // anything else is somebody's: the Namespace stays
    ['', 'ConfigMap', o('foreign'), false],
    ['', 'ServiceAccount', o('builder'), false],
    ['', 'ConfigMap', o('other-change-x', { labels: { 'kpt-live-action.dev/history-of': 'other' } }), false],
    ['coordination.k8s.io', 'Lease', o('kpt-live-action.other'), false],
    ['kpt.dev', 'ResourceGroup', o('inventory-other'), false],
  ])('%s %s %j: %s', (group, kind, obj, want) => {
    expect(isHousekeeping(group, kind, obj, inv)).toBe(want);
  });
});
