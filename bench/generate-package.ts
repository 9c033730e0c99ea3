/**
 * Writes a kpt package of N objects for the benchmarks (Kptfile + resourcegroup.yaml + object files).
 *
 *   node --import tsx bench/generate-package.ts --dir /tmp/pkg --n 300 --kind roles --namespace bench-1
 *     [--kind mixed] [--changed 10] [--pruned 10] [--late-deployment 3s] [--name NAME]
 *
 * `roles` is the reference package (N Roles). `mixed` is ConfigMaps, Roles, headless Services
 * (`protocol: TCP`, which the 1.20 server needs for server-side apply), Deployments, a CRD with custom
 * resources, and depends-on chains. `--changed P` changes P% of the objects (spread evenly), `--pruned P` leaves
 * out the last P% (the "10% changed + 10% pruned" scenario). `--late-deployment 3s` adds one Deployment
 * whose pod the kubelet simulator reports Ready only after that delay (the exit-latency scenario).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';

export type PackageKind = 'roles' | 'mixed';

export interface GenerateOptions {
  dir: string;
  n: number;
  kind: PackageKind;
  namespace: string;
  /** Kptfile and inventory name; also the value of the package label (kubectl --prune selector). */
  name?: string;
  changedPercent?: number;
  prunedPercent?: number;
  /** Adds a Deployment named `late` that turns Ready after this delay (e.g. `3s`). */
  lateDeployment?: string;
}

/** The label every generated object carries: `kubectl apply --prune -l` selects the package by it. */
export const PackageLabel = 'bench.kpt-live-action.dev/package';
/** Each package gets its own CRD group (a CRD is cluster-wide: packages side by side must not share one). */
export function crdGroupFor(pkg: string): string {
  return `${pkg}.bench.kpt-live-action.dev`;
}

type Obj = Record<string, unknown>;

interface Item {
  file: string;
  object: Obj;
}

/** The objects of a package, in file order, after the changed/pruned variant is applied. */
export function packageObjects(o: GenerateOptions): Item[] {
  const name = o.name ?? `bench-${o.namespace}`;
  const items = o.kind === 'roles' ? roleItems(o, name) : mixedItems(o, name);
  const changed = Math.floor((items.length * (o.changedPercent ?? 0)) / 100);
  const pruned = Math.floor((items.length * (o.prunedPercent ?? 0)) / 100);
  // never change or prune the CRD: the custom resources need it
  const candidates = items.filter((it) => it.object.kind !== 'CustomResourceDefinition');
  // changed: spread over the package (every k-th object); pruned: the tail, which nothing depends on
  const kept0 = candidates.slice(0, candidates.length - pruned);
  const step = changed > 0 ? Math.max(1, Math.floor(kept0.length / changed)) : 0;
  for (let i = 0, c = 0; step > 0 && i < kept0.length && c < changed; i += step, c++) change(kept0[i].object);
  const drop = new Set(candidates.slice(candidates.length - pruned));
  const kept = items.filter((it) => !drop.has(it));
  if (o.lateDeployment)
    kept.push({ file: 'late.yaml', object: deployment(o.namespace, name, 'late', o.lateDeployment) });
  return kept;
}

/** Writes the package; returns the number of objects written (the inventory not counted). */
export function generatePackage(o: GenerateOptions): number {
  const name = o.name ?? `bench-${o.namespace}`;
  fs.rmSync(o.dir, { recursive: true, force: true });
  fs.mkdirSync(o.dir, { recursive: true });
  const kptfile = {
    apiVersion: 'kpt.dev/v1',
    kind: 'Kptfile',
    metadata: { name, annotations: { 'config.kubernetes.io/local-config': 'true' } },
  };
  fs.writeFileSync(path.join(o.dir, 'Kptfile'), stringify(kptfile));
  const rg = {
    apiVersion: 'kpt.dev/v1alpha1',
    kind: 'ResourceGroup',
    metadata: {
      name: `inventory-${name}`,
      namespace: o.namespace,
      labels: { 'cli-utils.sigs.k8s.io/inventory-id': `${name}-inventory-id` },
    },
  };
  fs.writeFileSync(path.join(o.dir, 'resourcegroup.yaml'), stringify(rg));
  const items = packageObjects(o);
  const byFile = new Map<string, Obj[]>();
  for (const it of items) {
    const list = byFile.get(it.file) ?? [];
    list.push(it.object);
    byFile.set(it.file, list);
  }
  for (const [file, objs] of byFile)
    fs.writeFileSync(path.join(o.dir, file), objs.map((x) => stringify(x)).join('---\n'));
  return items.length;
}

/** The object files of a generated package (what kubectl gets with -f; not the Kptfile or the inventory). */
export function objectFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'resourcegroup.yaml')
    .sort((a, b) => (a === 'crd.yaml' ? -1 : b === 'crd.yaml' ? 1 : a.localeCompare(b)))
    .map((f) => path.join(dir, f));
}

function meta(namespace: string, pkg: string, name: string, extra: Obj = {}): Obj {
  return { name, namespace, labels: { [PackageLabel]: pkg }, ...extra };
}

function role(namespace: string, pkg: string, i: number): Obj {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: meta(namespace, pkg, `role-${pad(i)}`),
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
  };
}

