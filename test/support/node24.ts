import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Node 24, the runtime `action.yml` declares (`using: node24`), for tests that run the bundled action and
 * the CLI under it while the machine runs Node 20. It is the npm registry's `node@24` package installed
 * into a cache folder outside the project (as a project dependency it would replace Node 20 in every npm
 * script) and called by its path. Installed on demand, once per machine; `.ci/run` installs it up front.
 * When it cannot be installed the caller gets the error: tests that need it fail, they never skip.
 */

export const NODE24_DIR =
  process.env.KPT_LIVE_NODE24_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'kpt-live-action', 'node24');

const binaryIn = (dir: string) => path.join(dir, 'node_modules', 'node', 'bin', 'node');

function versionOf(bin: string): string | undefined {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return undefined;
  }
}

/** The path of a Node 24 binary, installing `node@24` into NODE24_DIR first when it is not there. */
export function ensureNode24(): string {
  const bin = binaryIn(NODE24_DIR);
  if (versionOf(bin)?.startsWith('v24.')) return bin;
  // install next to the final folder and rename: parallel test workers never see half an install
  fs.mkdirSync(path.dirname(NODE24_DIR), { recursive: true });
  const tmp = `${NODE24_DIR}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(tmp, { recursive: true });
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', tmp, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', 'node@24'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 10 * 60_000,
        env: { ...process.env, npm_config_yes: 'true' },
      },
    );
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(
      `could not install node@24 from the npm registry into ${NODE24_DIR}: ${e.stderr?.toString().trim() || e.message}`,
    );
  }
  const version = versionOf(binaryIn(tmp));
  if (!version?.startsWith('v24.')) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `npm installed node@24 into ${tmp}, but ${binaryIn(tmp)} reports ${version ?? 'nothing'}`,
    );
  }
  try {
    fs.rmSync(NODE24_DIR, { recursive: true, force: true });
    fs.renameSync(tmp, NODE24_DIR);
  } catch {
    // another worker got there first
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (!versionOf(bin)?.startsWith('v24.')) throw new Error(`no working Node 24 at ${bin}`);
  return bin;
}

/** The runtimes the bundled action and the CLI are tested under: this Node (20) and Node 24. */
export const RUNTIMES = [
  { name: `node ${process.versions.node.split('.')[0]}`, binary: () => process.execPath },
  { name: 'node 24', binary: ensureNode24 },
] as const;

// `node --import tsx test/support/node24.ts` (from .ci/run): install it and print where it is
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const bin = ensureNode24();
  console.log(`${bin} (${versionOf(bin)})`);
}
