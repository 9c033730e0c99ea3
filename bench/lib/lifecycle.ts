import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ControlPlane } from '../../scripts/control-plane/control-plane.js';
import {
  crdGroupFor,
  type GenerateOptions,
  generatePackage,
  PackageLabel,
  packageObjects,
} from '../generate-package.js';
import { createNamespace, deleteNamespace } from './cluster-ops.js';
import { parseCpuMs, parseMaxRss, spawnTimed, type TimedRun } from './process.js';
import { serverCpu, waitForQuietServer } from './server-cpu.js';
import type { Measurement } from './stats.js';
import { repoDir, type Step, Steps, type Tool } from './tools.js';

export interface BenchContext {
  cp: ControlPlane;
  work: string;
  bundle: string;
  floor: string;
  kind: 'roles' | 'mixed';
  n: number;
  rttMs: number;
  /** The kubeconfig the tools use (through the latency proxy when rttMs > 0). */
  kubeconfig: string;
  concurrency?: number;
  log: (line: string) => void;
  record: (m: Measurement) => void;
}

/** Which steps must run for the measured ones: later steps need the earlier applies as setup. */
export function neededSteps(measured: ReadonlySet<Step>): Set<Step> {
  if (measured.size === 0) return new Set(Steps);
  const need = new Set<Step>(measured);
  const after = (s: Step) => [...measured].some((m) => Steps.indexOf(m) > Steps.indexOf(s));
  if (after('first-apply') && [...measured].some((m) => m !== 'preview-first')) need.add('first-apply');
  if (measured.has('destroy')) need.add('changed-apply');
  return need;
}

/** A fresh namespace name: lowercase, unique per tool and run. */
export function namespaceFor(n: number, tool: string, rep: number): string {
  return `b${n}-${tool}-${rep < 0 ? 'warm' : rep + 1}-${randomBytes(2).toString('hex')}`;
}

interface Expectation {
  objects: number;
  kindNamespaces: number;
  /** Package objects that must exist in the cluster after the step. */
  live: number;
}

function kindNamespaces(objs: { object: Record<string, unknown> }[]): number {
  const pairs = new Set<string>();
  for (const { object } of objs) {
    const meta = object.metadata as { namespace?: string };
    pairs.add(`${object.kind}/${object.kind === 'CustomResourceDefinition' ? '' : (meta.namespace ?? '')}`);
  }
  return pairs.size;
}

/**
 * One package lifecycle for one tool in a fresh namespace: each step that the tool has runs in its own
 * process; measured steps are recorded, the others only set up the next. After every step the package's
 * objects in the cluster are counted (as the admin), so a fast run that did nothing fails instead of winning.
 */
