/**
 * The YAML readers side by side, as a fresh process meets them: the fast reader (src/package/fast-yaml.ts,
 * on js-yaml) and the `yaml` package (the full reader, src/package/read-yaml.ts: `parseAllDocuments` with a
 * line counter, then `toJS`). It checks the figures quoted in fast-yaml.ts (300 Roles: ~25 ms instead of
 * ~140 ms on a cold process; a thousand objects: ~100 ms) and prints the numbers, no verdict.
 *
 *   node --import tsx bench/yaml-parse.ts [--runs 10] [--warm 5]
 *
 * Each reader is bundled by esbuild (minified, as the shipped bundles carry it), then every run is a new
 * `node` process that imports the bundle and reads every object file of a generated package once (cold),
 * then `--warm` more times in the same process. Per process: `import` (evaluating the bundle), `cold` (the
 * first read), `import+cold` (what a run pays before it has the objects), `warm` (median of the later
 * reads: the parsers' own speed, JIT-compiled) and `process` (spawn to exit, node's own start-up
 * included), all wall time; and `cpu`, the CPU time (user + system) of import+cold, which a busy machine
 * inflates less than wall time. The table shows medians over the runs, in ms.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatePackage, objectFiles } from './generate-package.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, warm: { type: 'string', default: '5' } },
});
const runs = Number(values.runs);
const warm = Number(values.warm);
const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-live-yaml-bench-'));

/** The two readers, each as the loader calls it on one file's text; both give the documents' values. */
const readers = {
  'fast (js-yaml)': `import { readFastYaml } from ${JSON.stringify(path.join(repoDir, 'src/package/fast-yaml.ts'))};
export const read = (text) => {
  const docs = readFastYaml(text);
  if (!docs) throw new Error('the fast reader declined a generated file');
  return docs.map((d) => d.value);
};`,
  'full (yaml)': `import { loadYaml } from ${JSON.stringify(path.join(repoDir, 'src/startup/yaml-module.ts'))};
import { parseYamlFile } from ${JSON.stringify(path.join(repoDir, 'src/package/read-yaml.ts'))};
await loadYaml();
export const read = (text) => {
  const { docs, errors } = parseYamlFile(text, 'bench.yaml');
  if (errors.length) throw new Error(errors[0].message);
  return docs.map((d) => d.doc.toJS());
};`,
};

// one process: import the bundle, read every file once (cold), then `warm` more times
const child = path.join(work, 'child.mjs');
fs.writeFileSync(
  child,
  `import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, list, warm] = process.argv.slice(2);
const texts = JSON.parse(fs.readFileSync(list, 'utf8')).map((f) => fs.readFileSync(f, 'utf8'));
const c0 = process.cpuUsage();
const t0 = performance.now();
const { read } = await import(pathToFileURL(bundle).href);
const t1 = performance.now();
let objects = 0;
for (const t of texts) objects += read(t).length;
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
const warmMs = [];
for (let i = 0; i < Number(warm); i++) {
  const s = performance.now();
  for (const t of texts) read(t);
  warmMs.push(performance.now() - s);
}
warmMs.sort((a, b) => a - b);
console.log(JSON.stringify({ importMs: t1 - t0, coldMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, warmMs: warmMs[Math.floor(warmMs.length / 2)] ?? 0, objects }));
`,
);

const bundles: Record<string, string> = {};
for (const [name, source] of Object.entries(readers)) {
  const entry = path.join(work, `${name.split(' ')[0]}-entry.mjs`);
  const outfile = path.join(work, `${name.split(' ')[0]}.mjs`);
  fs.writeFileSync(entry, source);
  execFileSync(
    path.join(repoDir, 'node_modules/.bin/esbuild'),
    [
      entry,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--minify',
      `--outfile=${outfile}`,
      '--log-level=warning',
      "--banner:js=import{createRequire}from'node:module';const require=createRequire(import.meta.url);",
    ],
    { stdio: 'inherit' },
  );
  bundles[name] = outfile;
}

const packages = [
  { label: '300 Roles', n: 300, kind: 'roles' as const },
  { label: '1000 mixed objects', n: 1000, kind: 'mixed' as const },
];

const fmt = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
console.log(
  `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${runs} runs, warm = median of ${warm}`,
);
for (const p of packages) {
  const dir = path.join(work, p.kind);
  generatePackage({ dir, n: p.n, kind: p.kind, namespace: 'bench' });
  const files = objectFiles(dir);
  const list = path.join(work, `${p.kind}.json`);
  fs.writeFileSync(list, JSON.stringify(files));
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  console.log(`\n${p.label}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB`);
  console.log('| reader | import | cold | import+cold | cpu | warm | process |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, bundle] of Object.entries(bundles)) {
    const rows: { importMs: number; coldMs: number; cpuMs: number; warmMs: number; processMs: number }[] = [];
    for (let r = 0; r < runs; r++) {
      const start = performance.now();
      const res = spawnSync(process.execPath, [child, bundle, list, String(warm)], { encoding: 'utf8' });
      const processMs = performance.now() - start;
      if (res.status !== 0) throw new Error(`${name}: ${res.stderr}`);
      const out = JSON.parse(res.stdout) as {
        importMs: number;
        coldMs: number;
        cpuMs: number;
        warmMs: number;
        objects: number;
      };
      if (out.objects !== p.n) throw new Error(`${name} read ${out.objects} objects, not ${p.n}`);
      rows.push({ ...out, processMs });
    }
    const m = (f: (x: (typeof rows)[number]) => number) => fmt(median(rows.map(f)));
    console.log(
      `| ${name} | ${m((x) => x.importMs)} | ${m((x) => x.coldMs)} | ${m((x) => x.importMs + x.coldMs)} | ${m((x) => x.cpuMs)} | ${m((x) => x.warmMs)} | ${m((x) => x.processMs)} |`,
    );
  }
}
fs.rmSync(work, { recursive: true, force: true });
