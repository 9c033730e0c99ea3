import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  }).trim();

/** A throwaway repository with what the script edits (and a bare origin), on branch main. */
function sandbox(): { work: string; origin: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-release-'));
  dirs.push(root);
  const origin = path.join(root, 'origin.git');
  const work = path.join(root, 'work');
  git(root, 'init', '-q', '--bare', origin);
  git(root, 'clone', '-q', `file://${origin}`, work);
  git(work, 'checkout', '-q', '-B', 'main');
  git(work, 'config', 'user.email', 'test@example.com');
  git(work, 'config', 'user.name', 'test');
  fs.mkdirSync(path.join(work, 'scripts'));
  fs.copyFileSync(path.join(repoRoot, 'scripts/release.sh'), path.join(work, 'scripts/release.sh'));
  fs.mkdirSync(path.join(work, 'src/common'), { recursive: true });
  fs.writeFileSync(path.join(work, 'src/common/version.ts'), "export const VERSION = '0.1.0';\n");
  fs.writeFileSync(path.join(work, 'package.json'), '{\n  "name": "x",\n  "version": "0.1.0"\n}\n');
  fs.writeFileSync(
    path.join(work, 'package-lock.json'),
    '{\n  "name": "x",\n  "version": "0.1.0",\n  "lockfileVersion": 3,\n  "packages": {\n    "": {\n      "name": "x",\n      "version": "0.1.0"\n    }\n  }\n}\n',
  );
  fs.writeFileSync(path.join(work, 'CHANGELOG.md'), '# Changelog\n\n## Unreleased\n\n- first\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'init');
  git(work, 'push', '-q', 'origin', 'main');
  return { work, origin };
}

const release = (work: string, ...args: string[]) =>
  spawnSync('bash', ['scripts/release.sh', ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, KPT_LIVE_RELEASE_SKIP_PACKAGE: '1', GIT_TERMINAL_PROMPT: '0' },
  });

describe('scripts/release.sh', () => {
  it('sets the version, dates the changelog, tags vX.Y.Z and moves vX, and pushes both', () => {
    const { work, origin } = sandbox();
    const first = release(work, '0.1.0', '--push');
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(work, 'package.json'), 'utf8')).version).toBe('0.1.0');
    expect(fs.readFileSync(path.join(work, 'CHANGELOG.md'), 'utf8')).toMatch(
      /## Unreleased\n\n## 0\.1\.0 \(\d{4}-\d{2}-\d{2}\)\n\n- first\n/,
    );
    expect(git(origin, 'rev-parse', 'v0.1.0^{commit}')).toBe(git(work, 'rev-parse', 'HEAD'));
    expect(git(origin, 'rev-parse', 'v0^{commit}')).toBe(git(work, 'rev-parse', 'HEAD'));
    expect(git(work, 'log', '-1', '--format=%s')).toBe('Release v0.1.0');

    // the next release needs something in Unreleased
    expect(release(work, '0.2.0').stderr).toMatch(/Unreleased section is empty/);
    const log = fs
      .readFileSync(path.join(work, 'CHANGELOG.md'), 'utf8')
      .replace('## Unreleased\n', '## Unreleased\n\n- second\n');
    fs.writeFileSync(path.join(work, 'CHANGELOG.md'), log);
    git(work, 'commit', '-q', '-am', 'second');
    const second = release(work, '0.2.0', '--push');
    expect(second.status, second.stderr).toBe(0);
    expect(fs.readFileSync(path.join(work, 'src/common/version.ts'), 'utf8')).toBe(
      "export const VERSION = '0.2.0';\n",
    );
    // v0.1.0 stays, v0 moved
    expect(git(origin, 'rev-parse', 'v0.1.0^{commit}')).not.toBe(git(origin, 'rev-parse', 'v0^{commit}'));
    expect(git(origin, 'rev-parse', 'v0^{commit}')).toBe(git(origin, 'rev-parse', 'v0.2.0^{commit}'));
    const notes = release(work, 'notes', '0.2.0');
    expect(notes.stdout).toBe('- second\n');
  });

  it('refuses a bad version, an existing tag, and a dirty tree', () => {
    const { work } = sandbox();
    expect(release(work, 'v1.0').stderr).toMatch(/usage: scripts\/release.sh X.Y.Z/);
    fs.writeFileSync(path.join(work, 'stray'), 'x');
    git(work, 'add', 'stray');
    expect(release(work, '1.0.0').stderr).toMatch(/working tree has changes/);
    git(work, 'commit', '-q', '-m', 'stray');
    git(work, 'tag', 'v1.0.0');
    expect(release(work, '1.0.0').stderr).toMatch(/tag v1.0.0 exists already/);
  });
});
