import { describe, expect, it } from 'vitest';
import { ApplyRejection } from '../../../src/apply/apply-error.js';
import {
  type Decision,
  decideFromAnswer,
  decideLocally,
  type ObjectFacts,
  type ServerAnswer,
  unjudged,
  writeOutcome,
} from '../../../src/apply/decision.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { idOf, type ObjectId } from '../../../src/common/object-id.js';
import type { FieldDecision, OwnershipDecision } from '../../../src/inventory/field-owners.js';
import { KubeApiError } from '../../../src/kube/api-error.js';
import type { ResourceInfo } from '../../../src/kube/discovery.js';
import { configMap } from '../../support/harness/builders.js';

/**
 * The decision ladder, pure: facts about one object (and the server's answer to its dry-run) in, the
 * decision out. One row per rule; to add a rule, add a row. `facts()` is an object that exists, that the
 * server serves, with no strategy and nothing special: each row changes only what its rule is about.
 */
const ns = 'team';
const ours = 'kpt-live-action';
const cmInfo: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  namespaced: true,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  hasStatus: false,
};
const manifest = configMap('a', { x: '1' }, { namespace: ns });
const entry = (manager: string, operation: string, time: string) => ({
  manager,
  operation,
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:x': {} } },
});
const live: KubeObject = {
  ...manifest,
  metadata: {
    ...manifest.metadata,
    uid: 'uid-a',
    resourceVersion: '10',
    managedFields: [entry(ours, 'Apply', '2024-01-01T00:00:00Z')],
  },
};
const id = idOf(manifest);
const nsId: ObjectId = { group: '', kind: 'Namespace', namespace: '', name: ns };
const deployId: ObjectId = { group: 'apps', kind: 'Deployment', namespace: ns, name: 'web' };

function facts(over: Partial<ObjectFacts> = {}): ObjectFacts {
  return {
    id,
    manifest,
    live,
    info: cmInfo,
    crdInPackage: false,
    strategy: '',
    provenUnchanged: false,
    fieldManager: ours,
    ...over,
  };
}

/** The live object with another value and a later managedFields time (what a dry-run apply returns). */
const changed = (x: string, rv = '10'): KubeObject => ({
  ...live,
  metadata: {
    ...live.metadata,
    resourceVersion: rv,
    managedFields: [entry(ours, 'Apply', '2024-02-02T00:00:00Z')],
  },
  data: { x },
});
/** The live object as a no-op dry-run returns it: only managedFields times differ. */
const sameAsLive: KubeObject = changed('1');

const deleting = (finalizers?: string[]): KubeObject => ({
  ...live,
  metadata: {
    ...live.metadata,
    deletionTimestamp: '2024-03-03T00:00:00Z',
    ...(finalizers ? { finalizers } : {}),
  },
});

const field = (over: Partial<FieldDecision>): FieldDecision => ({
  manager: 'kubectl-patch',
  operation: 'Update',
  class: 'hand-edit',
  why: 'kubectl-patch is a hand edit (kubectl)',
  field: '.data.x',
  outcome: 'take',
  sameValue: false,
  message: 'reverts an edit by kubectl-patch',
  ...over,
});
const ownership = (over: Partial<OwnershipDecision>): OwnershipDecision => ({
  fields: [],
  blocking: [],
  absorbed: [],
  force: false,
  ...over,
});
const movedFields = [{ manager: ours, operation: 'Apply', apiVersion: 'v1', fieldsV1: { 'f:data': {} } }];

const apiError = (code: number, reason: string, message: string, causes: object[] = []) =>
  new KubeApiError(code, reason, message, causes);
const immutable = apiError(422, 'Invalid', 'ConfigMap "a" is invalid: data: Forbidden: field is immutable', [
  { type: 'FieldValueForbidden', field: 'data', message: 'Forbidden: field is immutable' },
]);
const conflict = apiError(409, 'Conflict', 'Apply failed with 1 conflict', [
  { type: 'FieldManagerConflict', field: '.data.x', message: 'conflict with "other-applier"' },
]);

interface LocalRow {
  rule: string;
  facts: ObjectFacts;
  /** undefined: only the server can tell. */
  want: Decision | undefined;
}

