import { describe, expect, it } from 'vitest';
import { ApplyRejection } from '../../../src/apply/apply-error.js';
import {
  type Decision,
  decideFromAnswer,
  type ObjectFacts,
  type ServerAnswer,
} from '../../../src/apply/decision.js';
import type { FieldDecision, OwnershipDecision } from '../../../src/inventory/field-owners.js';
import { KubeApiError } from '../../../src/kube/api-error.js';
import { changed, cmInfo, facts, ours, sameAsLive } from '../../support/decision-facts.js';

/**
 * The decision from the server's answer to the dry-run apply (ask-server.ts: the ownership rule applied),
 * pure: the facts and the answer in, the decision out. One row per rule; to add a rule, add a row.
 */
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
