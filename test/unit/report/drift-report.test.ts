import { describe, expect, it } from 'vitest';
import { idOf } from '../../../src/common/object-id.js';
import { classifyDrift } from '../../../src/drift/classify-drift.js';
import type { DriftPackage } from '../../../src/drift/types.js';
import type { DriftRunResult } from '../../../src/pipeline/drift-package.js';
import { driftPackageJson } from '../../../src/report/drift-json.js';
import {
  driftIssueTitle,
  driftMarker,
  renderDriftIssueBody,
  renderDriftMarkdown,
} from '../../../src/report/drift-markdown.js';
import { renderDriftText } from '../../../src/report/drift-text.js';
import { buildDocument, configMap, deployment, PLANTED, PLANTED_B64, secret } from './preview-fixtures.js';

/** A drifted package as the drift run builds it: a preview with a Secret edited in the cluster. */
function driftedRun(): DriftRunResult {
  const liveSecret = secret('db', { password: Buffer.from('changed-by-hand').toString('base64') });
  const desiredSecret = secret('db', { password: PLANTED_B64 }, { token: PLANTED });
  const preview = buildDocument([
    {
      live: configMap('settings', { greeting: 'edited' }),
      desired: configMap('settings', { greeting: 'hello' }),
      action: 'configure',
    },
    { live: liveSecret, desired: desiredSecret, action: 'configure' },
    { desired: configMap('missing', { a: '1' }), action: 'create' },
    { desired: configMap('old', { a: '1' }), action: 'prune', reason: 'no longer in the package' },
    {
      live: deployment('web', 1, 'settings'),
      desired: deployment('web', 1, 'settings'),
      action: 'unchanged',
    },
  ]);
  const web = idOf(deployment('web', 1, 'settings'));
  const objects = classifyDrift(preview, [
    { id: web, status: 'InProgress', message: 'not Current after 5s: Available: 0/1' },
  ]);
  return { path: 'deploy/wordpress', outcome: 'drifted', objects, notices: [], preview, exitCode: 4 };
}

const FORMS = [PLANTED, PLANTED_B64];

describe('drift report', () => {
  const run = driftedRun();
  const pkg = driftPackageJson(run);

  it('the JSON lists only drifted objects, with the fields the JSON output documents', () => {
    expect(pkg.drifted).toBe(true);
    expect(pkg.objects.map((o) => [o.drift, o.id.kind, o.id.name])).toEqual([
      ['configure', 'ConfigMap', 'settings'],
      ['configure', 'Secret', 'db'],
      ['create', 'ConfigMap', 'missing'],
      ['prune', 'ConfigMap', 'old'],
      ['status', 'Deployment', 'web'],
    ]);
    expect(pkg.objects[0]).toEqual({
      id: { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
      drift: 'configure',
      changes: [{ path: 'data.greeting', op: 'change', before: 'edited', after: 'hello' }],
    });
    expect(pkg.objects[4]).toMatchObject({
      status: 'InProgress',
      message: 'not Current after 5s: Available: 0/1',
    });
    expect(pkg.objects[1].changes?.every((c) => c.redacted)).toBe(true);
  });

  it('text: one line per object, the fields cluster → package', () => {
    const text = renderDriftText(pkg, { preview: run.preview, namespace: 'shop' });
    expect(text).toMatch(
      /^Drift of deploy\/wordpress: 5 object\(s\) differ from the package \(2 configure, 1 create, 1 prune, 1 status\)/,
    );
    expect(text).toContain('~ ConfigMap/settings');
    expect(text).toContain('    data.greeting edited → hello');
    expect(text).toContain('+ ConfigMap/missing');
    expect(text).toContain('- ConfigMap/old');
    expect(text).toMatch(/! Deployment\/web +status: InProgress: not Current after 5s: Available: 0\/1/);
    expect(text).toContain('    password changed (value hidden)');
  });

  it('in sync and not-checked packages say so in one line', () => {
    const ok: DriftPackage = { path: 'a', drifted: false, objects: [] };
    expect(renderDriftText(ok)).toBe('Drift of a: in sync\n');
    expect(renderDriftMarkdown(ok)).toContain('In sync');
    const bad: DriftPackage = {
      path: 'a',
      drifted: false,
      objects: [],
      error: 'no inventory x/y in the cluster',
    };
    expect(renderDriftText(bad)).toBe('Drift of a: not checked (no inventory x/y in the cluster)\n');
    expect(renderDriftMarkdown(bad)).toContain('Not checked');
  });

  it('the issue starts with the marker and names the run', () => {
    const body = renderDriftIssueBody(pkg, {
      key: 'prod',
      namespace: 'shop',
      runUrl: 'https://github.example/acme/platform/actions/runs/1',
      commit: 'a'.repeat(40),
      checkedAt: '2026-01-01T00:00:00Z',
    });
    expect(body.startsWith('<!-- kpt-live-action:drift package=deploy/wordpress key=prod -->\n')).toBe(true);
    expect(body).toContain('| `ConfigMap/settings` | configure |');
    expect(body).toContain('[workflow run](https://github.example/acme/platform/actions/runs/1)');
    expect(driftIssueTitle('deploy/wordpress', 'prod')).toBe('Drift: deploy/wordpress [prod]');
  });

  it('a marker cannot be closed early by the package path', () => {
    expect(driftMarker('a-->b')).toBe('<!-- kpt-live-action:drift package=a--%3Eb -->');
    expect(driftMarker('deploy/web')).toBe('<!-- kpt-live-action:drift package=deploy/web -->');
  });

  it.each<[string, () => string]>([
    ['text', () => renderDriftText(pkg, { preview: run.preview })],
    ['markdown', () => renderDriftMarkdown(pkg)],
    ['issue body', () => renderDriftIssueBody(pkg, { checkedAt: 'now' })],
    ['JSON', () => JSON.stringify(pkg)],
  ])('no Secret value in the %s', (_name, render) => {
    const text = render();
    for (const form of FORMS) expect(text).not.toContain(form);
  });

  it('the leak check would catch a leak (the planted value is in the input)', () => {
    expect(JSON.stringify(secret('db', { password: PLANTED_B64 }))).toContain(PLANTED_B64);
  });
});
