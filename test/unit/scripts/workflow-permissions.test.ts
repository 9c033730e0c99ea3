import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Every workflow that runs the action grants exactly the `permissions:` the README's table gives for its
 * mode and inputs: no more (least privilege), no less (a missing one turns into a skip notice at best).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const files = ['.github/workflows', 'examples/workflows'].flatMap((d) =>
  fs
    .readdirSync(path.join(root, d))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join(d, f)),
);

type Permissions = Record<string, 'read' | 'write'>;
interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  permissions?: Permissions;
  steps?: Step[];
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean; queue?: string };
}

const isAction = (s: Step) => s.uses === './' || /^kpt-live-action\/kpt-live-action@/.test(s.uses ?? '');
const off = (v: unknown) => ['false', 'never'].includes(String(v));

/** The README's permissions table, per mode and inputs. */
function needed(mode: string, w: Record<string, unknown>, pullRequestEvent: boolean): Permissions {
  const p: Permissions = { contents: 'read' };
  const grant = (name: string, level: 'read' | 'write') => {
    if (p[name] !== 'write') p[name] = level;
  };
  const explicit = typeof w.packages === 'string' && w.packages.trim() !== '';
  if (mode === 'preview') {
    if (!off(w.comment ?? 'changes')) grant('pull-requests', 'write');
    else if (!explicit) grant('pull-requests', 'read'); // the pull request's files
  } else if (mode === 'apply') {
    if (!off(w['comment-on-apply'] ?? 'true')) grant('pull-requests', 'write');
    else if ((w['plan-drift'] ?? 'warn') !== 'ignore') grant('pull-requests', 'read');
  } else if (mode === 'drift') {
    if (String(w['drift-issue'] ?? 'false') === 'true') grant('issues', 'write');
  } else if (mode === 'resolve' && pullRequestEvent && !explicit) grant('pull-requests', 'read');
  return p;
}

function modeOf(step: Step, job: Job, events: string[]): string {
  const m = String(step.with?.mode ?? 'auto');
  if (m !== 'auto') return m;
  const cond = job.if ?? '';
  if (/event_name == 'pull_request(_target)?'/.test(cond)) return 'preview';
  if (/event_name == 'push'/.test(cond)) return 'apply';
  if (events.length === 1) return events[0].startsWith('pull_request') ? 'preview' : 'apply';
  throw new Error(`cannot tell which mode "auto" means in this job (${cond || 'no if:'})`);
}

describe('example and repository workflows grant exactly the permissions the action needs', () => {
  it.each(files)('%s', (file) => {
    const wf = parse(fs.readFileSync(path.join(root, file), 'utf8')) as {
      on: unknown;
      permissions?: Permissions;
      jobs: Record<string, Job>;
    };
    // least privilege starts at the top: every workflow says what its token may do
    expect(wf.permissions, 'top-level permissions').toBeDefined();
    const events = typeof wf.on === 'string' ? [wf.on] : Object.keys(wf.on as object);
    for (const [name, job] of Object.entries(wf.jobs)) {
      const steps = (job.steps ?? []).filter(isAction);
      if (steps.length === 0) continue;
      const want: Permissions = {};
      for (const s of steps) {
        const mode = modeOf(s, job, events);
        const pr = /pull_request/.test(job.if ?? '') || events.some((e) => e.startsWith('pull_request'));
        for (const [k, v] of Object.entries(needed(mode, s.with ?? {}, pr)))
          if (want[k] !== 'write') want[k] = v;
      }
      expect(job.permissions ?? wf.permissions, `job ${name}`).toEqual(want);
    }
  });

  it.each(files.filter((f) => f.startsWith('examples/')))(
    '%s: applies queue every pending run and never cancel one; previews run one at a time per pull request',
    (file) => {
      const wf = parse(fs.readFileSync(path.join(root, file), 'utf8')) as {
        on: unknown;
        jobs: Record<string, Job>;
      };
      const events = typeof wf.on === 'string' ? [wf.on] : Object.keys(wf.on as object);
      for (const [name, job] of Object.entries(wf.jobs)) {
        const modes = (job.steps ?? []).filter(isAction).map((s) => modeOf(s, job, events));
        if (modes.some((m) => m === 'apply' || m === 'destroy' || m === 'rollback'))
          expect(job.concurrency, `job ${name}`).toMatchObject({ 'cancel-in-progress': false, queue: 'max' });
        if (modes.includes('preview')) {
          expect(job.concurrency?.group, `job ${name}`).toMatch(/github\.event\.pull_request\.number/);
          expect(job.concurrency?.['cancel-in-progress'], `job ${name}`).toBe(true);
        }
      }
    },
  );

  it('the table itself: a preview that comments needs pull-requests: write, drift issues issues: write', () => {
    expect(needed('preview', {}, true)).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(needed('preview', { comment: 'never' }, true)).toEqual({
      contents: 'read',
      'pull-requests': 'read',
    });
    expect(needed('apply', {}, false)).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(needed('apply', { 'comment-on-apply': 'false' }, false)).toEqual({
      contents: 'read',
      'pull-requests': 'read',
    });
    expect(needed('drift', { 'drift-issue': 'true' }, false)).toEqual({ contents: 'read', issues: 'write' });
    expect(needed('destroy', { packages: 'deploy/a' }, false)).toEqual({ contents: 'read' });
  });
});
