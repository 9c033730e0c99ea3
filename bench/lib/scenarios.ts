import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generatePackage } from '../generate-package.js';
import { actionEnv } from './action-env.js';
import { createNamespace, deleteNamespace } from './cluster-ops.js';
import { type BenchContext, namespaceFor, parseOurs } from './lifecycle.js';
import { parseMaxRss, spawnTimed } from './process.js';
import { waitForQuietServer } from './server-cpu.js';
import { benchDir, cliBin, repoDir, type Tool } from './tools.js';

const distIndex = path.join(repoDir, 'dist/index.js');
const timeBin = '/usr/bin/time';

/**
 * Exit latency: a package of N Roles plus one Deployment whose pod turns Ready 3 s late. An independent
 * watcher process (straight to the API server) stamps the moment the Deployment is Current; the bench
 * stamps the applying process's exit. The difference is what a CI step waits after the work is done.
 */
export async function measureExitLatency(ctx: BenchContext, tool: Tool, rep: number): Promise<void> {
  const ns = namespaceFor(ctx.n, `exit-${tool.name}`, rep);
  const dir = path.join(ctx.work, ns);
  await createNamespace(ctx.cp.admin, ns);
  generatePackage({ dir, n: ctx.n, kind: 'roles', namespace: ns, name: ns, lateDeployment: '3s' });
  const watcher = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(benchDir, 'watch-current.ts'),
      '--server',
      ctx.cp.server,
      '--token',
      ctx.cp.adminToken,
      '--namespace',
      ns,
      '--name',
      'late',
    ],
    { cwd: repoDir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  watcher.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<void>((r) => watcher.once('exit', () => r()));
  try {
    const deadline = Date.now() + 30_000;
    while (!out.includes('READY') && Date.now() < deadline && watcher.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    if (!out.includes('READY')) throw new Error(`exit-latency watcher did not start: ${out}`);
    const cmd = tool.command('first-apply', {
      pkgDir: dir,
      kubeconfig: ctx.kubeconfig,
      namespace: ns,
      pkgName: ns,
      concurrency: ctx.concurrency,
      bundle: ctx.bundle,
      floor: ctx.floor,
      work: ctx.work,
    })!;
    const r = await spawnTimed(cmd.cmd, cmd.args, {
      cwd: repoDir,
      env: cmd.replaceEnv ? cmd.env : { ...process.env, ...cmd.env },
      timeoutMs: 300_000,
    });
    await Promise.race([exited, new Promise((res) => setTimeout(res, 10_000))]);
    const m = /CURRENT (\d+(?:\.\d+)?)/.exec(out);
    const current = m ? Number(m[1]) : undefined;
    const error =
      r.code !== 0
        ? `exit ${r.code}: ${r.stderrTail.trim().split('\n').slice(-2).join(' / ')}`
        : current === undefined
          ? 'the watcher never saw the Deployment Current'
          : undefined;
    ctx.record({
      scenario: 'exit-latency',
      tool: tool.name,
      label: cmd.label,
      n: ctx.n,
      rttMs: ctx.rttMs,
      kind: 'roles',
      rep,
      ok: !error,
      error,
      startMs: r.startMs,
      endMs: r.endMs,
      wallMs: r.wallMs,
      extra: current === undefined ? {} : { exitLatencyMs: r.endMs - current },
    });
  } finally {
    if (watcher.exitCode === null && watcher.pid) process.kill(watcher.pid, 'SIGTERM');
    await deleteNamespace(ctx.cp.admin, ns);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Cold start: spawn to first API request (the audit log's receive time, read later by the caller), for
 * the action bundle and both of our runners, in preview mode on an N-Role package, without added latency.
 */
export async function measureColdStart(ctx: BenchContext, rep: number): Promise<void> {
  const ns = namespaceFor(ctx.n, 'cold', rep);
  const dir = path.join(ctx.work, ns);
  await createNamespace(ctx.cp.admin, ns);
  generatePackage({ dir, n: ctx.n, kind: 'roles', namespace: ns, name: ns });
  const variants = [
    {
      tool: 'action',
      label: 'node dist/index.js (the action, preview)',
      cmd: process.execPath,
      args: [distIndex],
      env: actionEnv(ctx.work, ns, 'preview', ctx.kubeconfig),
    },
    {
      tool: 'ours',
      label: 'bin/kpt-live.js preview (the CLI bundle)',
      cmd: process.execPath,
      args: [cliBin, 'preview', dir, '--kubeconfig', ctx.kubeconfig],
    },
    {
      tool: 'ours-esbuild',
      label: 'bench/run-ours.ts bundled by esbuild (preview)',
      cmd: process.execPath,
      args: [ctx.bundle, '--kubeconfig', ctx.kubeconfig, '--dir', dir, '--mode', 'preview'],
    },
    {
      // what any Node program pays before its first request with this kubeconfig: Node's start, reading
      // the package (js-yaml), the TLS context with the client certificate
      tool: 'floor',
      label: 'bench/floor.ts bundled by esbuild (preview): the floor',
      cmd: process.execPath,
      args: [ctx.floor, '--kubeconfig', ctx.kubeconfig, '--dir', dir, '--mode', 'preview'],
    },
  ];
  try {
    // each run starts with another variant, on an idle server: the first after the namespace is made is not
    // always the same one
    const k = rep % variants.length;
    for (const v of [...variants.slice(k), ...variants.slice(0, k)]) {
      await waitForQuietServer(path.dirname(ctx.cp.kubeconfigPath));
      const r = await spawnTimed(v.cmd, v.args, { cwd: repoDir, env: v.env, timeoutMs: 300_000 });
      ctx.record({
        scenario: 'cold-start',
        tool: v.tool,
        label: v.label,
        n: ctx.n,
        rttMs: 0,
        kind: 'roles',
        rep,
        ok: r.code === 0,
        error:
          r.code === 0 ? undefined : `exit ${r.code}: ${r.stdout.slice(-300)} ${r.stderrTail.slice(-300)}`,
        startMs: r.startMs,
        endMs: r.endMs,
        wallMs: r.wallMs,
      });
    }
  } finally {
    await deleteNamespace(ctx.cp.admin, ns);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Peak RSS of the action bundle and our bundled runner at this N: first apply, no-op re-apply and destroy,
 * each under `/usr/bin/time -v` (or, without it, an exit hook that prints process.resourceUsage().maxRSS).
 */
export async function measurePeakRss(ctx: BenchContext): Promise<void> {
  const haveTime = fs.existsSync(timeBin);
  const hook = path.join(benchDir, 'lib/rss-hook.mjs');
  for (const which of ['action', 'ours'] as const) {
    const ns = namespaceFor(ctx.n, `rss-${which}`, 0);
    const dir = path.join(ctx.work, ns);
    await createNamespace(ctx.cp.admin, ns);
    generatePackage({ dir, n: ctx.n, kind: 'roles', namespace: ns, name: ns });
    try {
      for (const [mode, step] of [
        ['apply', 'first apply'],
        ['apply', 'no-op re-apply'],
        ['destroy', 'destroy'],
      ]) {
        const node =
          which === 'action'
            ? [distIndex]
            : [ctx.bundle, '--kubeconfig', ctx.kubeconfig, '--dir', dir, '--mode', mode];
        const env = which === 'action' ? actionEnv(ctx.work, ns, mode, ctx.kubeconfig) : { ...process.env };
        if (!haveTime) env.NODE_OPTIONS = `--import ${hook}`;
        const r = haveTime
          ? await spawnTimed(timeBin, ['-v', process.execPath, ...node], {
              cwd: repoDir,
              env,
              timeoutMs: 600_000,
            })
          : await spawnTimed(process.execPath, node, { cwd: repoDir, env, timeoutMs: 600_000 });
        const rss = haveTime ? parseMaxRss(r.stderrTail) : Number(/MAXRSS (\d+)/.exec(r.stderrTail)?.[1]);
        ctx.record({
          scenario: 'peak-rss',
          tool: which,
          label: `${which === 'action' ? 'node dist/index.js' : 'bundled run-ours'} ${step}${haveTime ? '' : ' (exit hook)'}`,
          n: ctx.n,
          rttMs: ctx.rttMs,
          kind: 'roles',
          rep: 0,
          ok: r.code === 0,
          error: r.code === 0 ? undefined : `exit ${r.code}`,
          startMs: r.startMs,
          endMs: r.endMs,
          wallMs: r.wallMs,
          extra: { maxRssKb: rss ?? Number.NaN, engineMs: parseOurs(r.stdout)?.engineMs ?? Number.NaN },
        });
      }
    } finally {
      await deleteNamespace(ctx.cp.admin, ns);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Monorepo scale: `node dist/index.js` previewing 40 packages of 25 Roles each (each in its own
 * namespace) in one run, `packages:` listing them, `mode: preview`, `comment: false`, against the same
 * action previewing one package of 1000 Roles. Through the same latency proxy as the lifecycle.
 */
export async function measureMonorepo(
  ctx: BenchContext,
  rep: number,
  packages = 40,
  each = 25,
): Promise<void> {
  const many: { ns: string; dir: string }[] = [];
  const one = namespaceFor(packages * each, 'mono-one', rep);
  try {
    for (let i = 0; i < packages; i++) {
      const ns = namespaceFor(each, `mono-${i}`, rep);
      const dir = path.join(ctx.work, 'mono', ns);
      await createNamespace(ctx.cp.admin, ns);
      generatePackage({ dir, n: each, kind: 'roles', namespace: ns, name: ns });
      many.push({ ns, dir });
    }
    await createNamespace(ctx.cp.admin, one);
    const oneDir = path.join(ctx.work, 'mono', one);
    generatePackage({ dir: oneDir, n: packages * each, kind: 'roles', namespace: one, name: one });
    const variants = [
      {
        label: `node dist/index.js preview: one package of ${packages * each} Roles`,
        pkgs: [path.relative(ctx.work, oneDir)],
      },
      {
        label: `node dist/index.js preview: ${packages} packages × ${each} Roles`,
        pkgs: many.map((m) => path.relative(ctx.work, m.dir)),
      },
    ];
    for (const v of variants) {
      const r = await spawnTimed(process.execPath, [distIndex], {
        cwd: repoDir,
        env: actionEnv(ctx.work, v.pkgs.join('\n'), 'preview', ctx.kubeconfig),
        timeoutMs: 600_000,
      });
      ctx.record({
        scenario: 'monorepo',
        tool: 'action',
        label: v.label,
        n: packages * each,
        rttMs: ctx.rttMs,
        kind: 'roles',
        rep,
        ok: r.code === 0,
        error:
          r.code === 0 ? undefined : `exit ${r.code}: ${r.stdout.slice(-300)} ${r.stderrTail.slice(-300)}`,
        startMs: r.startMs,
        endMs: r.endMs,
        wallMs: r.wallMs,
        objects: packages * each,
        extra: { packages: v.pkgs.length },
      });
    }
  } finally {
    for (const m of many) await deleteNamespace(ctx.cp.admin, m.ns);
    await deleteNamespace(ctx.cp.admin, one);
    fs.rmSync(path.join(ctx.work, 'mono'), { recursive: true, force: true });
  }
}
