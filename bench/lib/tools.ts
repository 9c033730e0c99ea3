import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentFamily } from '../audit-count.js';
import { objectFiles } from '../generate-package.js';
import { actionEnv } from './action-env.js';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = path.resolve(benchDir, '..');

/** The lifecycle of one package, in order; each step is measured or only run as setup. */
export const Steps = [
  'preview-first',
  'first-apply',
  'preview-noop',
  'noop-apply',
  'preview-changed',
  'changed-apply',
  'destroy',
] as const;
export type Step = (typeof Steps)[number];

export type ToolName =
  | 'ours'
  | 'ours-nopf'
  | 'ours-nostatus'
  | 'action'
  | 'ours-esbuild'
  | 'ours-tsx'
  | 'floor'
  | 'floor-kpt'
  | 'kpt'
  | 'kpt-ssa'
  | 'kubectl'
  | 'kubectl-prune';

/** The shipped CLI (`kpt-live`: the ncc bundle dist/cli/index.js behind bin/kpt-live.js). */
export const cliBin = path.join(repoDir, 'bin/kpt-live.js');
/** The shipped action (the ncc bundle a runner starts with `node dist/index.js`). */
export const actionBundle = path.join(repoDir, 'dist/index.js');

export interface StepContext {
  pkgDir: string;
  kubeconfig: string;
  namespace: string;
  pkgName: string;
  concurrency?: number;
  /** The bundled runner (esbuild output of bench/run-ours.ts). */
  bundle: string;
  /** The bundled floor (esbuild output of bench/floor.ts). */
  floor: string;
  /** The bench's work directory: the packages' parent, the action's GITHUB_WORKSPACE. */
  work: string;
}

export interface Command {
  cmd: string;
  args: string[];
  /** What the table calls this command. */
  label: string;
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
  /** `env` is the whole environment (a runner's), not additions to the bench's. */
  replaceEnv?: boolean;
}

export interface Tool {
  name: ToolName;
  family: AgentFamily;
  /** Set when the binary is missing: the tool is reported as missing, never run. */
  missing?: string;
  version?: string;
  /** The command for a step, or undefined when the tool has no such step (kubectl has no destroy). */
  command(step: Step, ctx: StepContext): Command | undefined;
}

const applySteps = new Set<Step>(['first-apply', 'noop-apply', 'changed-apply']);
const previewSteps = new Set<Step>(['preview-first', 'preview-noop', 'preview-changed']);

function ourCommand(step: Step, ctx: StepContext, runner: string[], label: string): Command {
  const mode = previewSteps.has(step) ? 'preview' : step === 'destroy' ? 'destroy' : 'apply';
  const args = [...runner, '--kubeconfig', ctx.kubeconfig, '--dir', ctx.pkgDir, '--mode', mode];
  if (ctx.concurrency) args.push('--concurrency', String(ctx.concurrency));
  return { cmd: process.execPath, args, label: `${label} ${mode}` };
}

const stepMode = (step: Step) =>
  previewSteps.has(step) ? 'preview' : step === 'destroy' ? 'destroy' : 'apply';

/** `kpt-live <mode> DIR --kubeconfig K`, as a user runs the shipped CLI. */
function cliCommand(step: Step, ctx: StepContext, extra: string[], label: string): Command {
  const mode = stepMode(step);
  const args = [cliBin, mode, ctx.pkgDir, '--kubeconfig', ctx.kubeconfig, ...extra];
  if (ctx.concurrency) args.push('--concurrency', String(ctx.concurrency));
  return { cmd: process.execPath, args, label: `${label} ${mode}` };
}

