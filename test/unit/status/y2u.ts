import { parse } from 'yaml';
import { isRecord, type KubeObject } from '../../../src/common/kube-object.js';

/** Removes the indentation common to all non-blank lines, so YAML can sit indented in a test table. */
function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, '').split('\n');
  const widths = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length);
  const cut = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

/**
 * Parses one YAML object into a KubeObject, like cli-utils' `y2u` test helper, so test tables show the
 * object as a reviewer would write it. Quote condition statuses (`status: "True"`): bare True is a YAML
 * boolean, which kstatus rejects just as the real API never sends it.
 */
export function y2u(text: string): KubeObject {
  const doc: unknown = parse(dedent(text));
  if (!isRecord(doc) || typeof doc.kind !== 'string' || !isRecord(doc.metadata)) {
    throw new Error(`test YAML is not a Kubernetes object (needs kind and metadata):\n${text}`);
  }
  return doc as KubeObject;
}

/** An object of `apiVersion`/`kind` named `x` in namespace `default`, with `body` (YAML) merged in. */
export function kube(apiVersion: string, kind: string, body = ''): KubeObject {
  const fields: unknown = parse(dedent(body)) ?? {};
  if (!isRecord(fields)) throw new Error(`test YAML body is not a mapping:\n${body}`);
  const metadata = isRecord(fields.metadata) ? fields.metadata : {};
  return { ...fields, apiVersion, kind, metadata: { name: 'x', namespace: 'default', ...metadata } };
}
