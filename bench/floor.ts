/**
 * The floor: the least a tool can do to put a package on a cluster, for the benchmarks to measure us against.
 * A bare keep-alive server-side-apply loop: 32 sockets, one PATCH per object, nothing else: no discovery
 * (kinds map to resources by a fixed table), no inventory, no lock, no pre-flight, no status checks, no
 * history. Node built-ins and js-yaml only; the bench bundles it with esbuild like our runner.
 *
 *   node bench/floor.mjs --kubeconfig K --dir /path/to/pkg --mode apply|preview|destroy [--prune]
 *     [--inventory] [--sockets 32]
 *
 * apply: one server-side apply PATCH per object (force, field manager `bench-floor`). preview: the same with
 * `dryRun=All`. destroy: one DELETE per object. `--prune` (the changed+pruned apply): after the PATCHes,
 * one LIST per kind and namespace by the package label and one DELETE per listed object not in the package,
 * the least a prune can be without an inventory. Roles, ConfigMaps, Services, Deployments only (no CRDs: a
 * floor does not wait for one to be established). Prints `{"ok":N,"failed":M}`; exit 1 when anything failed.
 *
 * `--inventory` is the kpt-compatible floor: what any tool that keeps kpt's inventory must add to the loop.
 * apply: the package's ResourceGroup (from its resourcegroup.yaml) written before the objects, with every
 * object in `spec.resources` (one server-side apply PATCH), the objects carrying the owning-inventory
 * annotation, and its status subresource written after them with one entry per object (one more PATCH), as
 * kpt's `--status-policy all` does. destroy: the ResourceGroup deleted after the objects. preview: unchanged
 * (a dry-run writes no inventory). No lock, no inventory read, no pre-flight, no waits.
 */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadAll, load as loadYaml } from 'js-yaml';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    dir: { type: 'string' },
    mode: { type: 'string', default: 'apply' },
    prune: { type: 'boolean', default: false },
    inventory: { type: 'boolean', default: false },
    sockets: { type: 'string', default: '32' },
  },
});
if (!values.kubeconfig || !values.dir) throw new Error('--kubeconfig and --dir are required');
const sockets = Number(values.sockets);

interface Kubeconfig {
  clusters: {
    cluster: { server: string; 'insecure-skip-tls-verify'?: boolean; 'certificate-authority-data'?: string };
  }[];
  users: { user: { token?: string } }[];
}
// the bench's kubeconfigs have one cluster and one token user
const kc = loadYaml(fs.readFileSync(values.kubeconfig, 'utf8')) as Kubeconfig;
const cluster = kc.clusters[0].cluster;
const server = new URL(cluster.server);
const token = kc.users[0].user.token;
const agent = new https.Agent({
  keepAlive: true,
  maxSockets: sockets,
  rejectUnauthorized: !cluster['insecure-skip-tls-verify'],
  ca: cluster['certificate-authority-data']
    ? Buffer.from(cluster['certificate-authority-data'], 'base64')
    : undefined,
});

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
};
const resources: Record<string, string> = {
  Role: 'roles',
  ConfigMap: 'configmaps',
  Service: 'services',
  Deployment: 'deployments',
};

