import { describe, expect, it } from 'vitest';
import { formatRejections } from '../../../src/apply/preflight.js';
import type { RunState } from '../../../src/apply/run-state.js';
import type { ObjectId } from '../../../src/common/object-id.js';

const id = (name: string): ObjectId => ({ group: '', kind: 'ConfigMap', namespace: 'app', name });
const state = {
  sources: new Map([['_ConfigMap_app_a', { file: 'pkg/a.yaml', line: 3 }]]),
} as unknown as RunState;

describe('formatRejections', () => {
  it('calls a judged refusal a rejection, never an unanswered request', () => {
    const text = formatRejections(state, [
      { id: id('a'), message: 'conflict: .data.x is owned by "kubectl"' },
    ]);
    expect(text).toMatch(/^pre-flight server-side dry-run rejected 1 object\(s\); nothing was changed:\n- /);
    expect(text).toContain('ConfigMap/a: conflict: .data.x is owned by "kubectl"');
    expect(text).not.toMatch(/could not complete|did not answer|unreachable/);
  });

  it('keeps "could not complete" for what retries could not get through, apart from rejections', () => {
    const text = formatRejections(state, [
      { id: id('a'), message: 'conflict' },
      { id: id('b'), message: 'HTTP 503', unanswered: true },
    ]);
    const [rejected, unanswered] = text.split('\npre-flight');
    expect(rejected).toContain('rejected 1 object(s)');
    expect(rejected).not.toContain('ConfigMap/b');
    expect(unanswered).toMatch(
      /could not complete for 1 object\(s\) \(the API server did not answer, after retries\)/,
    );
    expect(unanswered).toContain('ConfigMap/b: HTTP 503');
  });
});
