import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../scripts/control-plane/ensure-test-tools.sh',
);
const found = new Map<string, string>();

/**
 * The path of a test-only tool (kubectl at the current server's release, helm 3.22.0), from the cache that
 * ensure-test-tools.sh fills (ensure-binaries.sh and .ci/run call it first, so a test never builds one).
 * Never a tool on PATH: its version would decide what the tests measure.
 */
export function testTool(name: 'kubectl' | 'helm'): string {
  let at = found.get(name);
  if (!at) {
    const out = execFileSync('bash', [script, name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    at = /^\w+=(.*)$/m.exec(out)?.[1]?.trim();
    if (!at) throw new Error(`ensure-test-tools.sh ${name} printed no path: ${out}`);
    found.set(name, at);
  }
  return at;
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}
