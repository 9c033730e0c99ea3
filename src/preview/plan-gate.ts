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

/**
 * What the merged pull requests' comments say about the plan of a package about to be applied (found
 * before the run, src/action/reviewed-plan.ts):
 * - `found`: the newest merged pull request whose reviewed tree is the tree being applied;
 * - `none`: no comment holds a reviewed plan (deleted, never written, no pull request at all);
 * - `mismatch`: plans were reviewed, but on other trees of the package (a later merge changed it);
 * - `unreadable`: GitHub could not be asked (no token, no permission).
 */
export type ReviewLookup =
  | { kind: 'found'; pull: number; plan: ReviewedPlan }
  | { kind: 'none'; why: string }
  | { kind: 'mismatch'; tree: string; reviewed: { pull: number; tree: string }[] }
  | { kind: 'unreadable'; why: string };

/** The plan the merged pull requests reviewed (fetched before the run), and what to do when it differs. */
export interface PlanGate {
  policy: 'warn' | 'fail';
  /** The package, for the messages. */
  package: string;
  reviewed: ReviewLookup;
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

const short = (sha: string) => sha.slice(0, 7);
const refusal = (text: string, fix: string) =>
  `${text}. Refusing to apply (plan-drift: fail); nothing was changed. ${fix}`;

/**
 * `plan-drift`, after the pre-flight: the plan about to be carried out (`planned`, undefined when the
 * pre-flight did not run) against the reviewed one. Fails closed: under `fail` a package with changes and
 * no reviewed plan of exactly its tree is refused; `warn` warns instead. A plan that changes nothing needs
 * no review. Notices and info lines are reported with the package's name in front.
 */
export function checkPlan(gate: PlanGate, planned: readonly PlanEntry[] | undefined): PlanVerdict {
  const fail = gate.policy === 'fail';
  const pkg = gate.package;
  const lookup = gate.reviewed;
  if (!planned) {
    return fail
      ? {
          refuse: refusal(
            `${pkg}: plan-drift: fail compares the pre-flight's plan with the reviewed one, but preflight is off`,
            'Turn preflight on, or set plan-drift: warn',
          ),
        }
      : { notice: 'plan-drift not checked: preflight is off, so the plan is only known while applying' };
  }
  if (lookup.kind === 'found') {
    const comparison = comparePlans(lookup.plan, planned);
    if (comparison.same) return { info: `the plan matches the one reviewed on #${lookup.pull}`, comparison };
    const names = comparison.differences.map((d) => nameOfKey(d.key));
    const text = `the plan changed since #${lookup.pull} was reviewed: ${names.join(', ') || comparison.note}`;
    return fail
      ? { refuse: refusal(text, 'Preview again and review, or run with plan-drift: warn'), comparison }
      : { warn: text, comparison };
  }
  if (!planned.some((e) => e.action !== 'unchanged'))
    return { info: 'nothing to change, so no reviewed plan is needed' };
  if (lookup.kind === 'unreadable') {
    return fail
      ? {
          refuse: refusal(
            `no reviewed plan for ${pkg} could be read: ${lookup.why}`,
            'Give the job a github-token with pull-requests: read, or set plan-drift: warn',
          ),
        }
      : { notice: `plan-drift not checked: ${lookup.why}` };
  }
  if (lookup.kind === 'none') {
    const text = `no reviewed plan for ${pkg}: ${lookup.why}`;
    return fail
      ? { refuse: refusal(text, 'Preview it in a pull request and merge that, or run with plan-drift: warn') }
      : { warn: text };
  }
  const pulls = lookup.reviewed.map((r) => `#${r.pull} reviewed ${short(r.tree)}`).join(', ');
  const text =
    `no merged pull request reviewed the tree of ${pkg} being applied (${short(lookup.tree)}): ${pulls}; ` +
    'a merge after those reviews changed the package';
  return fail
    ? {
        refuse: refusal(
          text,
          'Require branches to be up to date before merging (branch protection), or merge through a merge queue',
        ),
      }
    : { warn: `${text}; require branches to be up to date before merging, or use a merge queue` };
}
