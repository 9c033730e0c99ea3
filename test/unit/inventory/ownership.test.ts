import { describe, expect, it } from 'vitest';
import type { InventoryPolicy } from '../../../src/common/constants.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import {
  applyBlockedBy,
  type OwnershipMatch,
  ownershipOf,
  preventsDeletion,
  pruneBlockedBy,
} from '../../../src/inventory/ownership.js';

const OURS = 'inv-ours';

/** A live object with the given owning-inventory annotation (undefined: none at all). */
const live = (owner?: string, more: Record<string, string> = {}): Pick<KubeObject, 'metadata'> => ({
  metadata: {
    name: 'x',
    annotations: { ...(owner === undefined ? {} : { 'config.k8s.io/owning-inventory': owner }), ...more },
  },
});

describe('ownershipOf (cli-utils IDMatch)', () => {
  const cases: { owner?: string; want: OwnershipMatch }[] = [
    { owner: undefined, want: 'Empty' },
    { owner: '', want: 'Empty' },
    { owner: OURS, want: 'Match' },
    { owner: 'inv-other', want: 'NoMatch' },
    { owner: `${OURS} `, want: 'NoMatch' },
  ];
  it.each(cases)('owning-inventory $owner ⇒ $want', ({ owner, want }) => {
    expect(ownershipOf(live(owner), OURS)).toBe(want);
  });

  it('an object without annotations at all is Empty', () => {
    expect(ownershipOf({ metadata: { name: 'x' } }, OURS)).toBe('Empty');
  });
});

/**
 * Both filters, every owner state × every policy (cli-utils InventoryPolicyApplyFilter and
 * InventoryPolicyPruneFilter): undefined = allowed, else the refusal.
 */
const owners = { none: undefined, ours: OURS, other: 'inv-other' } as const;
type Owner = keyof typeof owners;
const policyTable: {
  owner: Owner;
  policy: InventoryPolicy;
  apply: ReturnType<typeof applyBlockedBy>;
  prune: ReturnType<typeof pruneBlockedBy>;
}[] = [
  { owner: 'ours', policy: 'strict', apply: undefined, prune: undefined },
  { owner: 'ours', policy: 'adopt', apply: undefined, prune: undefined },
  { owner: 'ours', policy: 'force-adopt', apply: undefined, prune: undefined },
  { owner: 'none', policy: 'strict', apply: { match: 'Empty' }, prune: { match: 'Empty' } },
  { owner: 'none', policy: 'adopt', apply: undefined, prune: undefined },
  { owner: 'none', policy: 'force-adopt', apply: undefined, prune: undefined },
  {
    owner: 'other',
    policy: 'strict',
    apply: { match: 'NoMatch', owner: 'inv-other' },
    prune: { match: 'NoMatch', owner: 'inv-other' },
  },
  {
    owner: 'other',
    policy: 'adopt',
    apply: { match: 'NoMatch', owner: 'inv-other' },
    prune: { match: 'NoMatch', owner: 'inv-other' },
  },
  { owner: 'other', policy: 'force-adopt', apply: undefined, prune: undefined },
];

describe('applyBlockedBy (may we apply over it?)', () => {
  it.each(policyTable)('owner $owner, policy $policy', ({ owner, policy, apply }) => {
    expect(applyBlockedBy(live(owners[owner]), OURS, policy)).toEqual(apply);
  });

  it.each<InventoryPolicy>(['strict', 'adopt', 'force-adopt'])(
    'an object that does not exist yet is never blocked (%s)',
    (policy) => {
      expect(applyBlockedBy(undefined, OURS, policy)).toBeUndefined();
    },
  );
});

describe('pruneBlockedBy (may we delete it?)', () => {
  it.each(policyTable)('owner $owner, policy $policy', ({ owner, policy, prune }) => {
    expect(pruneBlockedBy(live(owners[owner]), OURS, policy)).toEqual(prune);
  });
});

describe('preventsDeletion (keep annotations)', () => {
  const cases: {
    name: string;
    annotations: Record<string, string>;
    want: ReturnType<typeof preventsDeletion>;
  }[] = [
    { name: 'none', annotations: {}, want: undefined },
    {
      name: 'kpt on-remove: keep',
      annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' },
      want: { key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' },
    },
    {
      name: 'lifecycle deletion: detach',
      annotations: { 'client.lifecycle.config.k8s.io/deletion': 'detach' },
      want: { key: 'client.lifecycle.config.k8s.io/deletion', value: 'detach' },
    },
    {
      name: 'kapp delete-strategy: orphan',
      annotations: { 'kapp.k14s.io/delete-strategy': 'orphan' },
      want: { key: 'kapp.k14s.io/delete-strategy', value: 'orphan' },
    },
    {
      name: 'on-remove with another value',
      annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'delete' },
      want: undefined,
    },
    {
      name: 'deletion with another value',
      annotations: { 'client.lifecycle.config.k8s.io/deletion': 'delete' },
      want: undefined,
    },
    {
      name: 'kapp delete-strategy other',
      annotations: { 'kapp.k14s.io/delete-strategy': 'delete' },
      want: undefined,
    },
    {
      name: 'several: on-remove is named first',
      annotations: {
        'kapp.k14s.io/delete-strategy': 'orphan',
        'cli-utils.sigs.k8s.io/on-remove': 'keep',
      },
      want: { key: 'cli-utils.sigs.k8s.io/on-remove', value: 'keep' },
    },
  ];
  it.each(cases)('$name', ({ annotations, want }) => {
    expect(preventsDeletion(live(OURS, annotations))).toEqual(want);
  });
});
