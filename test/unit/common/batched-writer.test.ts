import { describe, expect, it } from 'vitest';
import { BatchedWriter } from '../../../src/startup/batched-writer.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedWriter', () => {
  it('writes what one turn of the event loop added in one write, in order, after that turn', async () => {
    const writes: string[] = [];
    const w = new BatchedWriter((t) => writes.push(t));
    w.add('a\n');
    w.add('b\n');
    w.add('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);
    w.add('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes at once when 64 KB gather, and on flush(); an empty flush writes nothing', async () => {
    const writes: string[] = [];
    const w = new BatchedWriter((t) => writes.push(t));
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) w.add(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(64 * 1024);
    w.add('tail\n');
    w.flush();
    expect(writes).toEqual([writes[0], 'tail\n']);
    w.flush();
    await nextTurn();
    expect(writes).toHaveLength(2);
  });
});
