import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitError, git } from '../../../src/changes/git.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-gitexec-'));
  dirs.push(d);
  return d;
}

describe('git through @actions/exec', () => {
  it('returns output and exit code, and throws a GitError naming the command unless allowFail', async () => {
    const dir = tmp();
    await git(dir, ['init', '-q']);
    expect((await git(dir, ['rev-parse', '--is-inside-work-tree'])).stdout.trim()).toBe('true');
    const missing = await git(dir, ['cat-file', '-e', 'deadbeef^{commit}'], { allowFail: true });
    expect(missing.code).not.toBe(0);
    await expect(git(dir, ['cat-file', '-e', 'deadbeef^{commit}'])).rejects.toThrow(GitError);
    await expect(git(dir, ['cat-file', '-e', 'deadbeef^{commit}'])).rejects.toThrow(
      /git cat-file -e deadbeef\^\{commit\} failed in .* \(exit \d+\)/,
    );
  });

  it('never goes through a shell: metacharacters in arguments stay literal', async () => {
    const dir = tmp();
    await git(dir, ['init', '-q']);
    const marker = path.join(dir, 'pwned');
    const r = await git(dir, ['rev-parse', '--verify', `HEAD;touch ${marker}`, `$(touch ${marker})`], {
      allowFail: true,
    });
    expect(r.code).not.toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('never prompts for credentials: a remote that asks for them fails at once', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const dir = tmp();
      await git(dir, ['init', '-q']);
      const r = await git(dir, ['ls-remote', `http://127.0.0.1:${port}/private.git`], { allowFail: true });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/terminal prompts disabled|could not read Username/);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('says so when the directory does not exist', async () => {
    await expect(git(path.join(tmp(), 'nope'), ['status'])).rejects.toThrow(/could not run git status in/);
  });
});
