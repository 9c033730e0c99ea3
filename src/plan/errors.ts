import { Annotations } from '../common/constants.js';
import { formatInventoryId, formatRef, idKey, type ObjectId } from '../common/object-id.js';

/**
 * One reason an object cannot be planned, with kpt's message for it. Errors are data: the engine
 * decides what to do (kpt's default, ExitEarly, refuses to change anything when there is one).
 */
export interface PlanError {
  id: ObjectId;
  message: string;
}

const CYCLE_PREFIX = 'cyclic dependency:';

/** kpt's object.InvalidAnnotationError text: `invalid "<annotation>" annotation: <cause>`. */
export function invalidAnnotationMessage(annotation: string, cause: string): string {
  return `invalid "${annotation}" annotation: ${cause}`;
}

/** A depends-on reference to an object that is neither applied nor pruned (kpt cannot wait for it). */
export function externalDependencyMessage(from: ObjectId, to: ObjectId): string {
  return invalidAnnotationMessage(
    Annotations.DependsOn,
    `external dependency: ${formatRef(from)} -> ${formatRef(to)}`,
  );
}

/** The same reference listed twice in one depends-on annotation. */
export function duplicateDependencyMessage(from: ObjectId, to: ObjectId): string {
  return invalidAnnotationMessage(
    Annotations.DependsOn,
    `duplicate dependency: ${formatRef(from)} -> ${formatRef(to)}`,
  );
}

/**
 * kpt's CyclicDependencyError text. `edges` must already be the edges left in the cycle, sorted the
 * way cli-utils sorts them (compareIds on from, then to).
 */
export function cyclicDependencyMessage(edges: readonly { from: ObjectId; to: ObjectId }[]): string {
  return CYCLE_PREFIX + edges.map((e) => `\n- ${formatRef(e.from)} -> ${formatRef(e.to)}`).join('');
}

/** Go's multierror text: one cause as is, several as `N errors:` and an indented `- ` list. */
function multiError(causes: readonly string[]): string {
  if (causes.length === 1) return causes[0];
  const items = causes.map((c) => `- ${c.split('\n').join('\n  ')}\n`);
  return `${causes.length} errors:\n${items.join('')}`;
}

/** Go's %q for the ASCII ids Kubernetes allows. */
const quote = (text: string): string => JSON.stringify(text);

/**
 * The text kpt prints when validation stops a run (its ExitEarly policy): each object's causes
 * wrapped as `invalid object: "<ns_name_group_kind>": <cause>`, a cycle as
 * `invalid objects: ["id1", "id2"] cyclic dependency: ...`, several of them as a multierror.
 * Expects errors in the order buildPlan produces them (each object's causes together, one cycle's
 * vertices together).
 */
export function formatPlanErrors(errors: readonly PlanError[]): string {
  const validationErrors: string[] = [];
  let i = 0;
  while (i < errors.length) {
    const first = errors[i];
    let j = i + 1;
    if (first.message.startsWith(CYCLE_PREFIX)) {
      while (j < errors.length && errors[j].message === first.message) j++;
      const ids = errors.slice(i, j).map((e) => quote(formatInventoryId(e.id)));
      validationErrors.push(
        ids.length === 1
          ? `invalid object: ${ids[0]}: ${first.message}`
          : `invalid objects: [${ids.join(', ')}] ${first.message}`,
      );
    } else {
      const key = idKey(first.id);
      while (j < errors.length && idKey(errors[j].id) === key && !errors[j].message.startsWith(CYCLE_PREFIX))
        j++;
      const causes = errors.slice(i, j).map((e) => e.message);
      validationErrors.push(`invalid object: ${quote(formatInventoryId(first.id))}: ${multiError(causes)}`);
    }
    i = j;
  }
  return validationErrors.length === 0 ? '' : multiError(validationErrors);
}