const localRows: LocalRow[] = [
  {
    rule: 'a new object, nothing known against it: ask the server',
    facts: facts({ live: undefined }),
    want: undefined,
  },
  { rule: 'an existing object not proven unchanged: ask the server', facts: facts(), want: undefined },
  {
    rule: 'a dependency failed: blocked skip',
    facts: facts({ skip: { type: 'dependency', dependency: deployId, cause: 'apply actuation failed' } }),
    want: {
      action: 'skip',
      reason: 'dependency apply actuation failed: team_web_apps_Deployment',
      blocked: true,
      skip: { type: 'dependency', dependency: deployId, cause: 'apply actuation failed' },
      validated: false,
    },
  },
  {
    rule: 'another inventory owns it: blocked skip (inventory policy)',
    facts: facts({
      skip: { type: 'inventory-policy', strategy: 'Apply', match: 'NoMatch', policy: 'strict' },
    }),
    want: {
      action: 'skip',
      reason:
        'inventory policy prevented actuation (strategy: Apply, status: NoMatch, policy: MustMatch): not owned by any inventory',
      blocked: true,
      skip: { type: 'inventory-policy', strategy: 'Apply', match: 'NoMatch', policy: 'strict' },
      validated: false,
    },
  },
  {
    rule: 'a skip comes before everything else (a missing prerequisite, an unknown kind)',
    facts: facts({
      skip: { type: 'dependency', dependency: nsId, cause: 'scheduled for delete' },
      prerequisite: nsId,
      info: undefined,
    }),
    want: {
      action: 'skip',
      reason: 'dependency scheduled for delete: _team__Namespace',
      blocked: true,
      skip: { type: 'dependency', dependency: nsId, cause: 'scheduled for delete' },
      validated: false,
    },
  },
  {
    rule: 'its Namespace comes with the package and does not exist yet: created, not validated',
    facts: facts({ live: undefined, prerequisite: nsId }),
    want: {
      action: 'create',
      validated: false,
      reason: 'not validated: depends on Namespace/team created by this package',
    },
  },
  {
    rule: 'an unknown kind and no CRD for it in the package: error',
    facts: facts({ live: undefined, info: undefined }),
    want: {
      action: 'error',
      validated: false,
      reason:
        'unknown kind ConfigMap (v1): the server does not serve it and no CRD in the package defines it',
    },
  },
  {
    rule: 'a kind not served yet whose CRD comes with the package: created, not validated',
    facts: facts({ live: undefined, info: undefined, crdInPackage: true }),
    want: { action: 'create', validated: false, reason: 'not validated: its CRD comes with this package' },
  },
  {
    rule: 'an invalid update-strategy annotation: error, with the annotation named',
    facts: facts({ strategy: new Error('invalid kapp.k14s.io/update-strategy "sometimes"') }),
    want: {
      action: 'error',
      validated: false,
      reason: 'invalid kapp.k14s.io/update-strategy "sometimes"',
      info: cmInfo,
    },
  },
  {
    rule: 'being deleted, waiting on finalizers: error naming them and the way out',
    facts: facts({ live: deleting(['example.com/hold', 'example.com/other']) }),
    want: {
      action: 'error',
      validated: true,
      reason:
        'being deleted since 2024-03-03T00:00:00Z (waiting on finalizers example.com/hold, example.com/other): an apply ' +
        'would not stop the deletion. Let the deletion finish (or remove the finalizers) and apply again',
      info: cmInfo,
    },
  },
  {
    rule: 'being deleted comes before the update strategy and a proven no-op',
    facts: facts({ live: deleting(), strategy: 'skip', provenUnchanged: true }),
    want: {
      action: 'error',
      validated: true,
      reason:
        'being deleted since 2024-03-03T00:00:00Z: an apply would not stop the deletion. Let the deletion finish ' +
        '(or remove the finalizers) and apply again',
      info: cmInfo,
    },
  },
  {
    rule: 'update-strategy skip on an existing object: skipped as it is (not blocked)',
    facts: facts({ strategy: 'skip' }),
    want: {
      action: 'skip',
      reason: 'kapp.k14s.io/update-strategy: skip (the live object is left as it is)',
      object: live,
      validated: true,
      info: cmInfo,
    },
  },
  {
    rule: 'update-strategy skip on a missing object: it is created (ask the server)',
    facts: facts({ live: undefined, strategy: 'skip' }),
    want: undefined,
  },
  {
    rule: 'always-replace on an existing object: replace, even when proven unchanged',
    facts: facts({ strategy: 'always-replace', provenUnchanged: true }),
    want: {
      action: 'replace',
      validated: false,
      reason: 'kapp.k14s.io/update-strategy: always-replace (deleted and created again)',
      info: cmInfo,
    },
  },
  {
    rule: 'always-replace on a missing object: it is created (ask the server)',
    facts: facts({ live: undefined, strategy: 'always-replace' }),
    want: undefined,
  },
  {
    rule: 'proven unchanged from its managed fields: unchanged, the live object as the answer',
    facts: facts({ provenUnchanged: true }),
    want: { action: 'unchanged', object: live, validated: true, info: cmInfo },
  },
];

