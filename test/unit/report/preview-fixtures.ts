import type { KubeObject } from '../../../src/common/kube-object.js';
import { idOf, shortName } from '../../../src/common/object-id.js';
import { diffObjects } from '../../../src/preview/diff.js';
import { collectSecretValues } from '../../../src/preview/redact.js';
import {
  emptySummary,
  type PreviewAction,
  type PreviewDocument,
  type PreviewObject,
} from '../../../src/preview/types.js';

/** Preview documents built the way the preview engine builds them: objects through diffObjects. */

export const PLANTED = 's3cr3t-planted-value';
export const PLANTED_B64 = Buffer.from(PLANTED).toString('base64');

const NS = 'shop';

export function deployment(
  name: string,
  replicas: number,
  configMap: string,
  image = 'wordpress:6.4-apache',
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, labels: { app: 'wordpress' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'wordpress', tier: 'frontend' } },
      strategy: { type: 'Recreate' },
      template: {
        metadata: { labels: { app: 'wordpress', tier: 'frontend' } },
        spec: {
          containers: [
            {
              name: 'wordpress',
              image,
              envFrom: [{ configMapRef: { name: configMap } }],
              ports: [{ containerPort: 80, name: 'wordpress' }],
            },
          ],
        },
      },
    },
  };
}

export function configMap(
  name: string,
  data: Record<string, string>,
  annotations?: Record<string, string>,
): KubeObject {
  const metadata = annotations ? { name, namespace: NS, annotations } : { name, namespace: NS };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
}

export function secret(
  name: string,
  data: Record<string, string>,
  stringData?: Record<string, string>,
): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: NS },
    type: 'Opaque',
    data,
  };
  if (stringData) obj.stringData = stringData;
  return obj;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

interface Entry {
  live?: KubeObject;
  desired: KubeObject;
  action: PreviewAction;
  reason?: string;
  file?: string;
  wave?: number;
  validated?: boolean;
}

/** Turns entries into a document: changes and diffs from diffObjects, counts from the actions. */
export function buildDocument(entries: Entry[], extra: Partial<PreviewDocument> = {}): PreviewDocument {
  const values = collectSecretValues(entries.flatMap((e) => [e.live, e.desired]));
  const summary = emptySummary();
  const objects = entries.map((entry, i): PreviewObject => {
    summary[entry.action]++;
    const obj: PreviewObject = {
      id: idOf(entry.desired),
      apiVersion: entry.desired.apiVersion,
      action: entry.action,
    };
    if (entry.reason) obj.reason = entry.reason;
    if (entry.file) obj.source = { file: entry.file, line: 1 + (i % 3) * 20 };
    if (entry.wave) obj.wave = entry.wave;
    if (entry.validated !== undefined) obj.validated = entry.validated;
    if (entry.action === 'create' || entry.action === 'configure' || entry.action === 'replace') {
      const { changes, diff } = diffObjects(entry.live, entry.desired, { secretValues: values });
      if (changes.length > 0) obj.changes = changes;
      if (diff) obj.diff = diff;
    }
    return obj;
  });
  return {
    package: 'deploy/wordpress',
    summary,
    objects,
    waves: [],
    edges: [],
    context: {
      cluster: 'prod-eu',
      namespace: NS,
      fieldManager: 'kpt-live-action',
      commit: '3f2c1a9d0b8e4c7f6a5b4c3d2e1f0a9b8c7d6e5f',
      durationMs: 1400,
      targetBranch: 'main',
      runUrl: 'https://github.com/acme/shop/actions/runs/4242',
    },
    ...extra,
  };
}

/** The mock's wordpress preview: one create, two configures (one a Secret), one prune, one skip, 5 unchanged. */
export function wordpressPreview(): PreviewDocument {
  const unchanged = (obj: KubeObject): Entry => ({ live: obj, desired: obj, action: 'unchanged' });
  const mysql = deployment('wordpress-mysql', 1, 'mysql-config', 'mysql:8.0');
  const entries: Entry[] = [
    {
      desired: configMap('wp-config-2', { WORDPRESS_DB_HOST: 'wordpress-mysql' }),
      action: 'create',
      file: 'deploy/wordpress/config.yaml',
      wave: 1,
    },
    {
      live: secret('mysql-pass', { password: b64('correct-horse-battery') }),
      desired: secret('mysql-pass', { password: b64('correct-horse-battery-2') }),
      action: 'configure',
      file: 'deploy/wordpress/secret.yaml',
      wave: 1,
    },
    {
      live: deployment('wordpress', 1, 'wp-config-1'),
      desired: deployment('wordpress', 2, 'wp-config-2'),
      action: 'configure',
      file: 'deploy/wordpress/wordpress-deployment.yaml',
      wave: 2,
    },
    { desired: configMap('wp-config-1', {}), action: 'prune', wave: 2 },
    {
      desired: configMap('foreign', {}),
      action: 'skip',
      reason: 'inventory policy prevented actuation (strict): owned by another inventory (inventory-1234)',
    },
    unchanged(mysql),
    unchanged(configMap('mysql-config', { MYSQL_DATABASE: 'wordpress' })),
    unchanged({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'wordpress', namespace: NS } }),
    unchanged({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'wordpress-mysql', namespace: NS } }),
    unchanged({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'mysql-pv-claim', namespace: NS },
    }),
  ];
  return buildDocument(entries, {
    waves: [
      ['ConfigMap/wp-config-2', 'Secret/mysql-pass', 'Deployment/wordpress-mysql', 'Service/wordpress-mysql'],
      ['Deployment/wordpress', 'Service/wordpress'],
    ],
    edges: [{ from: 'Deployment/wordpress', to: 'Deployment/wordpress-mysql' }],
  });
}

/** A ConfigMap with `lines` keys whose values change where `(i + seed) % every === 0`. */
function bigConfigMap(name: string, lines: number, seed: number, every: number): [KubeObject, KubeObject] {
  const before: Record<string, string> = {};
  const after: Record<string, string> = {};
  for (let i = 0; i < lines; i++) {
    before[`key-${i}`] = `value ${i} of ${name}`;
    after[`key-${i}`] = (i + seed) % every === 0 ? `changed value ${i} of ${name}` : before[`key-${i}`];
  }
  return [configMap(name, before), configMap(name, after)];
}

const CYCLE: PreviewAction[] = [
  'configure',
  'configure',
  'create',
  'unchanged',
  'configure',
  'prune',
  'unchanged',
  'skip',
  'error',
  'configure',
];

/** A generated plan of `n` objects with every action, most of them configures with multi-hunk diffs. */
export function generatedPreview(n: number, linesPerObject = 30): PreviewDocument {
  const entries: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const action = CYCLE[i % CYCLE.length];
    const [live, desired] = bigConfigMap(`cm-${String(i).padStart(4, '0')}`, linesPerObject, i, 7);
    entries.push({
      live: action === 'create' ? undefined : live,
      desired,
      action,
      reason:
        action === 'skip'
          ? 'dependency apply reconcile failed'
          : action === 'error'
            ? `admission webhook "x" denied the request: object ${i} | <details> is \`bad\``
            : undefined,
      file: `deploy/big/cm-${i}.yaml`,
      wave: 1 + (i % 3),
    });
  }
  const waves: string[][] = [[], [], []];
  for (const entry of entries) waves[(entry.wave ?? 1) - 1].push(shortName(idOf(entry.desired)));
  return buildDocument(entries, { package: 'deploy/big', waves });
}
