import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type ConflictSettings,
  DefaultConflictSettings,
  objectConflictSettings,
} from '../../../src/common/conflict-settings.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { decideOwnership, handEditDrift } from '../../../src/inventory/field-owners.js';
import {
  type FieldConflict,
  fieldName,
  managedFieldsOf,
  ownedPaths,
} from '../../../src/inventory/managed-fields.js';
import type { OwnerContext } from '../../../src/inventory/owner-class.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const real = (name: string): KubeObject =>
  JSON.parse(fs.readFileSync(path.join(here, '../../fixtures/managed-fields', `${name}.json`), 'utf8'));

const FM = 'kpt-live-action';
const now = new Date('2026-11-26T15:00:00Z');
const ctx = (settings: Partial<ConflictSettings> = {}, adopting = false): OwnerContext => ({
  fieldManager: FM,
  adopting,
  settings: { ...DefaultConflictSettings, ...settings },
});

/** The 409 the server answered for the package over deployment-after-hand-edits (field-owners-facts.test.ts). */
const hand = (field: string, manager: string): FieldConflict => ({ field, manager, operation: 'Update' });
const handEditConflicts: FieldConflict[] = [
  { ...hand('.spec.replicas', 'kubectl'), subresource: 'scale' },
  hand('.metadata.annotations.note', 'kubectl-annotate'),
  hand('.spec.revisionHistoryLimit', 'kubectl-edit'),
  hand('.metadata.labels.team', 'kubectl-label'),
  hand('.spec.minReadySeconds', 'kubectl-patch'),
  hand('.spec.template.spec.containers[name="nginx"].image', 'kubectl-set'),
];
const handEdits = () => ({
  live: real('deployment-after-hand-edits'),
  answer: real('deployment-forced-answer'),
  conflicts: handEditConflicts,
  now,
});
const byOutcome = (d: ReturnType<typeof decideOwnership>, outcome: string) =>
  d.fields
    .filter((f) => f.outcome === outcome)
    .map((f) => `${f.field} ${f.manager}`)
    .sort();
const takenEdits = [
  '.metadata.annotations.note kubectl-annotate',
  '.metadata.labels.team kubectl-label',
  '.spec.minReadySeconds kubectl-patch',
  '.spec.revisionHistoryLimit kubectl-edit',
  '.spec.template.spec.containers[name="nginx"].image kubectl-set',
];