describe('decideLocally: what is decided without asking the server', () => {
  it.each(localRows)('$rule', ({ facts: f, want }) => {
    expect(decideLocally(f)).toEqual(want);
  });
});

interface AnswerRow {
  rule: string;
  facts: ObjectFacts;
  answer: ServerAnswer;
  want: Decision;
}

const handEdit = ownership({ fields: [field({})], force: true });
const released = ownership({
  fields: [
    field({
      manager: 'helm',
      class: 'previous-owner',
      why: 'the manager of Helm release web',
      outcome: 'release',
      sameValue: true,
      message: 'released by helm, its previous owner (the manager of Helm release web)',
    }),
  ],
  managedFields: movedFields,
});
const refusal = 'conflict: 1 field of the package is owned by another field manager: .data.x is owned by ...';
const coOwned = ownership({
  fields: [
    field({ manager: 'other', operation: 'Apply', class: 'co-owner', outcome: 'conflict', message: '...' }),
  ],
  blocking: [
    field({ manager: 'other', operation: 'Apply', class: 'co-owner', outcome: 'conflict', message: '...' }),
  ],
  error: refusal,
});

const answerRows: AnswerRow[] = [
  {
    rule: 'a new object the server accepts: create, with its answer',
    facts: facts({ live: undefined }),
    answer: { object: changed('1', '') },
    want: { action: 'create', object: changed('1', ''), validated: true, info: cmInfo },
  },
  {
    rule: 'an answer that differs from the live object: configure',
    facts: facts(),
    answer: { object: changed('2') },
    want: { action: 'configure', object: changed('2'), validated: true, info: cmInfo },
  },
  {
    rule: 'an answer equal to the live object but for managedFields times: unchanged',
    facts: facts(),
    answer: { object: sameAsLive },
    want: { action: 'unchanged', object: sameAsLive, validated: true, info: cmInfo },
  },
  {
    rule: 'an ownership verdict with no field and no move is not recorded',
    facts: facts(),
    answer: { object: sameAsLive, ownership: ownership({}) },
    want: { action: 'unchanged', object: sameAsLive, validated: true, info: cmInfo },
  },
  {
    rule: 'a hand edit taken back: configure, with the ownership verdict',
    facts: facts(),
    answer: { object: changed('2'), ownership: handEdit },
    want: { action: 'configure', object: changed('2'), validated: true, info: cmInfo, ownership: handEdit },
  },
  {
    rule: 'an immutable field changed under fallback-on-replace: replace, naming the field',
    facts: facts({ strategy: 'fallback-on-replace' }),
    answer: { error: immutable },
    want: { action: 'replace', validated: true, reason: 'replace (immutable field data)', info: cmInfo },
  },
  {
    rule: 'an immutable field changed without fallback-on-replace: error with the fix',
    facts: facts(),
    answer: { error: immutable },
    want: {
      action: 'error',
      validated: true,
      reason:
        'ConfigMap "a" is invalid: data: Forbidden: field is immutable. An immutable field changed: set the ' +
        'annotation kapp.k14s.io/update-strategy: fallback-on-replace to delete and re-create the object',
      unanswered: false,
      info: cmInfo,
    },
  },
  {
    rule: 'fallback-on-replace does not replace what does not exist yet',
    facts: facts({ live: undefined, strategy: 'fallback-on-replace' }),
    answer: { error: immutable },
    want: expect.objectContaining({ action: 'error', validated: true }),
  },
  {
    rule: 'a conflict: error naming the field, its manager and the way out',
    facts: facts(),
    answer: { error: conflict },
    want: {
      action: 'error',
      validated: true,
      reason:
        'conflict: 1 field of the package is owned by another field manager: .data.x is owned by field manager ' +
        '"other-applier". Remove that field from the package (the other manager keeps it), or take it over with ' +
        'force-conflicts (--force-conflicts)',
      unanswered: false,
      info: cmInfo,
    },
  },
  {
    rule: "the ownership rule's refusal (a co-owner holds a field): error, the verdict kept",
    facts: facts(),
    answer: { error: new ApplyRejection(apiError(409, 'Conflict', refusal), refusal), ownership: coOwned },
    want: {
      action: 'error',
      validated: true,
      reason: refusal,
      unanswered: false,
      info: cmInfo,
      ownership: coOwned,
    },
  },
  {
    rule: 'a 5xx the retries did not get through: error, unanswered',
    facts: facts(),
    answer: {
      error: apiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'),
    },
    want: {
      action: 'error',
      validated: true,
      reason: 'the server is currently unable to handle the request',
      unanswered: true,
      info: cmInfo,
    },
  },
  {
    rule: 'a 500 for a manifest server-side apply cannot type is an answer',
    facts: facts(),
    answer: {
      error: apiError(500, 'InternalError', 'failed to create typed patch object: .spec: field not declared'),
    },
    want: expect.objectContaining({ action: 'error', unanswered: false }),
  },
  {
    rule: 'a dropped connection: error, unanswered',
    facts: facts(),
    answer: { error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) },
    want: { action: 'error', validated: true, reason: 'socket hang up', unanswered: true, info: cmInfo },
  },
  {
    rule: 'a forbidden answer is an answer',
    facts: facts(),
    answer: { error: apiError(403, 'Forbidden', 'configmaps "a" is forbidden') },
    want: expect.objectContaining({
      action: 'error',
      reason: 'configmaps "a" is forbidden',
      unanswered: false,
    }),
  },
  {
    rule: 'a client-side apply takeover: configure with its reason, even when no value changes',
    facts: facts({ takenOver: ['kubectl-client-side-apply'] }),
    answer: { object: sameAsLive },
    want: {
      action: 'configure',
      object: sameAsLive,
      validated: true,
      takenOver: ['kubectl-client-side-apply'],
      reason: 'field ownership moves from kubectl-client-side-apply (client-side apply) to kpt-live-action',
      info: cmInfo,
    },
  },
  {
    rule: "a previous owner's fields released, no value changing: configure (an ownership-only write)",
    facts: facts(),
    answer: { object: sameAsLive, ownership: released },
    want: {
      action: 'configure',
      object: sameAsLive,
      validated: true,
      reason: 'field ownership moves from helm to this package',
      info: cmInfo,
      ownership: released,
    },
  },
  {
    rule: 'a managedFields move with no released field named: the general reason',
    facts: facts(),
    answer: { object: sameAsLive, ownership: ownership({ managedFields: movedFields }) },
    want: expect.objectContaining({ action: 'configure', reason: 'field ownership moves to this package' }),
  },
];

