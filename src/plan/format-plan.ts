import { displayName, type ObjectId } from '../common/object-id.js';
import { formatPlanErrors } from './errors.js';
import type { Plan } from './plan.js';

/** `deployment.apps/web (default)`: the events printer's name, plus the namespace when there is one. */
function label(id: ObjectId): string {
  return id.namespace ? `${displayName(id)} (${id.namespace})` : displayName(id);
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

function formatWaves(title: string, waves: readonly ObjectId[][]): string[] {
  return waves.flatMap((wave, i) => [`${title} wave ${i + 1}:`, ...wave.map((id) => `  ${label(id)}`)]);
}

/**
 * A plan as text people can read in a log or a test failure: a one-line summary, the waves in order
 * (delete waves for destroy), the dependency edges and, when there are any, kpt's validation errors.
 */
export function formatPlan(plan: Plan): string {
  const pruneTitle = plan.destroy ? 'delete' : 'prune';
  const applied = plan.applyWaves.reduce((n, w) => n + w.length, 0);
  const pruned = plan.pruneWaves.reduce((n, w) => n + w.length, 0);
  const summary = plan.destroy
    ? `${count(plan.pruneWaves.length, 'delete wave')} (${count(pruned, 'object')})`
    : `${count(plan.applyWaves.length, 'apply wave')} (${count(applied, 'object')}), ` +
      `${count(plan.pruneWaves.length, 'prune wave')} (${count(pruned, 'object')})`;
  const lines = [
    `plan: ${summary}`,
    ...formatWaves('apply', plan.applyWaves),
    ...formatWaves(pruneTitle, plan.pruneWaves),
  ];
  if (plan.edges.length > 0) {
    lines.push('dependencies:');
    for (const e of plan.edges) {
      lines.push(`  ${label(e.from)} -> ${label(e.to)}${e.implicit ? ' (implicit)' : ''}`);
    }
  }
  if (plan.errors.length > 0) {
    lines.push(
      'errors:',
      ...formatPlanErrors(plan.errors)
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    );
  }
  return lines.join('\n');
}
