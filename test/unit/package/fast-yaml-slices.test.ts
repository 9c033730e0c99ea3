import { describe, expect, it } from 'vitest';
import { readFastYaml, readFastYamlInSlices } from '../../../src/package/fast-yaml.js';

const roles = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: role-${i}\n  namespace: ns\nrules:\n- apiGroups: [""]\n  resources: [configmaps]\n  verbs: [get]\n`,
  ).join('---\n');

describe('readFastYamlInSlices', () => {
  it('reads what readFastYaml reads, handing each slice on and giving the event loop turns', async () => {
    const text = roles(1000);
    const slices: number[] = [];
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const docs = await readFastYamlInSlices(text, { sliceMs: 0, onSlice: (d) => slices.push(d.length) });
    clearInterval(ticker);
    expect(docs).toEqual(readFastYaml(text));
    expect(docs).toHaveLength(1000);
    // every document is in exactly one slice, in order
    expect(slices.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(slices.length).toBeGreaterThan(1);
    // a timer due meanwhile ran before the reading ended
    expect(turns).toBeGreaterThan(0);
  });

  it('gives up where readFastYaml does: undefined for what only the full reader may read', async () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: 1\n--- b: 2\n',
      `${roles(3)}---\n%YAML 1.2\n`,
      'a: [1,\n2]\n',
    ]) {
      expect(readFastYaml(text)).toBeUndefined();
      expect(await readFastYamlInSlices(text, { sliceMs: 0 })).toBeUndefined();
    }
  });

  it('reads in one slice when the slice outlasts the reading', async () => {
    const slices: number[] = [];
    const docs = await readFastYamlInSlices(roles(3), {
      sliceMs: 60_000,
      onSlice: (d) => slices.push(d.length),
    });
    expect(docs).toHaveLength(3);
    expect(slices).toEqual([3]);
  });
});
