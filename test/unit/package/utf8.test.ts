import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../../src/package/read-yaml.js';

describe('decodeUtf8', () => {
  it('decodes UTF-8 and names the line and byte of the first invalid one', () => {
    expect(decodeUtf8(Buffer.from('a: "é"\n'), 'f.yaml')).toEqual({ text: 'a: "é"\n' });
    const latin1 = Buffer.concat([
      Buffer.from('kind: ConfigMap\ndata:\n  k: caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n'),
    ]);
    expect(decodeUtf8(latin1, 'cm.yaml').error).toMatchObject({
      file: 'cm.yaml',
      line: 3,
      message: 'not valid UTF-8 (byte 0xE9)',
    });
  });
});
