import type { RunOptions } from '../apply/run-options.js';
import type { ObjectOutcome } from '../apply/run-result.js';
import type { KubeObject } from '../common/kube-object.js';
import { parseInventoryId, shortName } from '../common/object-id.js';
import type { Plan } from '../plan/plan.js';
import {
  comparePlans,
  type PlanComparison,
  type PlanEntry,
  planOf,
  type ReviewedPlan,
} from './plan-digest.js';
import { previewObjects } from './preview-document.js';

/** The plan a merged pull request's comment reviewed (fetched before the run), and what to do when it differs. */
export interface PlanGate {
  policy: 'warn' | 'fail';
  reviewed: { pull: number; plan: ReviewedPlan } | { none: string };
}

/** What the comparison found: `refuse` stops the run before its first write; the rest is reported after it. */
export interface PlanVerdict {
  refuse?: string;
  warn?: string;
  notice?: string;
  info?: string;
  comparison?: PlanComparison;
}

/** `Deployment/web` from an idKey; the key itself when it does not parse. */
export function nameOfKey(key: string): string {
  try {
    const id = parseInventoryId(key);
    return id.namespace ? `${shortName(id)} (namespace ${id.namespace})` : shortName(id);
  } catch {
    return key;
  }
}

/**
 * The pre-flight walk's plan (what apply is about to carry out), digested as a preview's is; undefined with
 * `preflight: off`: nothing was dry-run, so a configure's changes are unknown.
 */
export async function plannedEntries(
  preflight: { outcomes: readonly ObjectOutcome[]; plan: Plan; desired: readonly KubeObject[] },
  options: Pick<RunOptions, 'preflight' | 'allowSkipped' | 'fieldManager'>,
): Promise<PlanEntry[] | undefined> {
  if (options.preflight === 'off') return undefined;
  return planOf(await previewObjects(preflight.outcomes, preflight, options), preflight.desired);
}

/** Compares the plan about to be carried out (undefined: not known before the writes) with the reviewed one. */
export function checkPlan(gate: PlanGate, planned: readonly PlanEntry[] | undefined): PlanVerdict {
  if (!planned)
    return { notice: 'plan-drift not checked: preflight is off, so the plan is only known while applying' };
  if ('none' in gate.reviewed) return { notice: `plan-drift not checked: ${gate.reviewed.none}` };
  const { pull, plan } = gate.reviewed;
  const comparison = comparePlans(plan, planned);
  if (comparison.same) return { info: `the plan matches the one reviewed on #${pull}`, comparison };
  const names = comparison.differences.map((d) => nameOfKey(d.key));
  const text = `the plan changed since #${pull} was reviewed: ${names.join(', ') || comparison.note}`;
  if (gate.policy === 'fail')
    return {
      refuse: `${text}. Refusing to apply (plan-drift: fail); nothing was changed. Preview again and review, or run with plan-drift: warn`,
      comparison,
    };
  return { warn: text, comparison };
}
