/**
 * What apply does with a field of the package that another field manager holds with another value: the
 * `conflicts` setting, the managers moved between classes (`conflicts-take`, `conflicts-keep`), and the
 * per-object annotation that overrides both. Parsed here once for the action, the CLI and package
 * validation; the rule itself is src/inventory/field-owners.ts.
 */

/**
 * `take-hand-edits` (default): fields held by kubectl's imperative commands are taken over, and on adoption
 * the previous owner's are released; every other manager's stay conflicts. `fail`: every conflict fails, as
 * kubectl's server-side apply. `force`: every conflict is taken (= force-conflicts).
 */
export const ConflictModes = ['take-hand-edits', 'fail', 'force'] as const;
export type ConflictMode = (typeof ConflictModes)[number];

export interface ConflictSettings {
  mode: ConflictMode;
  /** Managers treated as hand edits (their fields the package sets are taken over). */
  take: string[];
  /** Managers treated as co-owners (a field they hold with another value is a conflict). */
  keep: string[];
}

export const DefaultConflictSettings: ConflictSettings = { mode: 'take-hand-edits', take: [], keep: [] };

/** The annotation on a package object that overrides the run's settings for that object. */
export const ConflictsAnnotation = 'kpt-live-action.dev/conflicts';

/** A bad combination or value of the settings; the message names the inputs (or flags) involved. */
export class ConflictSettingsError extends Error {
  override name = 'ConflictSettingsError';
}

/** How the front end spells each setting in its messages: `conflicts` (action) or `--conflicts` (CLI). */
export interface ConflictSettingNames {
  conflicts: string;
  forceConflicts: string;
  take: string;
  keep: string;
}

/** Field manager names: at most 128 characters (the API server's limit), one per entry. */
function managerNames(name: string, values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (v === '' || out.includes(v)) continue;
    if (v.length > 128)
      throw new ConflictSettingsError(
        `${name}: "${v.slice(0, 40)}..." is not a field manager name (at most 128 characters)`,
      );
    out.push(v);
  }
  return out;
}

function twice(take: string[], keep: string[], where: string): void {
  const both = take.filter((m) => keep.includes(m));
  if (both.length > 0) {
    const s = both.length === 1 ? '' : 's';
    throw new ConflictSettingsError(
      `${where}: field manager${s} ${both.map((m) => `"${m}"`).join(', ')} listed in both: a manager's fields are either taken over or kept, not both`,
    );
  }
}

/**
 * The run's settings from the front end's values (an empty `conflicts` means its default). `force-conflicts`
 * is the older spelling of `conflicts: force`; with any other explicit `conflicts` value it contradicts it.
 */
export function conflictSettingsFrom(
  values: { conflicts?: string; forceConflicts: boolean; take: readonly string[]; keep: readonly string[] },
  names: ConflictSettingNames,
): ConflictSettings {
  const text = (values.conflicts ?? '').trim();
  if (text !== '' && !(ConflictModes as readonly string[]).includes(text))
    throw new ConflictSettingsError(
      `${names.conflicts}: "${text}" is not a conflicts mode (accepted: ${ConflictModes.join(', ')})`,
    );
  if (values.forceConflicts && text !== '' && text !== 'force')
    throw new ConflictSettingsError(
      `${names.conflicts}: "${text}" contradicts ${names.forceConflicts} (which takes every field, as conflicts "force" does): set one of them`,
    );
  const mode: ConflictMode = values.forceConflicts ? 'force' : ((text || 'take-hand-edits') as ConflictMode);
  const take = managerNames(names.take, values.take);
  const keep = managerNames(names.keep, values.keep);
  twice(take, keep, `${names.take} and ${names.keep}`);
  return { mode, take, keep };
}

/** One object's override, as its annotation states it. */
export interface ConflictsOverride {
  mode?: ConflictMode;
  take: string[];
  keep: string[];
}

/** The classes a manager can be moved to in the annotation (`take=NAME`, `keep=NAME`). */
const AnnotationClasses = ['take', 'keep'] as const;

/**
 * Reads the annotation's value: terms separated by commas or spaces, each a mode (`take-hand-edits`,
 * `fail`, `force`) or a manager moved to a class (`take=NAME`: its fields are taken over; `keep=NAME`: they
 * are a conflict). E.g. `fail`, `keep=kubectl-label`, `take-hand-edits, take=deploy-script`.
 * Throws a ConflictSettingsError naming the bad term.
 */
export function parseConflictsAnnotation(value: string): ConflictsOverride {
  const out: ConflictsOverride = { take: [], keep: [] };
  const terms = value.split(/[\s,]+/).filter((t) => t !== '');
  const accepted = `accepted: ${ConflictModes.join(', ')}, take=MANAGER, keep=MANAGER`;
  for (const term of terms) {
    const eq = term.indexOf('=');
    if (eq < 0) {
      if (!(ConflictModes as readonly string[]).includes(term))
        throw new ConflictSettingsError(`${ConflictsAnnotation}: unknown mode "${term}" (${accepted})`);
      if (out.mode && out.mode !== term)
        throw new ConflictSettingsError(
          `${ConflictsAnnotation}: two modes, "${out.mode}" and "${term}" (one at most)`,
        );
      out.mode = term as ConflictMode;
      continue;
    }
    const cls = term.slice(0, eq);
    const manager = term.slice(eq + 1);
    if (!(AnnotationClasses as readonly string[]).includes(cls))
      throw new ConflictSettingsError(
        `${ConflictsAnnotation}: unknown class "${cls}" in "${term}" (${accepted})`,
      );
    if (manager === '')
      throw new ConflictSettingsError(
        `${ConflictsAnnotation}: "${term}" names no field manager (${accepted})`,
      );
    const list = out[cls as (typeof AnnotationClasses)[number]];
    if (!list.includes(manager)) list.push(manager);
  }
  if (terms.length === 0)
    throw new ConflictSettingsError(`${ConflictsAnnotation}: empty (${accepted}; or remove the annotation)`);
  twice(out.take, out.keep, ConflictsAnnotation);
  return out;
}

/**
 * The settings for one package object: the run's, overridden by the object's annotation (its mode replaces
 * the run's; a manager it names moves to that class whatever the run's lists say).
 */
export function objectConflictSettings(
  run: ConflictSettings,
  annotations: Record<string, string> | undefined,
): ConflictSettings {
  const value = annotations?.[ConflictsAnnotation];
  if (value === undefined) return run;
  const o = parseConflictsAnnotation(value);
  const named = new Set([...o.take, ...o.keep]);
  return {
    mode: o.mode ?? run.mode,
    take: [...run.take.filter((m) => !named.has(m)), ...o.take],
    keep: [...run.keep.filter((m) => !named.has(m)), ...o.keep],
  };
}