function collectionPath(apiVersion: string, kind: string, namespace: string): string {
  const plural = resources[kind];
  if (!plural) throw new Error(`the floor does not know kind ${kind}`);
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}/namespaces/${namespace}/${plural}`;
}

function request(method: string, pathAndQuery: string, body?: string, contentType?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'bench-floor/1' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['Content-Type'] = contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = https.request(
      { agent, host: server.hostname, port: server.port, method, path: pathAndQuery, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const objects: Obj[] = [];
for (const f of fs.readdirSync(values.dir).sort()) {
  if (!f.endsWith('.yaml') || f === 'resourcegroup.yaml') continue;
  for (const doc of loadAll(fs.readFileSync(path.join(values.dir, f), 'utf8')))
    if (doc && typeof doc === 'object') objects.push(doc as Obj);
}
const inventory = values.inventory ? readInventory() : undefined;
if (inventory)
  for (const o of objects)
    o.metadata.annotations = { ...o.metadata.annotations, 'config.k8s.io/owning-inventory': inventory.id };

let ok = 0;
let failed = 0;
const errors: string[] = [];
async function pool<T>(items: T[], work: (item: T) => Promise<boolean>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (await work(item)) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(sockets, items.length) }, worker));
}
const note = (what: string, status: number, body: string) => {
  if (errors.length < 3) errors.push(`${what}: HTTP ${status} ${body.slice(0, 200)}`);
  return false;
};

const objectPath = (o: Obj) =>
  `${collectionPath(o.apiVersion, o.kind, o.metadata.namespace ?? 'default')}/${o.metadata.name}`;
let generation = 0;
if (inventory && values.mode === 'apply') {
  const r = await request(
    'PATCH',
    `${inventory.path}?fieldManager=bench-floor&force=true`,
    JSON.stringify(inventory.object),
    'application/apply-patch+yaml',
  );
  if (r.status === 200 || r.status === 201) {
    ok++;
    generation = (JSON.parse(r.body) as { metadata: { generation?: number } }).metadata.generation ?? 0;
  } else {
    note(inventory.path, r.status, r.body);
    failed++;
  }
}
if (values.mode === 'apply' || values.mode === 'preview') {
  const dry = values.mode === 'preview' ? '&dryRun=All' : '';
  await pool(objects, async (o) => {
    const r = await request(
      'PATCH',
      `${objectPath(o)}?fieldManager=bench-floor&force=true${dry}`,
      JSON.stringify(o),
      'application/apply-patch+yaml',
    );
    return r.status === 200 || r.status === 201 || note(objectPath(o), r.status, r.body);
  });
  if (values.prune && values.mode === 'apply') {
    const keep = new Set(objects.map(objectPath));
    const lists = new Map<string, string>();
    for (const o of objects) {
      const label = o.metadata.labels ?? {};
      const [k, v] = Object.entries(label)[0] ?? [];
      const c = collectionPath(o.apiVersion, o.kind, o.metadata.namespace ?? 'default');
      if (k) lists.set(c, `${k}=${v}`);
    }
    const gone: string[] = [];
    for (const [c, selector] of lists) {
      const r = await request('GET', `${c}?labelSelector=${encodeURIComponent(selector)}`);
      if (r.status !== 200) {
        note(c, r.status, r.body);
        failed++;
        continue;
      }
      for (const item of (JSON.parse(r.body) as { items: { metadata: { name: string } }[] }).items)
        if (!keep.has(`${c}/${item.metadata.name}`)) gone.push(`${c}/${item.metadata.name}`);
    }
    await pool(gone, async (p) => {
      const r = await request('DELETE', p);
      return r.status === 200 || r.status === 202 || note(p, r.status, r.body);
    });
  }
} else if (values.mode === 'destroy') {
  await pool(objects, async (o) => {
    const r = await request('DELETE', objectPath(o));
    return r.status === 200 || r.status === 202 || r.status === 404 || note(objectPath(o), r.status, r.body);
  });
} else throw new Error('--mode must be apply, preview or destroy');
if (inventory && values.mode === 'apply') {
  const r = await request(
    'PATCH',
    `${inventory.path}/status?fieldManager=bench-floor&force=true`,
    JSON.stringify(inventory.status(generation)),
    'application/apply-patch+yaml',
  );
  if (r.status === 200 || r.status === 201) ok++;
  else {
    note(`${inventory.path}/status`, r.status, r.body);
    failed++;
  }
} else if (inventory && values.mode === 'destroy') {
  const r = await request('DELETE', inventory.path);
  if (r.status === 200 || r.status === 202 || r.status === 404) ok++;
  else {
    note(inventory.path, r.status, r.body);
    failed++;
  }
}

agent.destroy();
process.stdout.write(`${JSON.stringify({ ok, failed, errors })}\n`);
process.exitCode = failed > 0 ? 1 : 0;

/**
 * The package's ResourceGroup as kpt writes it: the inventory-id label, every object in `spec.resources`, and
 * a status entry per object (kpt's literal `status: Unknown`; the floor does not wait, so `reconcile: Skipped`).
 */
function readInventory() {
  const rg = loadYaml(fs.readFileSync(path.join(values.dir!, 'resourcegroup.yaml'), 'utf8')) as Obj;
  const { name, namespace = 'default', labels = {} } = rg.metadata;
  const id = labels['cli-utils.sigs.k8s.io/inventory-id'];
  if (!id) throw new Error('resourcegroup.yaml has no cli-utils.sigs.k8s.io/inventory-id label');
  const group = (o: Obj) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '');
  const ids = objects
    .map((o) => ({
      group: group(o),
      kind: o.kind,
      name: o.metadata.name,
      namespace: o.metadata.namespace ?? '',
    }))
    .sort((a, b) =>
      `${a.group}/${a.kind}/${a.namespace}/${a.name}` < `${b.group}/${b.kind}/${b.namespace}/${b.name}`
        ? -1
        : 1,
    );
  const head = { apiVersion: 'kpt.dev/v1alpha1', kind: 'ResourceGroup' };
  return {
    id,
    path: `/apis/kpt.dev/v1alpha1/namespaces/${namespace}/resourcegroups/${name}`,
    object: { ...head, metadata: { name, namespace, labels: { ...labels } }, spec: { resources: ids } },
    status: (observedGeneration: number) => ({
      ...head,
      metadata: { name, namespace },
      status: {
        observedGeneration,
        resourceStatuses: ids.map((i) => ({
          ...i,
          status: 'Unknown',
          strategy: 'Apply',
          actuation: 'Succeeded',
          reconcile: 'Skipped',
        })),
      },
    }),
  };
}
