import { describe, expect, it } from 'vitest';
import {
  type Decision,
  decideLocally,
  type ObjectFacts,
  unjudged,
  writeOutcome,
} from '../../../src/apply/decision.js';
import { changed, cmInfo, deleting, deployId, facts, live, nsId } from '../../support/decision-facts.js';

/**
 * The decision ladder's local rules, pure: the facts about one object in, the decision out, or undefined
 * when only the server can tell (decision-answer.test.ts has those). One row per rule; to add a rule, add a
 * row. The facts are test/support/decision-facts.ts: each row changes only what its rule is about.
 */
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
