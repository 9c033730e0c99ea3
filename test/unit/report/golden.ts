import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** test/golden, where reviewers read the rendered output as files. */
export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden');

/**
 * Compares `actual` with test/golden/<name>. `UPDATE_GOLDEN=1 npx vitest run test/unit/report` rewrites
 * the files instead; review the git diff of test/golden before committing.
 */
export function expectGolden(name: string, actual: string): void {
  const path = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(
      `missing golden file ${path}: run UPDATE_GOLDEN=1 npx vitest run test/unit/report and review it`,
    );
  }
  expect(
    actual,
    `${name} differs from the golden file; rerun with UPDATE_GOLDEN=1 if the change is intended`,
  ).toBe(readFileSync(path, 'utf8'));
}
