import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import { exitCodeOf } from '../../../src/common/run-outcome.js';
import { EventStats, outcomeOf, resultErrorMessage } from '../../../src/report/event-stats.js';
import { renderEventsText, renderEventText, renderSummaryText } from '../../../src/report/events-text.js';
import {
  applied,
  deleted,
  id,
  jsonOutputRun,
  phase,
  pruneDependsOnRun,
  pruned,
  started,
  waited,
} from './run-events.js';

const dep = id('apps', 'Deployment', 'default', 'my-dep');
const cron = id('batch', 'CronJob', 'foo', 'my-cron');

describe('renderEventText', () => {
  // expectations from cli-utils v0.37 pkg/printers/events/formatter_test.go
  it.each<[string, RunEvent, string]>([
    ['apply successful', applied(dep), 'deployment.apps/my-dep apply successful'],
    ['apply of a batch kind', applied(cron), 'cronjob.batch/my-cron apply successful'],
    [
      'apply failed',
      applied(dep, 'Failed', 'this is a test error'),
      'deployment.apps/my-dep apply failed: this is a test error',
    ],
    [
      'apply skipped',
      applied(dep, 'Skipped', 'this is a test error'),
      'deployment.apps/my-dep apply skipped: this is a test error',
    ],
    ['prune successful', pruned(dep), 'deployment.apps/my-dep prune successful'],
    ['prune skipped', pruned(dep, 'Skipped'), 'deployment.apps/my-dep prune skipped'],
    [
      'prune failed',
      pruned(dep, 'Failed', 'this is a test'),
      'deployment.apps/my-dep prune failed: this is a test',
    ],
    [
      'prune skipped with reason',
      pruned(cron, 'Skipped', 'this is a test'),
      'cronjob.batch/my-cron prune skipped: this is a test',
    ],
    ['delete successful', deleted(dep), 'deployment.apps/my-dep delete successful'],
    ['delete skipped', deleted(dep, 'Skipped'), 'deployment.apps/my-dep delete skipped'],
    [
      'delete failed',
      deleted(dep, 'Failed', 'this is a test'),
      'deployment.apps/my-dep delete failed: this is a test',
    ],
    ['reconcile pending', waited(dep, 'Pending'), 'deployment.apps/my-dep reconcile pending'],
    ['reconcile successful', waited(dep), 'deployment.apps/my-dep reconcile successful'],
    ['reconcile timeout', waited(dep, 'Timeout'), 'deployment.apps/my-dep reconcile timeout'],
    ['reconcile skipped', waited(dep, 'Skipped'), 'deployment.apps/my-dep reconcile skipped'],
    ['reconcile failed', waited(dep, 'Failed'), 'deployment.apps/my-dep reconcile failed'],
    ['core kind', applied(id('', 'ConfigMap', 'x', 'cm')), 'configmap/cm apply successful'],
    ['inventory', started('Inventory'), 'inventory update started'],
    ['wait phase', started('Wait'), 'reconcile phase started'],
    ['delete phase', started('Delete'), 'delete phase started'],
  ])('%s', (_name, event, expected) => {
    expect(renderEventText(event)).toBe(expected);
  });

  it('prints status events only when asked, as `is <Status>: <message>`', () => {
    const event: RunEvent = {
      type: 'status',
      id: id('apps', 'Deployment', 'foo', 'bar'),
      status: 'Current',
      message: 'Resource is Current',
    };
    expect(renderEventText(event)).toBeUndefined();
    expect(renderEventText(event, { showStatusEvents: true })).toBe(
      'deployment.apps/bar is Current: Resource is Current',
    );
  });

  it('prints nothing for init and error events (kpt prints the error itself)', () => {
    expect(renderEventText({ type: 'init', groups: [] })).toBeUndefined();
    expect(renderEventText({ type: 'error', error: 'boom' })).toBeUndefined();
  });
});