describe('decideOwnership over what kubectl left (real managedFields)', () => {
  it("take-hand-edits: kubectl's edits are taken over; kubectl scale's replicas (the scale subresource) stay a conflict, with the fix", () => {
    const d = decideOwnership({ ...handEdits(), context: ctx() });
    expect(byOutcome(d, 'take')).toEqual(takenEdits);
    expect(byOutcome(d, 'conflict')).toEqual(['.spec.replicas kubectl']);
    expect(d.force).toBe(false);
    expect(d.managedFields).toBeUndefined();
    expect(d.error).toBe(
      'conflict: 1 field of the package is owned by another field manager: .spec.replicas is owned by field manager "kubectl" through the scale subresource (an autoscaler or `kubectl scale`): remove the field from the package (the other manager keeps it); or take every field with conflicts: force (--conflicts force, or the annotation kpt-live-action.dev/conflicts: force)',
    );
    const image = d.fields.find((f) => f.manager === 'kubectl-set')!;
    expect(image).toMatchObject({
      class: 'hand-edit',
      path: ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image'],
      live: 'nginx:1.1',
      desired: 'nginx:1.0',
      sameValue: false,
      message: 'reverts an edit by kubectl-set',
    });
  });

  it('never touches a field the package does not set: the restart annotation, kubectl-create and the controller keep theirs', () => {
    for (const mode of ['take-hand-edits', 'force'] as const) {
      const d = decideOwnership({ ...handEdits(), context: ctx({ mode }) });
      const fields = d.fields.map((f) => f.field);
      expect(fields.some((f) => f.includes('restartedAt'))).toBe(false);
      expect(fields).not.toContain('.spec.progressDeadlineSeconds');
      expect(fields).not.toContain('.spec.strategy.type');
      expect(d.fields.map((f) => f.manager)).not.toContain('kube-controller-manager');
    }
  });

  it("force: everything is taken, kubectl-create's fields with the package's value are released, and the rewrite moves only those", () => {
    const d = decideOwnership({ ...handEdits(), context: ctx({ mode: 'force' }) });
    expect(byOutcome(d, 'take')).toEqual([...takenEdits, '.spec.replicas kubectl'].sort());
    expect(d.blocking).toEqual([]);
    expect(d.force).toBe(true);
    const released = d.fields.filter((f) => f.outcome === 'release');
    expect(new Set(released.map((f) => `${f.manager} ${f.class} ${f.sameValue}`))).toEqual(
      new Set(['kubectl-create hand-edit true']),
    );
    expect(released.map((f) => f.field)).toEqual(
      expect.arrayContaining([
        '.metadata.labels.app',
        '.spec.selector',
        '.spec.template.spec.containers[name="nginx"].name',
      ]),
    );
    const create = managedFieldsOf({ metadata: { name: 'x', managedFields: d.managedFields } }).find(
      (e) => e.manager === 'kubectl-create',
    )!;
    // kubectl-create keeps what the package does not set
    expect(ownedPaths(create.fieldsV1).map(fieldName).sort()).toEqual(
      expect.arrayContaining(['.spec.progressDeadlineSeconds', '.spec.strategy.type']),
    );
    expect(ownedPaths(create.fieldsV1).map(fieldName)).not.toContain('.metadata.labels.app');
    const ours = d.managedFields!.find((e) => e.manager === FM)!;
    expect(ours).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1', time: '2026-11-26T15:00:00Z' });
    expect(ownedPaths(ours.fieldsV1).map(fieldName)).toContain('.metadata.labels.app');
  });

  it('fail: every conflict fails, nothing is released, and the message offers take-hand-edits', () => {
    const d = decideOwnership({ ...handEdits(), context: ctx({ mode: 'fail' }) });
    expect(d.blocking).toHaveLength(6);
    expect(d.fields.filter((f) => f.outcome !== 'conflict')).toEqual([]);
    expect(d.force).toBe(false);
    expect(d.error).toContain(
      '.spec.minReadySeconds is owned by field manager "kubectl-patch" (an update): remove the field from the package (the other manager keeps it); or set conflicts: take-hand-edits (--conflicts take-hand-edits) to revert the edit',
    );
  });

  it.each([
    [
      'conflicts-keep moves a hand edit to the co-owners',
      { keep: ['kubectl-label'] },
      ['.metadata.labels.team kubectl-label', '.spec.replicas kubectl'],
    ],
    ['conflicts-take cannot take a subresource writer', { take: ['kubectl'] }, ['.spec.replicas kubectl']],
  ])('%s', (_, settings, conflicts) => {
    const d = decideOwnership({ ...handEdits(), context: ctx(settings) });
    expect(byOutcome(d, 'conflict')).toEqual(conflicts);
  });

  it('a kept manager is named in the conflict with the way to take it', () => {
    const d = decideOwnership({ ...handEdits(), context: ctx({ keep: ['kubectl-label'] }) });
    expect(d.error).toContain(
      '.metadata.labels.team is owned by field manager "kubectl-label" (an update): remove the field from the package (the other manager keeps it); or list "kubectl-label" in conflicts-take (--conflicts-take kubectl-label), or annotate the object kpt-live-action.dev/conflicts: take=kubectl-label',
    );
  });

  it("the object's annotation overrides the run's settings", () => {
    const live = handEdits().live;
    const settings = objectConflictSettings(DefaultConflictSettings, {
      'kpt-live-action.dev/conflicts': 'force',
    });
    const d = decideOwnership({ ...handEdits(), context: { fieldManager: FM, adopting: false, settings } });
    expect(d.blocking).toEqual([]);
    expect(live.metadata.name).toBe('web');
  });

  it('drift is the hand edits with another value: not the scale writer, not the released fields', () => {
    for (const mode of ['take-hand-edits', 'fail', 'force'] as const) {
      const d = decideOwnership({ ...handEdits(), context: ctx({ mode }) });
      expect(
        handEditDrift(d)
          .map((f) => `${f.field} ${f.manager}`)
          .sort(),
      ).toEqual(takenEdits);
    }
  });
});