describe('decideFromAnswer: the decision from the dry-run apply', () => {
  it.each(answerRows)('$rule', ({ facts: f, answer, want }) => {
    expect(decideFromAnswer(f, answer)).toEqual(want);
  });
});

describe('unjudged: an object the run does not ask about is judged by its own write', () => {
  it.each([
    {
      rule: 'an existing object: configure',
      facts: facts(),
      want: {
        action: 'configure',
        validated: false,
        reason: 'not dry-run: judged by its own write',
        info: cmInfo,
      },
    },
    {
      rule: 'a new object: create',
      facts: facts({ live: undefined }),
      want: {
        action: 'create',
        validated: false,
        reason: 'not dry-run: judged by its own write',
        info: cmInfo,
      },
    },
    {
      rule: 'a takeover is kept for the write',
      facts: facts({ takenOver: ['kubectl'] }),
      want: {
        action: 'configure',
        validated: false,
        reason: 'not dry-run: judged by its own write',
        info: cmInfo,
        takenOver: ['kubectl'],
      },
    },
  ])('$rule', ({ facts: f, want }) => {
    expect(unjudged(f)).toEqual(want);
  });
});

describe('writeOutcome: what a write did, from its answer', () => {
  it.each([
    {
      rule: 'nothing was there: created',
      live: undefined,
      written: changed('1', '11'),
      moved: false,
      want: 'created',
    },
    {
      rule: 'the server kept the resourceVersion: unchanged',
      live,
      written: changed('1', '10'),
      moved: false,
      want: 'unchanged',
    },
    {
      rule: 'a new resourceVersion: configured',
      live,
      written: changed('2', '11'),
      moved: false,
      want: 'configured',
    },
    {
      rule: 'an ownership move is a write of its own: configured',
      live,
      written: changed('1', '10'),
      moved: true,
      want: 'configured',
    },
  ])('$rule', ({ live: before, written, moved, want }) => {
    expect(writeOutcome(before, written, moved)).toBe(want);
  });
});
