import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentFamily } from '../audit-count.js';
import { objectFiles } from '../generate-package.js';

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

export type ToolName = 'ours' | 'ours-tsx' | 'ours-nopf' | 'kpt' | 'kpt-ssa' | 'kubectl' | 'kubectl-prune';

export interface StepContext {
  pkgDir: string;
  kubeconfig: string;
  namespace: string;
  pkgName: string;
  concurrency?: number;
  /** The bundled runner (esbuild output of bench/run-ours.ts). */
  bundle: string;
}

export interface Command {
  cmd: string;
  args: string[];
  /** What the table calls this command. */
  label: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
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
      version: 'bundled bench/run-ours.ts (esbuild), node',
      command: (step, ctx) => ourCommand(step, ctx, [ctx.bundle], 'ours'),
    },
    'ours-nopf': {
      name: 'ours-nopf',
      family: 'ours',
      version: 'bundled bench/run-ours.ts --no-preflight',
      command: (step, ctx) => {
        const c = ourCommand(step, ctx, [ctx.bundle], 'ours --no-preflight');
        return { ...c, args: [...c.args, '--no-preflight'] };
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
