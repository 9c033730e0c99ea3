import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import type { KubeObject } from '../../../src/common/kube-object.js';
import { idOf } from '../../../src/common/object-id.js';
import { collectSecretValues } from '../../../src/preview/redact.js';
import { renderEventsJson } from '../../../src/report/events-json.js';
import { renderEventsText } from '../../../src/report/events-text.js';
import { renderApplyJobSummary, renderPreviewJobSummary } from '../../../src/report/job-summary.js';
import { renderPreviewMarkdown } from '../../../src/report/preview-markdown.js';
import { renderPreviewText } from '../../../src/report/preview-text.js';
import { expectGolden } from './golden.js';
import { buildDocument, configMap, PLANTED, PLANTED_B64 } from './preview-fixtures.js';
import { applied, phase, waited } from './run-events.js';

/**
 * A known value planted everywhere a Secret can carry it: `data` (base64), `stringData` (plain), the
 * `last-applied-configuration` annotation, an ordinary annotation, another object's annotation, and a
 * server error message. No rendering may contain it in any form.
 */
const FORMS = [PLANTED, PLANTED_B64, JSON.stringify(PLANTED).slice(1, -1)];

function plantedSecret(password: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db-credentials',
      namespace: 'shop',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          apiVersion: 'v1',
          kind: 'Secret',
          data: { password },
          stringData: { token: PLANTED },
        }),
        'example.com/debug-copy': `token was ${PLANTED}`,
      },
    },
    type: 'Opaque',
    data: { password, user: Buffer.from('admin-user').toString('base64') },
    ...extra,
  };
}

function plantedDocument() {
  const live = plantedSecret(Buffer.from('an-older-value').toString('base64'));
  const desired = plantedSecret(PLANTED_B64, { stringData: { token: PLANTED } });
  const newSecret = plantedSecret(PLANTED_B64, { metadata: { name: 'new-secret', namespace: 'shop' } });
  const leakyConfig = configMap(
    'app-config',
    { DB_URL: 'postgres://db:5432/app' },
    { 'example.com/copied': PLANTED_B64 },
  );
  const leakyConfigLive = configMap(
    'app-config',
    { DB_URL: 'postgres://old:5432/app' },
    { 'example.com/copied': 'none' },
  );
  return buildDocument([
    { live, desired, action: 'configure', file: 'deploy/wordpress/secret.yaml' },
    { desired: newSecret, action: 'create' },
    { live: leakyConfigLive, desired: leakyConfig, action: 'configure' },
    {
      desired: plantedSecret(PLANTED_B64, { metadata: { name: 'old-secret', namespace: 'shop' } }),
      action: 'prune',
    },
  ]);
}

function expectNoSecret(name: string, text: string) {
  for (const form of FORMS) expect(text.includes(form), `${name} contains ${form}`).toBe(false);
}

describe('a planted secret value appears in no output', () => {
  const doc = plantedDocument();
  const values = collectSecretValues([plantedSecret(PLANTED_B64, { stringData: { token: PLANTED } })]);

  it('the document says which keys changed, by size only', () => {
    const secret = doc.objects[0];
    expect(secret.changes).toEqual(
      expect.arrayContaining([
        { path: 'data.password', op: 'change', redacted: true, beforeBytes: 14, afterBytes: PLANTED.length },
        { path: 'data.token', op: 'add', redacted: true, afterBytes: PLANTED.length },
      ]),
    );
    expect(secret.diff).toContain('example.com/debug-copy: (hidden)');
  });

  it.each<[string, () => string]>([
    ['PR comment markdown', () => renderPreviewMarkdown(doc)],
    ['truncated PR comment', () => renderPreviewMarkdown(doc, { maxLength: 1200 })],
    ['terminal text', () => renderPreviewText(doc)],
    ['preview job summary', () => renderPreviewJobSummary(doc)],
    ['JSON of the preview document', () => JSON.stringify(doc)],
    [
      'events text',
      () => {
        const id = idOf(plantedSecret(PLANTED_B64));
        const events: RunEvent[] = [
          ...phase(
            'Apply',
            applied(id, 'Failed', `Secret "db-credentials" is invalid: data[token]: ${PLANTED}`),
          ),
          ...phase('Wait', waited(id, 'Skipped')),
          { type: 'status', id, status: 'Failed', message: `echo ${PLANTED_B64}` },
          { type: 'error', error: `fatal: ${PLANTED}` },
        ];
        const run = renderEventsText(events, { showStatusEvents: true, secretValues: values });
        return run.text + (run.error ?? '');
      },
    ],
    [
      'events JSON lines',
      () => {
        const id = idOf(plantedSecret(PLANTED_B64));
        const events = phase('Apply', applied(id, 'Failed', `bad value ${PLANTED_B64}`));
        return renderEventsJson(events, { secretValues: values }).text;
      },
    ],
    [
      'apply job summary',
      () =>
        renderApplyJobSummary(
          {
            package: 'deploy/wordpress',
            outcome: 'failure',
            durationMs: 1000,
            objects: [
              {
                id: idOf(plantedSecret(PLANTED_B64)),
                action: 'failed',
                status: 'Failed',
                message: `webhook rejected ${PLANTED}`,
                conditions: [`Ready=False: ${PLANTED_B64}`],
              },
            ],
            error: `1 resources failed: ${PLANTED}`,
          },
          { secretValues: values },
        ),
    ],
  ])('%s', (name, render) => {
    const text = render();
    expect(text.length).toBeGreaterThan(0);
    expectNoSecret(name, text);
  });

  it('preview-secret.golden.md: keys, sizes and hidden annotations a reviewer can check', () => {
    expectGolden('preview-secret.golden.md', renderPreviewMarkdown(doc));
  });

  it('the check itself would catch a leak (the planted value is really in the inputs)', () => {
    expect(JSON.stringify(plantedSecret(PLANTED_B64, { stringData: { token: PLANTED } }))).toContain(PLANTED);
    expect(renderEventsText([applied(idOf(plantedSecret(PLANTED_B64)), 'Failed', PLANTED)]).text).toContain(
      PLANTED,
    );
  });
});
