import { describe, expect, it } from 'vitest';
import { computeStatus } from '../../../src/status/index.js';
import type { StatusResult } from '../../../src/status/types.js';
import { kube } from './y2u.js';

/** One Job state, and what kpt (default) and kapp (`waitForJobs`) say about it. */
const cases: { name: string; yaml: string; kpt: StatusResult; waitForJobs: StatusResult }[] = [
  {
    name: 'completed',
    yaml: `
      spec: {completions: 3, parallelism: 1}
      status:
        startTime: "2024-05-01T12:00:00Z"
        succeeded: 3
        conditions:
        - {type: Complete, status: "True"}`,
    kpt: { status: 'Current', message: 'Job Completed. succeeded: 3/3' },
    waitForJobs: { status: 'Current', message: 'Job Completed. succeeded: 3/3' },
  },
  {
    name: 'completions default to parallelism',
    yaml: `
      spec: {parallelism: 2}
      status:
        succeeded: 2
        conditions:
        - {type: Complete, status: "True"}`,
    kpt: { status: 'Current', message: 'Job Completed. succeeded: 2/2' },
    waitForJobs: { status: 'Current', message: 'Job Completed. succeeded: 2/2' },
  },
  {
    name: 'failed',
    yaml: `
      spec: {backoffLimit: 0}
      status:
        startTime: "2024-05-01T12:00:00Z"
        failed: 1
        conditions:
        - {type: Failed, status: "True", reason: BackoffLimitExceeded}`,
    kpt: { status: 'Failed', message: 'Job Failed. failed: 1/1', reason: 'JobFailed' },
    waitForJobs: { status: 'Failed', message: 'Job Failed. failed: 1/1', reason: 'JobFailed' },
  },
  {
    name: 'suspended on purpose',
    yaml: `
      spec: {suspend: true}
      status:
        conditions:
        - {type: Suspended, status: "True", reason: JobSuspended}`,
    kpt: { status: 'Current', message: 'Job is suspended' },
    waitForJobs: { status: 'Current', message: 'Job is suspended' },
  },
  {
    name: 'a Suspended condition left over after resuming is ignored',
    yaml: `
      spec: {suspend: false}
      status:
        conditions:
        - {type: Suspended, status: "True"}`,
    kpt: { status: 'InProgress', message: 'Job not started', reason: 'JobNotStarted' },
    waitForJobs: { status: 'InProgress', message: 'Job not started', reason: 'JobNotStarted' },
  },
  {
    name: 'not started',
    yaml: `
      spec: {template: {spec: {containers: [{name: migrate, image: busybox}]}}}`,
    kpt: { status: 'InProgress', message: 'Job not started', reason: 'JobNotStarted' },
    waitForJobs: { status: 'InProgress', message: 'Job not started', reason: 'JobNotStarted' },
  },
  {
    name: 'running: Current for kpt, still in progress when waiting for Jobs',
    yaml: `
      spec: {completions: 3, parallelism: 2}
      status:
        startTime: "2024-05-01T12:00:00Z"
        succeeded: 1
        active: 2
        conditions:
        - {type: Complete, status: "False"}`,
    kpt: { status: 'Current', message: 'Job in progress. success:1, active: 2, failed: 0' },
    waitForJobs: {
      status: 'InProgress',
      message: 'Job in progress. success:1, active: 2, failed: 0',
      reason: 'JobNotComplete',
    },
  },
];

describe('Job status (kstatus jobConditions)', () => {
  it.each(cases)('kpt rule: $name', ({ yaml, kpt }) => {
    const job = kube('batch/v1', 'Job', yaml);
    expect(computeStatus(job)).toEqual(kpt);
    expect(computeStatus(job, { waitForJobs: false })).toEqual(kpt);
  });

  it.each(cases)('waitForJobs: $name', ({ yaml, waitForJobs }) => {
    expect(computeStatus(kube('batch/v1', 'Job', yaml), { waitForJobs: true })).toEqual(waitForJobs);
  });
});
