import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import type { CliContext } from '../../../src/cli/cli-io.js';
import {
  newViewState,
  Progress,
  progressStyle,
  renderView,
  updateViewState,
} from '../../../src/cli/progress.js';
import type { ObjectId } from '../../../src/common/object-id.js';

const deploy: ObjectId = { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'frontend' };
const sts: ObjectId = { group: 'apps', kind: 'StatefulSet', namespace: 'web', name: 'db' };
const cm: ObjectId = { group: '', kind: 'ConfigMap', namespace: 'web', name: 'settings' };

const waitStarted: RunEvent = { type: 'group', name: 'wait-0', action: 'Wait', status: 'Started' };
const pending = (id: ObjectId): RunEvent => ({ type: 'wait', group: 'wait-0', id, status: 'Pending' });

function ctxWith(stderrTTY: boolean, stdoutTTY = stderrTTY) {
  const out = { stdout: '', stderr: '' };
  const ctx: CliContext = {
    stdout: { write: (t: string) => (out.stdout += t), isTTY: stdoutTTY },
    stderr: { write: (t: string) => (out.stderr += t), isTTY: stderrTTY, columns: 80 },
    cwd: '/',
    env: {},
  };
  return { ctx, out };
}

describe('progressStyle', () => {
  it.each([
    ['auto', true, 'events', 'view'],
    ['auto', false, 'events', 'lines'],
    ['always', false, 'json', 'view'],
    ['never', true, 'events', 'lines'],
    ['auto', true, 'table', 'off'],
  ] as const)('--progress %s, terminal %s, --output %s: %s', (mode, tty, output, want) => {
    expect(progressStyle(mode, ctxWith(tty).ctx, output)).toBe(want);
  });
});

describe('the progress view', () => {
  it('lists what the current wait still waits for, with its latest status and the time waited', () => {
    const s = newViewState(0);
    updateViewState(s, { type: 'group', name: 'apply-0', action: 'Apply', status: 'Started' }, 0);
    updateViewState(s, { type: 'status', id: sts, status: 'InProgress', message: 'Ready: 0/1' }, 100);
    updateViewState(s, waitStarted, 1000);
    updateViewState(s, { type: 'wait', group: 'wait-0', id: cm, status: 'Successful' }, 1000);
    updateViewState(s, pending(deploy), 1000);
    updateViewState(s, pending(sts), 1000);
    updateViewState(s, { type: 'status', id: deploy, status: 'InProgress', message: 'Available: 0/2' }, 1500);
    expect(renderView(s, 13_300)).toEqual([
      '… waiting for 2 of 3 object(s) to reconcile (12.3s; run 13.3s)',
      '    deployment.apps/frontend  InProgress   Available: 0/2',
      '    statefulset.apps/db       InProgress   Ready: 0/1',
    ]);
    updateViewState(s, { type: 'wait', group: 'wait-0', id: deploy, status: 'Successful' }, 14_000);
    expect(renderView(s, 14_000)[0]).toBe('… waiting for 1 of 3 object(s) to reconcile (13.0s; run 14.0s)');
    updateViewState(s, { type: 'group', name: 'wait-0', action: 'Wait', status: 'Finished' }, 15_000);
    expect(renderView(s, 15_000)).toEqual([]);
  });

  it('says "to be deleted" after a prune or delete phase, and clips lines to the terminal width', () => {
    const s = newViewState(0);
    updateViewState(s, { type: 'group', name: 'prune-0', action: 'Prune', status: 'Started' }, 0);
    updateViewState(s, waitStarted, 0);
    updateViewState(s, pending(deploy), 0);
    updateViewState(s, { type: 'status', id: deploy, status: 'Terminating', message: 'x'.repeat(200) }, 0);
    const lines = renderView(s, 2000, 70);
    expect(lines[0]).toBe('… waiting for 1 of 1 object(s) to be deleted (2.0s; run 2.0s)');
    expect(lines[1]).toHaveLength(69);
    expect(lines[1].endsWith('…')).toBe(true);
  });

  it("shows the engine's note (e.g. a lock wait) when no object is pending", () => {
    const s = newViewState(0);
    s.note = 'waiting for another run of this package to finish (lock held by ci-123)';
    expect(renderView(s, 0)).toEqual([
      '… waiting for another run of this package to finish (lock held by ci-123)',
    ]);
  });

  it('erases itself around stdout lines and redraws below them; stop() leaves no view behind', () => {
    const { ctx, out } = ctxWith(true);
    let t = 0;
    const p = new Progress(ctx, 'view', () => t);
    p.event(waitStarted);
    p.event(pending(deploy));
    expect(out.stderr).toBe(
      '… waiting for 1 of 1 object(s) to reconcile (0ms; run 0ms)\n    deployment.apps/frontend  Unknown\n',
    );
    t = 1500;
    p.out('deployment.apps/frontend reconcile pending\n');
    expect(out.stdout).toBe('deployment.apps/frontend reconcile pending\n');
    expect(
      out.stderr.endsWith(
        '\u001b[2A\u001b[0J… waiting for 1 of 1 object(s) to reconcile (1.5s; run 1.5s)\n    deployment.apps/frontend  Unknown\n',
      ),
    ).toBe(true);
    p.stop();
    expect(out.stderr.endsWith('\u001b[2A\u001b[0J')).toBe(true);
  });

  it("in lines style prints only the engine's progress lines, and no escape codes", () => {
    const { ctx, out } = ctxWith(false);
    const p = new Progress(ctx, 'lines');
    p.event(waitStarted);
    p.event(pending(deploy));
    p.line('waiting 10.0s for 1 object(s): Deployment/frontend InProgress');
    p.out('line\n');
    p.stop();
    expect(out.stderr).toBe('waiting 10.0s for 1 object(s): Deployment/frontend InProgress\n');
    expect(out.stdout).toBe('line\n');
  });
});