describe('renderEventsText: whole runs byte for byte', () => {
  it('matches kpt e2e live-apply/prune-depends-on', () => {
    const expected = `inventory update started
inventory update finished
apply phase started
configmap/cm apply successful
apply phase finished
reconcile phase started
configmap/cm reconcile successful
reconcile phase finished
prune phase started
deployment.apps/second-nginx prune successful
prune phase finished
reconcile phase started
deployment.apps/second-nginx reconcile successful
reconcile phase finished
prune phase started
deployment.apps/first-nginx prune successful
prune phase finished
reconcile phase started
deployment.apps/first-nginx reconcile successful
reconcile phase finished
inventory update started
inventory update finished
apply result: 1 attempted, 1 successful, 0 skipped, 0 failed
prune result: 2 attempted, 2 successful, 0 skipped, 0 failed
reconcile result: 3 attempted, 3 successful, 0 skipped, 0 failed, 0 timed out
`;
    const run = renderEventsText(pruneDependsOnRun('prune-depends-on'));
    expect(run.text).toBe(expected);
    expect(run.exitCode).toBe(0);
  });

  it('matches the continue-on-error example (reference §10.1) and exits 3', () => {
    const ns = id('', 'Namespace', '', 'continue-err-namespace');
    const podA = id('', 'Pod', 'continue-err-namespace', 'pod-a');
    const podB = id('', 'Pod', 'continue-err-namespace', 'pod-B');
    const error =
      'error when creating "pod-b.yaml": Pod "pod-B" is invalid: metadata.name: Invalid value: "pod-B": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters';
    const run = renderEventsText([
      { type: 'init', groups: [] },
      ...phase('Inventory'),
      ...phase('Apply', applied(ns)),
      ...phase('Wait', waited(ns)),
      ...phase('Apply', applied(podA), applied(podB, 'Failed', error)),
      ...phase('Wait', waited(podB, 'Skipped'), waited(podA)),
      ...phase('Inventory'),
    ]);
    expect(run.text).toBe(`inventory update started
inventory update finished
apply phase started
namespace/continue-err-namespace apply successful
apply phase finished
reconcile phase started
namespace/continue-err-namespace reconcile successful
reconcile phase finished
apply phase started
pod/pod-a apply successful
pod/pod-B apply failed: ${error}
apply phase finished
reconcile phase started
pod/pod-B reconcile skipped
pod/pod-a reconcile successful
reconcile phase finished
inventory update started
inventory update finished
apply result: 3 attempted, 2 successful, 0 skipped, 1 failed
reconcile result: 3 attempted, 2 successful, 1 skipped, 0 failed, 0 timed out
`);
    expect(run.exitCode).toBe(3);
  });

  it('stops at a fatal error without a summary, as the cli-utils list printer does', () => {
    const run = renderEventsText([
      ...phase('Inventory'),
      started('Apply'),
      { type: 'error', error: 'polling failed' },
      applied(dep),
    ]);
    expect(run.text).toBe('inventory update started\ninventory update finished\napply phase started\n');
    expect(run).toMatchObject({ exitCode: 1, error: 'polling failed' });
  });

  it('counts the json-output run (two waves each way) as kpt does', () => {
    const run = renderEventsText(jsonOutputRun('json-output'));
    expect(run.text.split('\n').slice(-4)).toEqual([
      'apply result: 2 attempted, 2 successful, 0 skipped, 0 failed',
      'prune result: 2 attempted, 2 successful, 0 skipped, 0 failed',
      'reconcile result: 4 attempted, 4 successful, 0 skipped, 0 failed, 0 timed out',
      '',
    ]);
  });
});

describe('EventStats, summary lines and exit code', () => {
  const tally = (events: RunEvent[]) => {
    const stats = new EventStats();
    for (const e of events) stats.add(e);
    return stats;
  };

  it('does not count pending waits, and prints only groups that counted something', () => {
    const stats = tally([waited(dep, 'Pending'), deleted(dep), deleted(cron, 'Skipped', 'kept')]);
    expect(renderSummaryText(stats)).toEqual([
      'delete result: 2 attempted, 1 successful, 1 skipped, 0 failed',
    ]);
    expect(renderSummaryText(new EventStats())).toEqual([]);
  });

  it.each<[string, RunEvent[], 0 | 3, string | undefined]>([
    ['all successful', [applied(dep), waited(dep)], 0, undefined],
    [
      'skips never fail',
      [applied(dep, 'Skipped', 'x'), pruned(cron, 'Skipped', 'x'), waited(dep, 'Skipped')],
      0,
      undefined,
    ],
    ['an apply failure', [applied(dep, 'Failed', 'x'), applied(cron)], 3, '1 resources failed'],
    ['a prune failure', [pruned(dep, 'Failed', 'x')], 3, '1 resources failed'],
    [
      'a timeout',
      [applied(dep), waited(dep, 'Timeout')],
      3,
      '1 resources failed to reconcile before timeout',
    ],
    [
      'both',
      [applied(dep, 'Failed', 'x'), deleted(cron, 'Failed', 'y'), waited(dep, 'Failed')],
      3,
      '2 resources failed, 1 resources failed to reconcile before timeout',
    ],
  ])('%s', (_name, events, code, message) => {
    const stats = tally(events);
    expect(exitCodeOf(outcomeOf(stats))).toBe(code);
    expect(resultErrorMessage(stats)).toBe(message);
  });
});