function roleItems(o: GenerateOptions, pkg: string): Item[] {
  return Array.from({ length: o.n }, (_, i) => ({ file: 'roles.yaml', object: role(o.namespace, pkg, i) }));
}

/**
 * Mixed: 1 CRD, then ConfigMaps 35%, Roles 25%, Services 15%, Deployments 10%, custom resources 15%.
 * Every Deployment depends on its ConfigMap; every tenth ConfigMap heads a chain of three (depends-on).
 */
function mixedItems(o: GenerateOptions, pkg: string): Item[] {
  const ns = o.namespace;
  const rest = Math.max(0, o.n - 1);
  const counts = {
    cm: Math.round(rest * 0.35),
    role: Math.round(rest * 0.25),
    svc: Math.round(rest * 0.15),
    deploy: Math.round(rest * 0.1),
  };
  const crs = Math.max(0, rest - counts.cm - counts.role - counts.svc - counts.deploy);
  const items: Item[] = [{ file: 'crd.yaml', object: crd(crdGroupFor(pkg)) }];
  for (let i = 0; i < counts.cm; i++) {
    const dependsOn =
      i % 10 === 1 || i % 10 === 2 ? `/namespaces/${ns}/ConfigMap/cm-${pad(i - 1)}` : undefined;
    items.push({
      file: 'configmaps.yaml',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: meta(
          ns,
          pkg,
          `cm-${pad(i)}`,
          dependsOn ? { annotations: dependsOnAnnotation(dependsOn) } : {},
        ),
        data: { key: `value-${i}`, 'app.properties': `index=${i}\nmode=bench\n` },
      },
    });
  }
  for (let i = 0; i < counts.role; i++) items.push({ file: 'roles.yaml', object: role(ns, pkg, i) });
  for (let i = 0; i < counts.svc; i++) {
    items.push({
      file: 'services.yaml',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(ns, pkg, `svc-${pad(i)}`),
        // headless: the test server's service CIDR is a /24, too small for several copies of this package
        spec: {
          clusterIP: 'None',
          selector: { app: `app-${pad(i)}` },
          ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
        },
      },
    });
  }
  for (let i = 0; i < counts.deploy; i++) {
    const d = deployment(ns, pkg, `app-${pad(i)}`);
    if (i < counts.cm)
      (d.metadata as Obj).annotations = dependsOnAnnotation(`/namespaces/${ns}/ConfigMap/cm-${pad(i)}`);
    items.push({ file: 'deployments.yaml', object: d });
  }
  for (let i = 0; i < crs; i++) {
    items.push({
      file: 'widgets.yaml',
      object: {
        apiVersion: `${crdGroupFor(pkg)}/v1`,
        kind: 'Widget',
        metadata: meta(ns, pkg, `widget-${pad(i)}`),
        spec: { size: i % 7, color: 'blue' },
      },
    });
  }
  return items;
}

function dependsOnAnnotation(ref: string): Record<string, string> {
  return { 'config.kubernetes.io/depends-on': ref };
}

function deployment(namespace: string, pkg: string, name: string, delay?: string): Obj {
  const podAnnotations: Record<string, string> = {};
  if (delay) podAnnotations['sim.kpt-live-action.dev/delay'] = delay;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(namespace, pkg, name),
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: delay ? { labels: { app: name }, annotations: podAnnotations } : { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.local/bench/app:1',
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              env: [{ name: 'MODE', value: 'bench' }],
            },
          ],
        },
      },
    },
  };
}

function crd(group: string): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { size: { type: 'integer' }, color: { type: 'string' } },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** One visible change per kind: what "10% changed" edits. */
function change(obj: Obj): void {
  switch (obj.kind) {
    case 'Role':
      (obj.rules as Obj[])[0].verbs = ['get', 'list', 'watch'];
      break;
    case 'ConfigMap':
      (obj.data as Record<string, string>).key = `${(obj.data as Record<string, string>).key}-changed`;
      break;
    case 'Service':
      ((obj.spec as Obj).ports as Obj[])[0].targetPort = 9090;
      break;
    case 'Deployment': {
      const spec = ((obj.spec as Obj).template as Obj).spec as Obj;
      (spec.containers as Obj[])[0].env = [{ name: 'MODE', value: 'changed' }];
      break;
    }
    default:
      (obj.spec as Obj).color = 'red';
  }
}

function pad(i: number): string {
  return String(i).padStart(4, '0');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      n: { type: 'string', default: '100' },
      kind: { type: 'string', default: 'roles' },
      namespace: { type: 'string', default: 'bench' },
      name: { type: 'string' },
      changed: { type: 'string', default: '0' },
      pruned: { type: 'string', default: '0' },
      'late-deployment': { type: 'string' },
    },
  });
  if (!values.dir) throw new Error('--dir is required: where to write the package');
  if (values.kind !== 'roles' && values.kind !== 'mixed') throw new Error('--kind must be roles or mixed');
  const count = generatePackage({
    dir: values.dir,
    n: Number(values.n),
    kind: values.kind,
    namespace: values.namespace,
    name: values.name,
    changedPercent: Number(values.changed),
    prunedPercent: Number(values.pruned),
    lateDeployment: values['late-deployment'],
  });
  console.log(`wrote ${count} objects to ${values.dir}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
