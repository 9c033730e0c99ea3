import { describe, expect, it } from 'vitest';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import { inventoryDifference, recordedSettings, settingsOf } from '../../../src/pipeline/deploy-settings.js';

const inventory = { name: 'inventory-app', namespace: 'shop', id: 'shop-app' };

describe('the settings a deploy record keeps for a rollback', () => {
  it('records the inventory, the default namespace and the settings that shape the apply, not the machine ones', () => {
    const options = defaultRunOptions({
      fieldManager: 'platform',
      reconcileTimeoutMs: 90_000,
      concurrency: 4,
    });
    const kept = recordedSettings(options, 'shop', { ...inventory, labels: { team: 'a' } });
    expect(kept.inventory).toEqual(inventory);
    expect(kept.namespace).toBe('shop');
    expect(kept.options).toMatchObject({ fieldManager: 'platform', reconcileTimeoutMs: 90_000, prune: true });
    for (const machine of ['concurrency', 'lockTimeoutMs', 'lockLeaseSeconds', 'installResourceGroup'])
      expect(kept.options).not.toHaveProperty(machine);
  });

  it('restores what was recorded over today, keeping today for what the record lacks or holds badly', () => {
    const today = defaultRunOptions({ concurrency: 7 });
    const recorded = recordedSettings(
      defaultRunOptions({
        fieldManager: 'platform',
        inventoryPolicy: 'adopt',
        conflicts: { mode: 'fail', take: [], keep: ['helm'] },
      }),
      'shop',
      inventory,
    );
    const { options, recorded: was } = settingsOf(recorded, today);
    expect(was).toBe(true);
    expect(options).toMatchObject({
      fieldManager: 'platform',
      inventoryPolicy: 'adopt',
      conflicts: { mode: 'fail', take: [], keep: ['helm'] },
      concurrency: 7,
    });
    const edited = {
      options: {
        fieldManager: 42,
        inventoryPolicy: 'anything',
        preflight: 'all',
        reconcileTimeoutMs: Number.NaN,
        conflicts: { mode: 'maybe' },
        wait: false,
      },
    };
    expect(settingsOf(edited, today).options).toEqual({ ...today, preflight: 'all', wait: false });
    expect(settingsOf({}, today)).toEqual({ options: today, recorded: false });
  });
});

describe('inventoryDifference', () => {
  it('passes the same inventory, and names the first that differs and how', () => {
    expect(
      inventoryDifference(inventory, [
        { inventory, where: 'in the package at 3f2a1c0' },
        { where: 'recorded' },
      ]),
    ).toBeUndefined();
    expect(
      inventoryDifference(inventory, [
        { inventory, where: 'in the package at 3f2a1c0' },
        { inventory: { ...inventory, id: 'other' }, where: 'recorded with the deploy of 3f2a1c0' },
      ]),
    ).toBe(
      "the inventory recorded with the deploy of 3f2a1c0 is shop/inventory-app (inventory-id other), today's is shop/inventory-app (inventory-id shop-app): applying it would hand its objects to another inventory. Roll back by hand (kpt-live apply of that commit with today's inventory info)",
    );
  });
});
