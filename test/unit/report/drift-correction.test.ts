import { describe, expect, it } from 'vitest';
import { idOf } from '../../../src/common/object-id.js';
import { classifyDrift } from '../../../src/drift/classify-drift.js';
import type { DriftCorrection } from '../../../src/drift/types.js';
import type { DriftRunResult } from '../../../src/pipeline/drift-package.js';
import {
  correctionMessage,
  correctionWords,
  renderCorrectedComment,
  renderCorrectionMarkdown,
  renderCorrectionText,
} from '../../../src/report/drift-correction.js';
import { driftDocument, driftPackageJson } from '../../../src/report/drift-json.js';
import { renderDriftIssueBody, renderDriftMarkdown } from '../../../src/report/drift-markdown.js';
import { buildDocument, configMap, deployment, PLANTED, PLANTED_B64, secret } from './preview-fixtures.js';

/** A drifted package as the drift run builds it: a hand edit, a Secret edited, a missing and a left-over object. */
function driftedRun(correction?: DriftCorrection): DriftRunResult {
  const preview = buildDocument([
    {
      live: configMap('settings', { greeting: 'edited' }),
      desired: configMap('settings', { greeting: 'hello' }),
      action: 'configure',
    },
    {
      live: secret('db', { password: Buffer.from('changed-by-hand').toString('base64') }),
      desired: secret('db', { password: PLANTED_B64 }, { token: PLANTED }),
      action: 'configure',
    },
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
    { id: web, status: 'Failed', message: 'Progress deadline exceeded' },
  ]);
  // the ownership rule's note on the hand edit, as the preview words it
  objects[0].message = '.data.greeting: "edited" → "hello", reverts an edit by kubectl-patch';
  return {
    path: 'deploy/wordpress',
    outcome: 'drifted',
    objects,
    notices: [],
    preview,
    exitCode: 4,
    ...(correction ? { correction } : {}),
  };
}

const corrected: DriftCorrection = {
  result: 'corrected',
  summary: { created: 1, configured: 2, unchanged: 1, pruned: 1, skipped: 0, failed: 0 },
};
const refused: DriftCorrection = {
  result: 'failed',
  reason:
    'pre-flight server-side dry-run rejected 1 object(s); nothing was changed:\n- deploy/wordpress/cm.yaml:1: ConfigMap/settings: conflict: .data.mode is owned by field manager "other-tool"',
};
const held: DriftCorrection = {
  result: 'held',
  reason:
    'tree of bbbbbbb failed; not corrected until deploy/wordpress changes or `kpt-live apply deploy/wordpress` succeeds',
};

describe('drift correction in words', () => {
  it('one line per verdict; the whole message keeps every line of a refusal', () => {
    expect(correctionWords(corrected)).toBe(
      'corrected: re-applied (2 configured, 1 created, 1 pruned, 1 unchanged)',
    );
    expect(correctionWords(refused)).toBe(
      'correction failed: pre-flight server-side dry-run rejected 1 object(s); nothing was changed:',
    );
    expect(correctionMessage(refused)).toContain(
      '\n- deploy/wordpress/cm.yaml:1: ConfigMap/settings: conflict',
    );
    expect(correctionWords(held)).toMatch(
      /^held, not corrected: tree of bbbbbbb failed; not corrected until/,
    );
    expect(correctionWords({ result: 'left', reason: 'only status drift' })).toBe(
      'not corrected: only status drift',
    );
    expect(
      renderCorrectionText('deploy/wordpress', { ...refused, failed: ['Deployment/web: timed out'] }),
    ).toBe(
      'deploy/wordpress: correction failed: pre-flight server-side dry-run rejected 1 object(s); nothing was changed:\n  Deployment/web: timed out\n',
    );
  });

  it('markdown: the verdict in bold, each further line of the reason a list item, escaped', () => {
    const md = renderCorrectionMarkdown(refused);
    expect(md.split('\n')).toEqual([
      ':x: **Correction failed**: pre-flight server-side dry-run rejected 1 object(s); nothing was changed:',
      '- deploy/wordpress/cm.yaml:1: ConfigMap/settings: conflict: .data.mode is owned by field manager "other-tool"',
    ]);
    const nasty = renderCorrectionMarkdown({
      result: 'failed',
      reason: 'a <script> and a `tick` | and *stars*',
    });
    expect(nasty).toBe(':x: **Correction failed**: a \\<script\\> and a \\`tick\\` | and \\*stars\\*');
  });

  it('the JSON carries the correction of a drifted package, and nothing for one never corrected', () => {
    expect(driftPackageJson(driftedRun(corrected)).correction).toEqual(corrected);
    expect('correction' in driftPackageJson(driftedRun())).toBe(false);
    const doc = driftDocument([driftedRun(held)]);
    expect(doc.packages[0]).toMatchObject({ path: 'deploy/wordpress', drifted: true, correction: held });
  });

  it('the job summary and the issue say held or failed beside the drift; corrected drift reads as past', () => {
    const heldMd = renderDriftMarkdown(driftPackageJson(driftedRun(held)));
    expect(heldMd).toContain(':warning: **5 object(s) differ from the package**');
    expect(heldMd).toContain(':pause_button: **Held, not corrected**: tree of bbbbbbb failed');
    const fixedMd = renderDriftMarkdown(driftPackageJson(driftedRun(corrected)));
    expect(fixedMd).toContain(':white_check_mark: **5 object(s) differed from the package**');
    expect(fixedMd).toContain(
      ':wrench: **Corrected**: re-applied (2 configured, 1 created, 1 pruned, 1 unchanged)',
    );
    const body = renderDriftIssueBody(driftPackageJson(driftedRun(refused)), {
      checkedAt: '2026-01-01T00:00:00Z',
    });
    expect(body).toContain(':x: **Correction failed**: pre-flight');
    expect(body).toContain('field manager "other-tool"');
  });

  it('the closing comment lists what was reverted, names who edited by hand, and never a Secret value', () => {
    const pkg = driftPackageJson(driftedRun(corrected));
    const comment = renderCorrectedComment(pkg, {
      namespace: 'shop',
      runUrl: 'https://github.example/acme/platform/actions/runs/7',
      commit: 'c'.repeat(40),
      at: '2026-01-01T00:00:00Z',
    });
    expect(comment.split('\n')).toEqual([
      'Corrected: drift correction re-applied `deploy/wordpress` in https://github.example/acme/platform/actions/runs/7 from commit `cccccccccccc` at 2026-01-01T00:00:00Z (2 configured, 1 created, 1 pruned, 1 unchanged). Reverted:',
      '',
      '- `ConfigMap/settings`: `data.greeting` edited → hello (an edit by `kubectl-patch`)',
      expect.stringMatching(
        /^- `Secret\/db`: `password` changed \(value hidden\)(; `token` added \(value hidden\))?$/,
      ),
      '- `ConfigMap/missing`: created again (it was missing from the cluster)',
      '- `ConfigMap/old`: pruned (no longer in the package)',
      '- `Deployment/web`: re-applied; it was Failed',
      '',
      'The cluster matches the package again. Closing.',
    ]);
    for (const form of [
      PLANTED,
      PLANTED_B64,
      'changed-by-hand',
      Buffer.from('changed-by-hand').toString('base64'),
    ])
      expect(comment).not.toContain(form);
  });
});
