import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../changes/git.js';
import type { ChangedFile, ChangeSet } from '../changes/index.js';
import { ResourceGroupFile } from '../common/constants.js';
import { inClusterAvailable } from '../kube/in-cluster.js';
import { chooseKubeConfig } from '../kube/kube-config.js';
import type { PackageRunResult } from '../pipeline/run-package.js';
import { withoutLiveValues } from '../report/hide-live-values.js';
import type { EventContext } from './github/index.js';
import type { ActionInputs } from './inputs.js';

/**
 * Pull requests whose code the repository does not vouch for: from a fork, or by Dependabot. GitHub gives
 * their `pull_request` runs a read-only token and no secrets, so there is usually no cluster to preview
 * against; where there is one (a self-hosted runner in the cluster, `pull_request_target`), their preview
 * runs restricted: strict inventory policy, no values from the cluster in anything it prints, and no
 * change to a Kptfile or inventory file. `pull_request_target` also runs with the base branch checked out:
 * the preview reads the pull request's head only from a directory of its own (`working-directory`).
 */

export const DEPENDABOT = 'dependabot[bot]';

/** Why the pull request is untrusted ('fork', 'Dependabot'), or undefined for a same-repository one. */
export function untrustedSource(ctx: EventContext, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pr = ctx.pullRequest;
  if (!pr) return undefined;
  if (pr.headRepoFork) return 'a fork';
  if (pr.author === DEPENDABOT || env.GITHUB_ACTOR === DEPENDABOT) return 'Dependabot';
  return undefined;
}

/** True when the run has a way into a cluster: the kubeconfig input, KUBECONFIG, ~/.kube/config, a pod. */
export function hasClusterCredentials(kubeconfig: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const origin = chooseKubeConfig(
    { kubeconfigContent: kubeconfig || undefined },
    env,
    env.HOME || os.homedir(),
    (f) => fs.existsSync(f),
    inClusterAvailable(env),
  );
  return origin.kind !== 'none';
}

/**
 * The notice and job summary of a skipped preview: an untrusted pull request without credentials (GitHub
 * withheld the secrets). Undefined when the preview goes ahead.
 */
export function untrustedSkip(
  inputs: Pick<ActionInputs, 'kubeconfig'>,
  ctx: EventContext,
  env: NodeJS.ProcessEnv = process.env,
): { notice: string; summary: string } | undefined {
  const who = untrustedSource(ctx, env);
  if (!who || hasClusterCredentials(inputs.kubeconfig, env)) return undefined;
  const n = ctx.pullRequest?.number;
  const notice = `preview skipped: pull request #${n} comes from ${who}, and GitHub gives such runs no secrets, so there are no cluster credentials. A maintainer previews it with a pull_request_target workflow (see the README, "Pull requests from forks").`;
  const summary = [
    `### Preview skipped · pull request #${n} from ${who}`,
    '',
    `GitHub runs \`pull_request\` workflows of pull requests from ${who} with a read-only token and without the repository's secrets, so this run has no cluster credentials to preview with. Nothing failed.`,
    '',
    '**To preview it**, a maintainer who has read the change adds the label that starts a `pull_request_target` workflow such as `examples/workflows/preview-fork.yml`: it checks the pull request head out into a directory of its own (never running its code), points the action at it with `working-directory`, and previews with strict inventory policy and no cluster values shown.',
    '',
  ].join('\n');
  return { notice, summary };
}

/**
 * Under `pull_request_target` the workspace holds the base branch: refuses to preview unless the tree it
 * reads (`repoRoot`) is the pull request's head commit, naming the fix.
 */
export async function checkTargetCheckout(ctx: EventContext, repoRoot: string): Promise<void> {
  if (ctx.name !== 'pull_request_target' || !ctx.pullRequest) return;
  const head = ctx.pullRequest.headSha;
  const read = await git(repoRoot, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).then(
    (r) => r.stdout.trim(),
    () => undefined,
  );
  if (read === head) return;
  const where = read ? `commit ${read.slice(0, 7)}` : 'no git commit';
  throw new Error(
    `pull_request_target: the packages are read from ${repoRoot}, which holds ${where}, not the pull request's head ${head.slice(0, 7)}: the preview would show the wrong manifests under the pull request's name. Check the head out into a directory of its own (actions/checkout with ref: \${{ github.event.pull_request.head.sha }}, path: pr, persist-credentials: false) and set working-directory: pr (see examples/workflows/preview-fork.yml)`,
  );
}

/** The directory the packages are read from: `working-directory` under the workspace, or the workspace. */
export function packagesRoot(
  inputs: Pick<ActionInputs, 'workingDirectory'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  return inputs.workingDirectory ? path.resolve(workspace, inputs.workingDirectory) : workspace;
}

/** The Kptfiles and inventory files among a change's files (a rename counts by either name). */
export function inventoryChanges(files: readonly ChangedFile[]): string[] {
  const isInventory = (p?: string) =>
    p !== undefined && ['Kptfile', ResourceGroupFile].includes(path.posix.basename(p));
  return files.filter((f) => isInventory(f.path) || isInventory(f.previous)).map((f) => f.path);
}

/**
 * The restrictions of an untrusted pull request's preview that apply before the run: strict inventory
 * policy (a fork must not adopt what its author points it at), and no change to a Kptfile or inventory
 * file (which decide what inventory, and so which live objects, the preview reads). Returns the notes
 * for the log; throws when the change touches an inventory.
 */
export function restrictUntrustedPreview(
  inputs: Pick<ActionInputs, 'run'>,
  who: string,
  changed: ChangeSet,
): string[] {
  if (changed.all)
    throw new Error(
      `refusing to preview a pull request from ${who}: which files it changes is unknown (${changed.notes.join('; ')}), so a change to a Kptfile or inventory file cannot be ruled out`,
    );
  const touched = inventoryChanges(changed.files);
  if (touched.length > 0)
    throw new Error(
      `refusing to preview a pull request from ${who} that changes a Kptfile or inventory file (${touched.join(', ')}): they decide which inventory, and so which objects in the cluster, the preview reads. A maintainer previews such a change from a branch of this repository`,
    );
  const notes = [
    `pull request from ${who}: previewing with inventory-policy strict and without cluster values (only which fields differ)`,
  ];
  if (inputs.run.inventoryPolicy !== 'strict') {
    notes.push(`inventory-policy ${inputs.run.inventoryPolicy} is ignored for a pull request from ${who}`);
    inputs.run.inventoryPolicy = 'strict';
  }
  return notes;
}

/** A package's result as an untrusted pull request may see it: the preview without cluster values. */
export function forUntrustedReaders(r: PackageRunResult): PackageRunResult {
  return r.preview ? { ...r, preview: withoutLiveValues(r.preview) } : r;
}
