import type { ObjectId } from '../common/object-id.js';
import type { KStatus, WaitStatus } from '../status/types.js';

export type { WaitStatus } from '../status/types.js';

/**
 * What the engine reports, in order. The engine never logs: renderers in src/report turn these
 * into kpt's event text, JSON lines, the job summary and the PR comment.
 */
export type GroupAction = 'Inventory' | 'Apply' | 'Prune' | 'Delete' | 'Wait';
export type ActuationStatus = 'Successful' | 'Skipped' | 'Failed';
/** How an apply changed an object; `replaced` and `skipped` come from kapp's update strategies. */
export type ApplyOperation = 'created' | 'configured' | 'unchanged' | 'replaced' | 'skipped';

export interface GroupInfo {
  name: string;
  action: GroupAction;
  ids: ObjectId[];
}

export type RunEvent =
  | { type: 'init'; groups: GroupInfo[] }
  | { type: 'group'; name: string; action: GroupAction; status: 'Started' | 'Finished' }
  | {
      type: 'apply';
      group: string;
      id: ObjectId;
      status: ActuationStatus;
      operation?: ApplyOperation;
      error?: string;
    }
  | { type: 'prune' | 'delete'; group: string; id: ObjectId; status: ActuationStatus; error?: string }
  | { type: 'wait'; group: string; id: ObjectId; status: WaitStatus; message?: string }
  | { type: 'status'; id: ObjectId; status: KStatus; message: string }
  | { type: 'error'; error: string };

export type RunEventSink = (event: RunEvent) => void;
