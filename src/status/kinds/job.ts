import { boolField, current, failed, inProgress, intField, readConditions, stringField } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * batch/Job, cli-utils `jobConditions`: `Complete=True` is Current, `Failed=True` is Failed, and a Job that
 * has not started is InProgress. A started Job is Current in kpt; with `waitForJobs` (kapp's rule) it stays
 * InProgress until it completes, so a run can wait for a migration.
 *
 * Where we differ from kpt 1.0.0-beta.56: a suspended Job (`spec.suspend` and `Suspended=True`) is Current
 * ("Job is suspended"), the rule of newer cli-utils (after v0.37.2, the version kpt pins). Under kpt's
 * version a suspended Job that never started has no `status.startTime`, so it stays InProgress and the
 * wait runs into its timeout although nothing will happen until someone resumes the Job; a suspended Job
 * is a deliberate state, so we count it as reconciled, as cli-utils now does.
 */
export const jobStatus: KindRule = (obj, options) => {
  const parallelism = intField(obj, ['spec', 'parallelism'], 1);
  const completions = intField(obj, ['spec', 'completions'], parallelism);
  const succeeded = intField(obj, ['status', 'succeeded'], 0);
  const active = intField(obj, ['status', 'active'], 0);
  const failedPods = intField(obj, ['status', 'failed'], 0);
  const startTime = stringField(obj, ['status', 'startTime'], '');
  const suspend = boolField(obj, ['spec', 'suspend'], false);

  for (const c of readConditions(obj)) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
    if (c.type === 'Failed') return failed('JobFailed', `Job Failed. failed: ${failedPods}/${completions}`);
    if (c.type === 'Suspended' && suspend) return current('Job is suspended');
  }

  if (startTime === '') return inProgress('JobNotStarted', 'Job not started');
  const message = `Job in progress. success:${succeeded}, active: ${active}, failed: ${failedPods}`;
  return options.waitForJobs ? inProgress('JobNotComplete', message) : current(message);
};
