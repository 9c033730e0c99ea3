import { describe, expect, it } from 'vitest';
import { formatPath, shortValue } from '../../../src/preview/diff-format.js';
import type { FieldChange, PreviewDocument } from '../../../src/preview/types.js';
import { renderWaveGraph } from '../../../src/report/preview-mermaid.js';
import { changeWords, countPhrases, displayPath, shortenPath } from '../../../src/report/preview-words.js';
import { wordpressPreview } from './preview-fixtures.js';

describe('paths and values', () => {
  it.each<[(string | number)[], string]>([
    [['spec', 'template', 'spec', 'containers', 0, 'image'], 'spec.template.spec.containers[0].image'],
    [['metadata', 'labels', 'app.kubernetes.io/name'], 'metadata.labels["app.kubernetes.io/name"]'],
    [['data', 'tls.crt'], 'data["tls.crt"]'],
    [['data', 'my-key_1'], 'data.my-key_1'],
  ])('formatPath %j', (segments, expected) => {
    expect(formatPath(segments)).toBe(expected);
  });

  it.each<[unknown, string]>([
    ['', '""'],
    ['nginx:1.25', 'nginx:1.25'],
    ['first\nsecond', 'first …'],
    [3, '3'],
    [false, 'false'],
    [null, 'null'],
    [{ a: [1, 2] }, '{"a":[1,2]}'],
    ['x'.repeat(100), `${'x'.repeat(59)}…`],
  ])('shortValue %j', (value, expected) => {
    expect(shortValue(value)).toBe(expected);
  });

  it.each<[string, string]>([
    ['spec.replicas', 'spec.replicas'],
    [
      'spec.template.spec.containers[0].envFrom[0].configMapRef.name',
      '…containers[0].envFrom[0].configMapRef.name',
    ],
    ['spec.template.spec.containers[0].resources.limits.cpu', '…spec.containers[0].resources.limits.cpu'],
    [
      'metadata.annotations["config.kubernetes.io/depends-on"]',
      '…annotations["config.kubernetes.io/depends-on"]',
    ],
  ])('shortenPath %s', (path, expected) => {
    expect(shortenPath(path)).toBe(expected);
  });

  it('shows a Secret key alone, quoted keys unquoted', () => {
    const c = (path: string, redacted = true): FieldChange => ({ path, op: 'change', redacted });
    expect(displayPath(c('data.password'))).toBe('password');
    expect(displayPath(c('data["tls.crt"]'))).toBe('tls.crt');
    expect(displayPath(c('metadata.annotations.note'))).toBe('metadata.annotations.note');
    expect(displayPath(c('data.password', false))).toBe('data.password');
  });

  it.each<[FieldChange, string]>([
    [{ path: 'spec.replicas', op: 'change', before: '1', after: '2' }, '1 → 2'],
    [{ path: 'x', op: 'change', before: 'a'.repeat(30), after: 'b' }, 'changed'],
    [{ path: 'x', op: 'add', after: '1' }, 'added'],
    [{ path: 'x', op: 'remove', before: '1' }, 'removed'],
    [
      { path: 'data.k', op: 'change', redacted: true, beforeBytes: 1, afterBytes: 2 },
      'changed (value hidden)',
    ],
  ])('changeWords %j', (change, expected) => {
    expect(changeWords(change)).toBe(expected);
  });

  it('counts only non-zero actions, in reading order', () => {
    const summary = {
      create: 1,
      configure: 0,
      unchanged: 4,
      prune: 2,
      skip: 0,
      error: 1,
      replace: 0,
      orphan: 0,
    };
    expect(countPhrases(summary)).toEqual(['1 to create', '2 to prune', '1 error', '4 unchanged']);
  });
});

describe('renderWaveGraph', () => {
  it('draws one subgraph per wave and arrows from each dependency to its dependent', () => {
    expect(renderWaveGraph(wordpressPreview())).toBe(`flowchart LR
  subgraph wave1 ["wave 1"]
    n0["ConfigMap/wp-config-2"]
    n1["Secret/mysql-pass"]
    n2["Deployment/wordpress-mysql"]
    n3["Service/wordpress-mysql"]
  end
  subgraph wave2 ["wave 2"]
    n4["Deployment/wordpress"]
    n5["Service/wordpress"]
  end
  n2 --> n4`);
  });

  it('links waves in order when no depends-on edges are known, and escapes quotes', () => {
    const doc: PreviewDocument = {
      ...wordpressPreview(),
      waves: [['Namespace/a"b'], ['ConfigMap/c']],
      edges: [],
    };
    expect(renderWaveGraph(doc)).toContain('n0["Namespace/a#quot;b"]');
    expect(renderWaveGraph(doc)).toContain('wave1 --> wave2');
  });

  it('collapses big graphs to one box per wave, and draws nothing for a single wave', () => {
    const many = Array.from({ length: 50 }, (_, i) => `ConfigMap/c${i}`);
    const doc: PreviewDocument = { ...wordpressPreview(), waves: [many.slice(0, 49), many.slice(49)] };
    expect(renderWaveGraph(doc)).toBe(
      'flowchart LR\n  wave1["wave 1: 49 objects"]\n  wave2["wave 2: 1 object"]\n  wave1 --> wave2',
    );
    expect(renderWaveGraph({ ...doc, waves: [many] })).toBeUndefined();
  });
});
