import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventContext } from '../../../src/action/github/event.js';
import {
  checkTargetCheckout,
  forUntrustedReaders,
  hasClusterCredentials,
  inventoryChanges,
  packagesRoot,
  restrictUntrustedPreview,
  untrustedSkip,
  untrustedSource,
} from '../../../src/action/pull-request-trust.js';
import { defaultRunOptions } from '../../../src/apply/run-options.js';
import type { ChangeSet } from '../../../src/changes/index.js';
import type { PackageRunResult } from '../../../src/pipeline/run-package.js';
import { renderPreviewMarkdown } from '../../../src/report/preview-markdown.js';
import { renderPreviewText } from '../../../src/report/preview-text.js';
import { makeSandbox } from '../github/git-repo.js';
import { wordpressPreview } from '../report/preview-fixtures.js';

const HEAD = 'b'.repeat(40);
function ctx(extra: Partial<EventContext['pullRequest']> = {}, name = 'pull_request'): EventContext {
  return {
    name,
    owner: 'octo-org',
    repo: 'deploy',
    sha: 'c'.repeat(40),
    ref: 'refs/pull/7/merge',
    runUrl: 'https://github.example/octo-org/deploy/actions/runs/1',
    serverUrl: 'https://github.example',
    apiUrl: 'https://api.github.example',
    pullRequest: { number: 7, baseSha: 'a'.repeat(40), headSha: HEAD, headRepoFork: false, ...extra },
  };
}
/** A runner's environment without any way into a cluster. */
const bare = (): NodeJS.ProcessEnv => ({ HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'kla-home-')) });

