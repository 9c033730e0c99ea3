import fs from 'node:fs';
import path from 'node:path';
import { type Document, parseAllDocuments } from 'yaml';

/**
 * Mutations of good packages for the bad-input test: each breaks a rule that the local validator or the
 * pre-flight server-side dry-run must enforce, so a mutated package must never reach the cluster.
 */

export interface ObjectDoc {
  file: string;
  doc: Document;
  /** Every document of the file, to write it back. */
  all: Document[];
}

/** The package's object documents (namespace `default` rewritten to the test's), for mutating one. */
export function objectDocuments(dir: string, ns: string): ObjectDoc[] {
  const out: ObjectDoc[] = [];
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!/\.ya?ml$/.test(f) || f.endsWith('resourcegroup.yaml')) continue;
    const file = path.join(dir, f);
    const text = fs.readFileSync(file, 'utf8').replaceAll('/namespaces/default/', `/namespaces/${ns}/`);
    const all = parseAllDocuments(text) as Document[];
    for (const doc of all) {
      if (doc.getIn(['metadata', 'namespace']) === 'default') doc.setIn(['metadata', 'namespace'], ns);
      if (typeof doc.get('kind') === 'string' && doc.get('kind') !== 'Kptfile') out.push({ file, doc, all });
    }
    fs.writeFileSync(file, all.map((x) => x.toString()).join('---\n'));
  }
  return out;
}

export const dependsOn = 'config.kubernetes.io/depends-on';
const workload = (d: Document) => ['Deployment', 'StatefulSet'].includes(String(d.get('kind')));
const hasContainerPort = (d: Document) =>
  workload(d) &&
  d.getIn(['spec', 'template', 'spec', 'containers', 0, 'ports', 0, 'containerPort']) !== undefined;

/** Mutations that must never reach the cluster: each breaks a rule the validator or the pre-flight enforces. */
export const mutations: { name: string; applies: (d: Document) => boolean; apply: (d: Document) => void }[] =
  [
    { name: 'drop kind', applies: () => true, apply: (d) => d.delete('kind') },
    { name: 'drop metadata.name', applies: () => true, apply: (d) => d.deleteIn(['metadata', 'name']) },
    { name: 'name as a number', applies: () => true, apply: (d) => d.setIn(['metadata', 'name'], 4242) },
    {
      name: 'label as a boolean',
      applies: () => true,
      apply: (d) => d.setIn(['metadata', 'labels', 'mutated'], true),
    },
    {
      name: 'malformed depends-on',
      applies: () => true,
      apply: (d) => d.setIn(['metadata', 'annotations', dependsOn], 'not-a-reference'),
    },
    {
      name: 'unknown apiVersion',
      applies: (d) => String(d.get('apiVersion')).startsWith('apps/'),
      apply: (d) => d.set('apiVersion', 'apps/v9'),
    },
    {
      name: 'container port as a string',
      applies: hasContainerPort,
      apply: (d) =>
        d.setIn(['spec', 'template', 'spec', 'containers', 0, 'ports', 0, 'containerPort'], 'http-port'),
    },
    {
      name: 'service port as a string',
      applies: (d) => d.get('kind') === 'Service' && d.getIn(['spec', 'ports', 0, 'port']) !== undefined,
      apply: (d) => d.setIn(['spec', 'ports', 0, 'port'], 'eighty'),
    },
    {
      name: 'bogus field in a strict schema',
      applies: (d) => workload(d) || d.get('kind') === 'Service',
      apply: (d) => d.setIn(['spec', 'bogusField'], 'surprise'),
    },
    {
      name: 'negative replicas',
      applies: workload,
      apply: (d) => d.setIn(['spec', 'replicas'], -3),
    },
    {
      name: 'invalid name',
      applies: () => true,
      apply: (d) => d.setIn(['metadata', 'name'], 'Not_A_DNS_Name'),
    },
  ];