export async function runLifecycle(ctx: BenchContext, tool: Tool, rep: number, measured: ReadonlySet<Step>) {
  const ns = namespaceFor(ctx.n, tool.name, rep);
  const dir = path.join(ctx.work, ns);
  const gen: GenerateOptions = { dir, n: ctx.n, kind: ctx.kind, namespace: ns, name: ns };
  const changedGen: GenerateOptions = { ...gen, changedPercent: 10, prunedPercent: 10 };
  const orig = packageObjects(gen);
  const changed = packageObjects(changedGen);
  const allPairs = kindNamespaces([...orig, ...changed]);
  const expect: Record<Step, Expectation> = {
    'preview-first': { objects: orig.length, kindNamespaces: kindNamespaces(orig), live: 0 },
    'first-apply': { objects: orig.length, kindNamespaces: kindNamespaces(orig), live: orig.length },
    'preview-noop': { objects: orig.length, kindNamespaces: kindNamespaces(orig), live: orig.length },
    'noop-apply': { objects: orig.length, kindNamespaces: kindNamespaces(orig), live: orig.length },
    'preview-changed': { objects: orig.length, kindNamespaces: allPairs, live: orig.length },
    'changed-apply': { objects: orig.length, kindNamespaces: allPairs, live: changed.length },
    destroy: { objects: changed.length, kindNamespaces: kindNamespaces(changed), live: 0 },
  };
  await createNamespace(ctx.cp.admin, ns);
  generatePackage(gen);
  let changedWritten = false;
  try {
    for (const step of Steps) {
      if (!neededSteps(measured).has(step)) continue;
      if ((step === 'preview-changed' || step === 'changed-apply') && !changedWritten) {
        generatePackage(changedGen);
        changedWritten = true;
      }
      const cmd = tool.command(step, {
        pkgDir: dir,
        kubeconfig: ctx.kubeconfig,
        namespace: ns,
        pkgName: ns,
        concurrency: ctx.concurrency,
        bundle: ctx.bundle,
        floor: ctx.floor,
        work: ctx.work,
      });
      if (!cmd) continue;
      const cpuDir = path.dirname(ctx.cp.kubeconfigPath);
      // every step starts from an idle server, whichever tool or step ran before it
      const settledMs = await waitForQuietServer(cpuDir);
      const serverBefore = serverCpu(cpuDir);
      const r = await spawnTimed(...withRss(cmd.cmd, cmd.args), {
        cwd: repoDir,
        env: cmd.replaceEnv ? cmd.env : { ...process.env, ...cmd.env },
        timeoutMs: 900_000,
      });
      const maxRssKb = parseMaxRss(r.stderrTail);
      const cpuMs = parseCpuMs(r.stderrTail);
      const serverAfter = serverCpu(cpuDir);
      const server: Record<string, number> =
        serverBefore && serverAfter
          ? {
              apiserverCpuMs: serverAfter.apiserverMs - serverBefore.apiserverMs,
              etcdCpuMs: serverAfter.etcdMs - serverBefore.etcdMs,
            }
          : {};
      const load1 = os.loadavg()[0];
      let error = r.code === 0 ? undefined : failure(r);
      const ours = parseOurs(r.stdout);
      // a tool that leaves the cluster otherwise than the step requires did not do the step
      const live = await countLive(ctx, ns);
      const want = expect[step].live;
      if (!error && live !== want)
        error = `after ${step}: ${live} package objects in the cluster, expected ${want}`;
      if (measured.has(step)) {
        ctx.record({
          scenario: step,
          tool: tool.name,
          label: cmd.label,
          n: ctx.n,
          rttMs: ctx.rttMs,
          kind: ctx.kind,
          rep,
          ok: !error,
          error,
          startMs: r.startMs,
          endMs: r.endMs,
          wallMs: r.wallMs,
          objects: expect[step].objects,
          kindNamespaces: expect[step].kindNamespaces,
          extra: {
            ...(ours?.engineMs !== undefined ? { engineMs: ours.engineMs } : {}),
            ...(maxRssKb !== undefined ? { maxRssKb } : {}),
            ...(cpuMs !== undefined ? { cpuMs } : {}),
            ...server,
            ...(settledMs !== undefined ? { settledMs } : {}),
            load1,
          },
        });
      }
      if (error) {
        ctx.log(`${tool.name} ${step} failed: ${error}`);
        if (!measured.has(step)) break; // the later steps would measure something else
      }
    }
  } finally {
    await deleteNamespace(ctx.cp.admin, ns);
    if (ctx.kind === 'mixed') await ctx.cp.admin.request('DELETE', crdPath(ns));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const timeBin = '/usr/bin/time';
const haveTime = fs.existsSync(timeBin);

/** Every command runs under `/usr/bin/time -v` when it is there (~1 ms): its peak RSS comes with the run. */
function withRss(cmd: string, args: string[]): [string, string[]] {
  return haveTime ? [timeBin, ['-v', cmd, ...args]] : [cmd, args];
}

function failure(r: TimedRun): string {
  // without /usr/bin/time -v's report
  const stderr = r.stderrTail.replace(
    /(Command exited with non-zero status \d+\n)?\tCommand being timed:[\s\S]*$/,
    '',
  );
  const tail = `${stderr}\n${r.stdout.slice(-2000)}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(' / ');
  return `exit ${r.code}: ${tail}`;
}

/** The JSON line bench/run-ours.ts prints, when this was our runner. */
export function parseOurs(stdout: string): { engineMs?: number; maxRssKb?: number } | undefined {
  const line = stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as { engineMs?: number; maxRssKb?: number };
  } catch {
    return undefined;
  }
}

const crdPath = (ns: string) =>
  `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${crdGroupFor(ns)}`;

/** The package's objects in its namespace (by the package label) and its CRD, counted as the admin. */
export async function countLive(ctx: BenchContext, ns: string): Promise<number> {
  const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`;
  const paths =
    ctx.kind === 'roles'
      ? [roles]
      : [
          `/api/v1/namespaces/${ns}/configmaps`,
          roles,
          `/api/v1/namespaces/${ns}/services`,
          `/apis/apps/v1/namespaces/${ns}/deployments`,
          `/apis/${crdGroupFor(ns)}/v1/namespaces/${ns}/widgets`,
        ];
  let total = 0;
  for (const p of paths) {
    const res = await ctx.cp.admin.request<{ items?: unknown[] }>(
      'GET',
      `${p}?labelSelector=${encodeURIComponent(PackageLabel)}`,
    );
    if (res.status === 200) total += res.body.items?.length ?? 0;
  }
  if (ctx.kind === 'mixed' && (await ctx.cp.admin.request('GET', crdPath(ns))).status === 200) total += 1;
  return total;
}