function binary(name: string): { path?: string; version?: string; missing?: string } {
  const p = `/usr/bin/${name}`;
  if (!fs.existsSync(p)) return { missing: `${p} not found` };
  try {
    const out =
      name === 'kpt'
        ? execFileSync(p, ['version'], { encoding: 'utf8' }).trim()
        : (
            JSON.parse(execFileSync(p, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })) as {
              clientVersion: { gitVersion: string };
            }
          ).clientVersion.gitVersion;
    return { path: p, version: out };
  } catch (err) {
    return { missing: `${p} does not run: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** The tools this machine has, each with its commands per step. */
export function detectTools(names: ToolName[]): Tool[] {
  const kpt = binary('kpt');
  const kubectl = binary('kubectl');
  const all: Record<ToolName, Tool> = {
    ours: {
      name: 'ours',
      family: 'ours',
      missing: fs.existsSync(path.join(repoDir, 'dist/cli/index.js'))
        ? undefined
        : 'dist/cli/index.js not built (npm run package)',
      version: 'bin/kpt-live.js (the ncc CLI bundle dist/cli), node',
      command: (step, ctx) => cliCommand(step, ctx, [], 'kpt-live'),
    },
    'ours-nopf': {
      name: 'ours-nopf',
      family: 'ours',
      version: 'bin/kpt-live.js --no-preflight',
      // preview always dry-runs every object and destroy has no pre-flight: apply steps only
      command: (step, ctx) =>
        applySteps.has(step)
          ? cliCommand(step, ctx, ['--no-preflight'], 'kpt-live --no-preflight')
          : undefined,
    },
    'ours-nostatus': {
      name: 'ours-nostatus',
      family: 'ours',
      version: 'bin/kpt-live.js --status-policy none',
      // only an apply writes the ResourceGroup's status on a clean run (a destroy deletes it)
      command: (step, ctx) =>
        applySteps.has(step)
          ? cliCommand(step, ctx, ['--status-policy', 'none'], 'kpt-live --status-policy none')
          : undefined,
    },
    action: {
      name: 'action',
      family: 'ours',
      missing: fs.existsSync(actionBundle) ? undefined : 'dist/index.js not built (npm run package)',
      version: 'node dist/index.js (the ncc action bundle) with INPUT_* as a runner sets them',
      command: (step, ctx) => {
        const mode = stepMode(step);
        const inputs: Record<string, string> = ctx.concurrency
          ? { concurrency: String(ctx.concurrency) }
          : {};
        return {
          cmd: process.execPath,
          args: [
            ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
            actionBundle,
          ],
          label: `node dist/index.js (mode: ${mode})`,
          env: actionEnv(ctx.work, path.relative(ctx.work, ctx.pkgDir), mode, ctx.kubeconfig, inputs),
          replaceEnv: true,
        };
      },
    },
    'ours-esbuild': {
      name: 'ours-esbuild',
      family: 'ours',
      version: 'bench/run-ours.ts bundled by esbuild from src/ (not shipped)',
      command: (step, ctx) => ourCommand(step, ctx, [ctx.bundle], 'run-ours (esbuild of src/)'),
    },
    floor: {
      name: 'floor',
      family: 'floor',
      version: 'bench/floor.ts bundled by esbuild: bare keep-alive server-side-apply loop, 32 sockets',
      command: (step, ctx) => {
        const mode = stepMode(step);
        const args = [ctx.floor, '--kubeconfig', ctx.kubeconfig, '--dir', ctx.pkgDir, '--mode', mode];
        if (step === 'changed-apply') args.push('--prune');
        return {
          cmd: process.execPath,
          args,
          label: `floor ${mode}${step === 'changed-apply' ? ' --prune' : ''}`,
        };
      },
    },
    'floor-kpt': {
      name: 'floor-kpt',
      family: 'floor',
      version:
        'bench/floor.ts --inventory: the floor plus the ResourceGroup write before and its status write after',
      command: (step, ctx) => {
        const mode = stepMode(step);
        const args = [ctx.floor, '--kubeconfig', ctx.kubeconfig, '--dir', ctx.pkgDir, '--mode', mode];
        args.push('--inventory');
        if (step === 'changed-apply') args.push('--prune');
        return {
          cmd: process.execPath,
          args,
          label: `floor + ResourceGroup ${mode}${step === 'changed-apply' ? ' --prune' : ''}`,
        };
      },
    },
    'ours-tsx': {
      name: 'ours-tsx',
      family: 'ours',
      version: 'node --import tsx bench/run-ours.ts',
      command: (step, ctx) =>
        ourCommand(step, ctx, ['--import', 'tsx', path.join(benchDir, 'run-ours.ts')], 'ours (tsx)'),
    },
    kpt: {
      name: 'kpt',
      family: 'kpt',
      missing: kpt.missing,
      version: kpt.version,
      command: (step, ctx) => {
        const k = ['--kubeconfig', ctx.kubeconfig];
        if (previewSteps.has(step))
          return {
            cmd: kpt.path!,
            args: ['live', 'apply', ctx.pkgDir, '--dry-run', '--server-side', ...k],
            label: 'kpt live apply --dry-run --server-side',
          };
        if (applySteps.has(step))
          return { cmd: kpt.path!, args: ['live', 'apply', ctx.pkgDir, ...k], label: 'kpt live apply' };
        return { cmd: kpt.path!, args: ['live', 'destroy', ctx.pkgDir, ...k], label: 'kpt live destroy' };
      },
    },
    'kpt-ssa': {
      name: 'kpt-ssa',
      family: 'kpt',
      missing: kpt.missing,
      version: kpt.version,
      command: (step, ctx) =>
        applySteps.has(step)
          ? {
              cmd: kpt.path!,
              args: ['live', 'apply', ctx.pkgDir, '--server-side', '--kubeconfig', ctx.kubeconfig],
              label: 'kpt live apply --server-side',
            }
          : undefined,
    },
    kubectl: {
      name: 'kubectl',
      family: 'kubectl',
      missing: kubectl.missing,
      version: kubectl.version,
      // without pruning, the changed+pruned apply is not kubectl's to do
      command: (step, ctx) =>
        step === 'first-apply' || step === 'noop-apply' ? kubectlApply(kubectl.path!, ctx, false) : undefined,
    },
    'kubectl-prune': {
      name: 'kubectl-prune',
      family: 'kubectl',
      missing: kubectl.missing,
      version: kubectl.version,
      command: (step, ctx) => (applySteps.has(step) ? kubectlApply(kubectl.path!, ctx, true) : undefined),
    },
  };
  return names.map((n) => all[n]);
}

/**
 * `kubectl apply --server-side` of the package's object files (not the Kptfile or the ResourceGroup).
 * Pruning with server-side apply needs an ApplySet (`--prune -l` refuses objects created by server-side
 * apply): `KUBECTL_APPLYSET=true ... --prune --applyset=<package> -n <namespace>` on every apply, so the
 * changed apply prunes what the earlier ones created. A package with a CRD gets the CRD first and a wait
 * for it to be established (one apply of both fails: kubectl maps kinds before applying).
 */
function kubectlApply(kubectl: string, ctx: StepContext, prune: boolean): Command {
  const files = objectFiles(ctx.pkgDir);
  const pruneArgs = prune ? ['--prune', `--applyset=${ctx.pkgName}`, '-n', ctx.namespace] : [];
  const env = prune ? { KUBECTL_APPLYSET: 'true' } : undefined;
  const label = `kubectl apply --server-side${prune ? ' --prune --applyset' : ''}`;
  const crd = files.find((f) => path.basename(f) === 'crd.yaml');
  const rest = files.filter((f) => f !== crd).flatMap((f) => ['-f', f]);
  const base = ['--kubeconfig', ctx.kubeconfig, 'apply', '--server-side'];
  if (!crd) return { cmd: kubectl, args: [...base, ...pruneArgs, ...rest], label, env };
  const q = (xs: string[]) => xs.map((x) => `'${x}'`).join(' ');
  const script = [
    `${q([kubectl, ...base, '-f', crd])} >/dev/null`,
    `${q([kubectl, '--kubeconfig', ctx.kubeconfig, 'wait', '--for', 'condition=established', '-f', crd])} >/dev/null`,
    q([kubectl, ...base, ...pruneArgs, ...rest]),
  ].join(' && ');
  return { cmd: 'bash', args: ['-c', script], label: `${label} (CRD first)`, env };
}