describe('pull requests the repository does not vouch for', () => {
  it('tells a fork and Dependabot from a pull request of the repository itself', () => {
    expect(untrustedSource(ctx(), bare())).toBeUndefined();
    expect(untrustedSource(ctx({ headRepoFork: true }), bare())).toBe('a fork');
    expect(untrustedSource(ctx({ author: 'dependabot[bot]' }), bare())).toBe('Dependabot');
    expect(untrustedSource(ctx(), { ...bare(), GITHUB_ACTOR: 'dependabot[bot]' })).toBe('Dependabot');
  });

  it('skips a fork or Dependabot pull request without cluster credentials, saying why and what maintainers do', () => {
    const skip = untrustedSkip({ kubeconfig: '' }, ctx({ headRepoFork: true }), bare());
    expect(skip?.notice).toMatch(
      /^preview skipped: pull request #7 comes from a fork, and GitHub gives such runs no secrets/,
    );
    expect(skip?.summary).toContain('### Preview skipped · pull request #7 from a fork');
    expect(skip?.summary).toContain('pull_request_target');
    expect(skip?.summary).toContain('working-directory');
    expect(untrustedSkip({ kubeconfig: '' }, ctx({ author: 'dependabot[bot]' }), bare())?.notice).toContain(
      'from Dependabot',
    );
    // with credentials it previews (restricted); a trusted pull request without them is not skipped here
    expect(
      untrustedSkip({ kubeconfig: 'apiVersion: v1' }, ctx({ headRepoFork: true }), bare()),
    ).toBeUndefined();
    expect(untrustedSkip({ kubeconfig: '' }, ctx(), bare())).toBeUndefined();
  });

  it('counts KUBECONFIG, ~/.kube/config and a pod as credentials', () => {
    const env = bare();
    expect(hasClusterCredentials('', env)).toBe(false);
    fs.mkdirSync(path.join(env.HOME!, '.kube'));
    fs.writeFileSync(path.join(env.HOME!, '.kube', 'config'), 'apiVersion: v1\n');
    expect(hasClusterCredentials('', env)).toBe(true);
    const file = path.join(env.HOME!, 'kc');
    fs.writeFileSync(file, 'apiVersion: v1\n');
    expect(hasClusterCredentials('', { ...bare(), KUBECONFIG: file })).toBe(true);
  });

  it('refuses a change to a Kptfile or inventory file (by either name of a rename), and an unknown change set', () => {
    const files = (...paths: string[]): ChangeSet => ({
      all: false,
      files: paths.map((p) => ({ path: p, status: 'modified' as const })),
      source: 'pulls-api',
      notes: [],
    });
    expect(
      inventoryChanges(
        files('deploy/a/config.yaml', 'deploy/a/Kptfile', 'deploy/b/resourcegroup.yaml').files,
      ),
    ).toEqual(['deploy/a/Kptfile', 'deploy/b/resourcegroup.yaml']);
    expect(
      inventoryChanges([
        { path: 'deploy/a/rg-old.yaml', previous: 'deploy/a/resourcegroup.yaml', status: 'renamed' },
      ]),
    ).toEqual(['deploy/a/rg-old.yaml']);
    const inputs = { run: defaultRunOptions({ inventoryPolicy: 'adopt' }) };
    expect(() => restrictUntrustedPreview(inputs, 'a fork', files('deploy/a/Kptfile'))).toThrow(
      /refusing to preview a pull request from a fork that changes a Kptfile or inventory file \(deploy\/a\/Kptfile\)/,
    );
    expect(() =>
      restrictUntrustedPreview(inputs, 'a fork', {
        all: true,
        files: [],
        source: 'none',
        notes: ['no token'],
      }),
    ).toThrow(/which files it changes is unknown \(no token\)/);
    // otherwise: strict, whatever the input said
    const notes = restrictUntrustedPreview(inputs, 'a fork', files('deploy/a/config.yaml'));
    expect(inputs.run.inventoryPolicy).toBe('strict');
    expect(notes).toContain('inventory-policy adopt is ignored for a pull request from a fork');
  });

  it('shows no cluster value: no diff, no before/after, only which fields differ', () => {
    const doc = wordpressPreview();
    const r: PackageRunResult = {
      path: doc.package,
      mode: 'preview',
      outcome: 'success',
      notices: [],
      exitCode: 0,
      preview: doc,
    };
    const shown = forUntrustedReaders(r).preview!;
    const md = renderPreviewMarkdown(shown);
    const text = renderPreviewText(shown);
    for (const out of [md, text, JSON.stringify(shown)]) {
      expect(out).not.toContain('WORDPRESS_DB_HOST'); // in the diffs only
      expect(out).not.toContain('1 → 2'); // spec.replicas, before → after
      expect(out).not.toContain('wp-config-1 → wp-config-2');
      expect(out).not.toContain('```diff');
    }
    expect(JSON.stringify(shown)).not.toMatch(/"before"|"after"|"diff"/);
    expect(md).toContain('`spec.replicas` changed');
    expect(md).toContain('ConfigMap/wp-config-1'); // names and actions stay
    expect(renderPreviewMarkdown(doc)).toContain('`spec.replicas` 1 → 2');
  });
});

describe('pull_request_target reads the pull request head only from its own checkout', () => {
  it('passes when the tree read is the head commit, fails with the fix otherwise', async () => {
    const box = makeSandbox();
    const base = box.commit({ 'deploy/a/Kptfile': 'x' });
    const head = box.commit({ 'deploy/a/config.yaml': 'y' });
    await expect(
      checkTargetCheckout(ctx({ headSha: head }, 'pull_request_target'), box.work),
    ).resolves.toBeUndefined();
    await expect(
      checkTargetCheckout(ctx({ headSha: base }, 'pull_request_target'), box.work),
    ).rejects.toThrow(
      new RegExp(
        `pull_request_target: the packages are read from .*, which holds commit ${head.slice(0, 7)}, not the pull request's head ${base.slice(0, 7)}.*set working-directory: pr`,
      ),
    );
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'kla-nogit-'));
    await expect(checkTargetCheckout(ctx({ headSha: head }, 'pull_request_target'), empty)).rejects.toThrow(
      /which holds no git commit/,
    );
    // a plain pull_request run is not checked (its checkout is the merge commit)
    await expect(checkTargetCheckout(ctx({ headSha: base }), box.work)).resolves.toBeUndefined();
  });

  it('working-directory resolves under the workspace', () => {
    expect(packagesRoot({ workingDirectory: '' }, { GITHUB_WORKSPACE: '/w' })).toBe('/w');
    expect(packagesRoot({ workingDirectory: 'pr' }, { GITHUB_WORKSPACE: '/w' })).toBe('/w/pr');
  });
});