describe('decideOwnership over a Helm release (real managedFields)', () => {
  const helm = (adopting: boolean) =>
    decideOwnership({
      live: real('helm-deployment'),
      answer: real('helm-deployment-answer'),
      conflicts: [],
      context: ctx({}, adopting),
      now,
    });

  it("adopting: helm's fields the package sets are released; its release annotations (not in the package) stay helm's", () => {
    const d = helm(true);
    expect(new Set(d.fields.map((f) => `${f.manager} ${f.class} ${f.outcome}`))).toEqual(
      new Set(['helm previous-owner release']),
    );
    expect(d.fields[0].message).toBe(
      'released by helm, its previous owner (the manager of Helm release shop)',
    );
    expect(d.force).toBe(false);
    const entries = d.managedFields!;
    const helmLeft = ownedPaths(entries.find((e) => e.manager === 'helm')!.fieldsV1)
      .map(fieldName)
      .sort();
    expect(helmLeft).toEqual(
      expect.arrayContaining([
        '.metadata.annotations.meta.helm.sh/release-name',
        '.metadata.annotations.meta.helm.sh/release-namespace',
        // what the server defaulted under helm's update, which the package does not set
        '.spec.progressDeadlineSeconds',
      ]),
    );
    const packageSets = ownedPaths(
      managedFieldsOf(real('helm-deployment-answer')).find((e) => e.manager === FM)!.fieldsV1,
    ).map(fieldName);
    expect(helmLeft.filter((f) => packageSets.includes(f))).toEqual([]);
    const ours = ownedPaths(entries.find((e) => e.manager === FM)!.fieldsV1).map(fieldName);
    expect(ours).toEqual(
      expect.arrayContaining(['.metadata.labels.app.kubernetes.io/version', '.spec.replicas']),
    );
    expect(entries.map((e) => e.manager).sort()).toEqual([
      'helm',
      'kpt-live-action',
      'kube-controller-manager',
    ]);
  });

  it('not adopting (the object is already ours): helm is a co-owner and nothing moves', () => {
    const d = helm(false);
    expect(d.fields).toEqual([]);
    expect(d.managedFields).toBeUndefined();
  });

  it('conflicts-keep: helm keeps its fields even on adoption; conflicts: fail releases nothing', () => {
    const keep = decideOwnership({
      live: real('helm-deployment'),
      answer: real('helm-deployment-answer'),
      conflicts: [],
      context: ctx({ keep: ['helm'] }, true),
    });
    expect(keep.fields).toEqual([]);
    const fail = decideOwnership({
      live: real('helm-deployment'),
      answer: real('helm-deployment-answer'),
      conflicts: [],
      context: ctx({ mode: 'fail' }, true),
    });
    expect(fail.fields).toEqual([]);
  });

  it('a different value held by the previous owner is released through the forced apply', () => {
    const d = decideOwnership({
      live: real('helm-deployment'),
      answer: real('helm-deployment-answer'),
      conflicts: [hand('.spec.replicas', 'helm')],
      context: ctx({}, true),
    });
    const replicas = d.fields.filter((f) => f.field === '.spec.replicas');
    expect(replicas).toMatchObject([{ outcome: 'release', sameValue: false, live: 2 }]);
    expect(d.force).toBe(true);
  });
});

describe('client-side apply (class ours)', () => {
  it("moves the whole kubectl-client-side-apply entry to our manager, exactly as apply's takeover does today", () => {
    const live = real('client-side-configmap');
    const d = decideOwnership({ live, conflicts: [], context: ctx(), now });
    expect(d.absorbed.map((m) => `${m.manager} ${m.class}`)).toEqual(['kubectl-client-side-apply ours']);
    expect(d.fields).toEqual([]);
    // kubectl's client-side to server-side upgrade: its entry goes, its fields are ours (an Apply entry)
    const csa = managedFieldsOf(live).find((e) => e.manager === 'kubectl-client-side-apply')!;
    expect(d.managedFields?.some((e) => e.manager === 'kubectl-client-side-apply')).toBe(false);
    const ours = d.managedFields?.find((e) => e.manager === FM);
    expect(ours).toMatchObject({ operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: csa.fieldsV1 });
  });

  it('a conflict with the absorbed manager is no field decision (the rewrite resolves it); the dry-run forces', () => {
    const live = real('client-side-configmap');
    const d = decideOwnership({
      live,
      conflicts: [hand('.data.a', 'kubectl-client-side-apply')],
      context: ctx(),
      now,
    });
    expect(d.fields).toEqual([]);
    expect(d.force).toBe(true);
  });
});
