import { describe, expect, it } from 'vitest';
import {
  ConflictSettingsError,
  conflictSettingsFrom,
  DefaultConflictSettings,
  objectConflictSettings,
  parseConflictsAnnotation,
} from '../../../src/common/conflict-settings.js';

const names = {
  conflicts: 'conflicts',
  forceConflicts: 'force-conflicts',
  take: 'conflicts-take',
  keep: 'conflicts-keep',
};
const from = (v: Partial<Parameters<typeof conflictSettingsFrom>[0]>) =>
  conflictSettingsFrom({ forceConflicts: false, take: [], keep: [], ...v }, names);

describe('conflictSettingsFrom', () => {
  it.each([
    [{}, { mode: 'take-hand-edits', take: [], keep: [] }],
    [{ conflicts: ' fail ' }, { mode: 'fail', take: [], keep: [] }],
    [{ conflicts: 'force' }, { mode: 'force', take: [], keep: [] }],
    [{ forceConflicts: true }, { mode: 'force', take: [], keep: [] }],
    [
      { forceConflicts: true, conflicts: 'force' },
      { mode: 'force', take: [], keep: [] },
    ],
    [
      { take: ['a', ' b ', '', 'a'], keep: ['c'] },
      { mode: 'take-hand-edits', take: ['a', 'b'], keep: ['c'] },
    ],
  ])('%j gives %j', (values, want) => {
    expect(from(values)).toEqual(want);
  });

  it.each([
    [
      { conflicts: 'yes' },
      'conflicts: "yes" is not a conflicts mode (accepted: take-hand-edits, fail, force)',
    ],
    [
      { conflicts: 'fail', forceConflicts: true },
      'conflicts: "fail" contradicts force-conflicts (which takes every field, as conflicts "force" does): set one of them',
    ],
    [
      { conflicts: 'take-hand-edits', forceConflicts: true },
      'conflicts: "take-hand-edits" contradicts force-conflicts',
    ],
    [
      { take: ['helm', 'kubectl-edit'], keep: ['kubectl-edit'] },
      'conflicts-take and conflicts-keep: field manager "kubectl-edit" listed in both: a manager\'s fields are either taken over or kept, not both',
    ],
    [{ take: ['x'.repeat(129)] }, 'conflicts-take: "xxxxxxxx'],
  ])('%j is refused: %s', (values, message) => {
    expect(() => from(values)).toThrow(ConflictSettingsError);
    expect(() => from(values)).toThrow(message);
  });
});

describe('the annotation kpt-live-action.dev/conflicts', () => {
  it.each([
    ['fail', { mode: 'fail', take: [], keep: [] }],
    ['keep=kubectl-label', { take: [], keep: ['kubectl-label'] }],
    [
      'take-hand-edits, take=deploy-script keep=a,keep=b',
      { mode: 'take-hand-edits', take: ['deploy-script'], keep: ['a', 'b'] },
    ],
  ])('%s', (value, want) => {
    expect(parseConflictsAnnotation(value)).toEqual(want);
  });

  it.each([
    [
      'always',
      'kpt-live-action.dev/conflicts: unknown mode "always" (accepted: take-hand-edits, fail, force, take=MANAGER, keep=MANAGER)',
    ],
    ['drop=helm', 'kpt-live-action.dev/conflicts: unknown class "drop" in "drop=helm"'],
    ['take=', 'kpt-live-action.dev/conflicts: "take=" names no field manager'],
    ['fail force', 'kpt-live-action.dev/conflicts: two modes, "fail" and "force" (one at most)'],
    ['take=x keep=x', 'kpt-live-action.dev/conflicts: field manager "x" listed in both'],
    ['  ', 'kpt-live-action.dev/conflicts: empty'],
  ])('%j is refused', (value, message) => {
    expect(() => parseConflictsAnnotation(value)).toThrow(message);
  });

  it("overrides the run's settings for that object only", () => {
    const run = { mode: 'fail' as const, take: ['a'], keep: ['b'] };
    expect(objectConflictSettings(run, undefined)).toBe(run);
    expect(objectConflictSettings(run, { other: 'x' })).toBe(run);
    expect(objectConflictSettings(run, { 'kpt-live-action.dev/conflicts': 'keep=a take=b' })).toEqual({
      mode: 'fail',
      take: ['b'],
      keep: ['a'],
    });
    expect(
      objectConflictSettings(DefaultConflictSettings, { 'kpt-live-action.dev/conflicts': 'force' }).mode,
    ).toBe('force');
  });
});
