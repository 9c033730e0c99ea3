import type { ActuationStatus, GroupAction, RunEvent, WaitStatus } from '../../../src/apply/events.js';
import type { ObjectId } from '../../../src/common/object-id.js';

/** Short constructors for event sequences written like kpt's e2e expectations. */

export const id = (group: string, kind: string, namespace: string, name: string): ObjectId => ({
  group,
  kind,
  namespace,
  name,
});

export const started = (action: GroupAction, name = `${action.toLowerCase()}-0`): RunEvent => ({
  type: 'group',
  name,
  action,
  status: 'Started',
});

export const finished = (action: GroupAction, name = `${action.toLowerCase()}-0`): RunEvent => ({
  type: 'group',
  name,
  action,
  status: 'Finished',
});

/** A whole action group: Started, the events, Finished. */
export const phase = (action: GroupAction, ...events: RunEvent[]): RunEvent[] => [
  started(action),
  ...events,
  finished(action),
];

export const applied = (obj: ObjectId, status: ActuationStatus = 'Successful', error?: string): RunEvent =>
  error === undefined
    ? { type: 'apply', group: 'apply-0', id: obj, status }
    : { type: 'apply', group: 'apply-0', id: obj, status, error };

export const pruned = (obj: ObjectId, status: ActuationStatus = 'Successful', error?: string): RunEvent =>
  error === undefined
    ? { type: 'prune', group: 'prune-0', id: obj, status }
    : { type: 'prune', group: 'prune-0', id: obj, status, error };

export const deleted = (obj: ObjectId, status: ActuationStatus = 'Successful', error?: string): RunEvent =>
  error === undefined
    ? { type: 'delete', group: 'delete-0', id: obj, status }
    : { type: 'delete', group: 'delete-0', id: obj, status, error };

export const waited = (obj: ObjectId, status: WaitStatus = 'Successful'): RunEvent => ({
  type: 'wait',
  group: 'wait-0',
  id: obj,
  status,
});

/** kpt e2e live-apply/prune-depends-on: cm applied, second-nginx then first-nginx pruned. */
export function pruneDependsOnRun(ns: string): RunEvent[] {
  const cm = id('', 'ConfigMap', ns, 'cm');
  const second = id('apps', 'Deployment', ns, 'second-nginx');
  const first = id('apps', 'Deployment', ns, 'first-nginx');
  return [
    { type: 'init', groups: [] },
    ...phase('Inventory'),
    ...phase('Apply', applied(cm)),
    ...phase('Wait', waited(cm)),
    ...phase('Prune', pruned(second)),
    ...phase('Wait', waited(second)),
    ...phase('Prune', pruned(first)),
    ...phase('Wait', waited(first)),
    ...phase('Inventory'),
  ];
}

/** kpt e2e live-apply/json-output: two apply waves, then two prune waves, each followed by a wait. */
export function jsonOutputRun(ns: string): RunEvent[] {
  const cm = id('', 'ConfigMap', ns, 'cm');
  const nginx = id('apps', 'Deployment', ns, 'nginx');
  const second = id('apps', 'Deployment', ns, 'second-nginx');
  const first = id('apps', 'Deployment', ns, 'first-nginx');
  return [
    { type: 'init', groups: [] },
    ...phase('Inventory'),
    ...phase('Apply', applied(cm)),
    ...phase('Wait', waited(cm)),
    ...phase('Apply', applied(nginx)),
    ...phase('Wait', waited(nginx)),
    ...phase('Prune', pruned(second)),
    ...phase('Wait', waited(second)),
    ...phase('Prune', pruned(first)),
    ...phase('Wait', waited(first)),
    ...phase('Inventory'),
  ];
}
