import type { GroupAction, RunEventSink } from './events.js';

/** Runs one task group between its Started and Finished events (kpt's action groups). */
export async function group<T>(
  emit: RunEventSink,
  name: string,
  action: GroupAction,
  fn: () => Promise<T>,
): Promise<T> {
  emit({ type: 'group', name, action, status: 'Started' });
  const result = await fn();
  emit({ type: 'group', name, action, status: 'Finished' });
  return result;
}
