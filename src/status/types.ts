/** kstatus' status values, spelled exactly as cli-utils prints them. */
export type KStatus = 'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'NotFound' | 'Unknown';

/** What a reconcile wait concluded for one object (cli-utils' WaitEvent statuses). */
export type WaitStatus = 'Pending' | 'Successful' | 'Skipped' | 'Failed' | 'Timeout';

export interface StatusResult {
  status: KStatus;
  /** The message kpt prints after `is <Status>:`, e.g. `Deployment is available. Replicas: 1`. */
  message: string;
  /** The reason of the synthesized Reconciling/Stalled condition, when there is one. */
  reason?: string;
}
