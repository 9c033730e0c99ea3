import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PackageFailure } from '../../../src/package/package-error.js';
import { resolveInside } from '../../../src/package/path-safety.js';
import { copyFixture, fixtures } from './helpers.js';

describe('resolveInside', () => {
  it.each([
    { target: '.', rel: '.' },
    { target: 'wordpress', rel: 'wordpress' },
    { target: 'wordpress/./mysql/', rel: 'wordpress/mysql' },
    { target: 'wordpress/../valid', rel: 'valid' },
    { target: 'valid/not-yet-created/file.yaml', rel: 'valid/not-yet-created/file.yaml' },
    { target: path.join(fixtures, 'valid'), rel: 'valid' },
  ])('accepts $target as $rel', async ({ target, rel }) => {
    expect((await resolveInside(fixtures, target)).rel).toBe(rel);
  });

  it.each(['..', '../packages-sibling', 'wordpress/../../x', '/tmp'])(
    'refuses %s with a clear error',
    async (target) => {
      const err = await resolveInside(fixtures, target, 'package path').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PackageFailure);
      const failure = err as PackageFailure;
      expect(failure.message).toContain(`package path "${target}" resolves outside the repository root`);
      expect(failure.errors[0].fix).toContain('use a path inside the repository');
    },
  );

  it('refuses a symlink that leaves the root, and follows one that stays inside', async () => {
    const { root, dir } = await copyFixture('valid');
    await mkdir(path.join(root, 'elsewhere'));
    await symlink(path.join(root, 'elsewhere'), path.join(dir, 'out'));
    await symlink(path.join(dir, 'sub'), path.join(dir, 'in'));
    await expect(resolveInside(dir, 'out/x.yaml')).rejects.toThrow(
      /is a symlink \(or inside one\) that points to/,
    );
    expect((await resolveInside(dir, 'in/deployment.yaml')).rel).toBe('sub/deployment.yaml');
  });

  it('fails clearly when the root does not exist', async () => {
    await expect(resolveInside(path.join(fixtures, 'nope'), '.')).rejects.toThrow(/does not exist/);
  });
});
