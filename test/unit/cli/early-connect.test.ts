import { describe, expect, it } from 'vitest';
import { earlyClusterFlags } from '../../../src/cli/early-connect.js';

describe('earlyClusterFlags: the cluster flags read before the command line is parsed', () => {
  it.each([
    [['apply', 'pkg'], {}],
    [['preview', 'a', 'b', '--kubeconfig', 'k.yaml'], { kubeconfig: 'k.yaml' }],
    [['destroy', '--kubeconfig=k.yaml', '--context', 'prod'], { kubeconfig: 'k.yaml', context: 'prod' }],
    [['status', '--context=dev', 'pkg'], { context: 'dev' }],
    [['drift', '--kubeconfig', 'a', '--kubeconfig', 'b'], { kubeconfig: 'b' }],
    // after `--` every word is a DIR
    [['apply', '--', '--kubeconfig', 'k'], {}],
  ])('%j → %j', (argv, flags) => {
    expect(earlyClusterFlags(argv)).toEqual(flags);
  });

  it.each([
    [['init', 'pkg']],
    [['history', 'pkg']],
    [['apply', '--help']],
    [['preview', '-h']],
    [['--version']],
    [[]],
  ])('%j: no early connection', (argv) => {
    expect(earlyClusterFlags(argv)).toBeUndefined();
  });
});
