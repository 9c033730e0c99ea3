import type { Node, Pair } from 'yaml';
import { isRecord, type KubeObject } from '../common/kube-object.js';
import { yamlLib } from '../startup/yaml-module.js';
import type { PackageError } from './package-error.js';
import { lineOfNode, sourceText, type YamlDoc } from './read-yaml.js';

/** The result of checking one document (or one `List` item): the typed object when it has an identity. */
export interface ShapedObject {
  /** Absent when the object has no usable identity (no apiVersion, kind or metadata.name). */
  object?: KubeObject;
  line: number;
  errors: PackageError[];
}

/** How a value reads in a message: `boolean true`, `number 1`, `null`, `a mapping`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}

/** The YAML node at `path` below `node` (keeping scalars), if `node` is a mapping. */
function nodeAt(node: Node | undefined, path: readonly string[]): Node | undefined {
  if (!node || !yamlLib().isMap(node)) return undefined;
  const found = node.getIn(path, true);
  return found && typeof found === 'object' && 'range' in found ? (found as Node) : undefined;
}

function pairFor(node: Node | undefined, key: string): Pair | undefined {
  if (!node || !yamlLib().isMap(node)) return undefined;
  return node.items.find((p) => (yamlLib().isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
}

/**
 * Where a value was read from: its file and text, its first line, and for a value the `yaml` package read,
 * the line counter that places its nodes. A value the fast reader read has neither nodes nor a counter.
 */
export type ShapeSource = Pick<YamlDoc, 'file' | 'text' | 'line'> & Partial<Pick<YamlDoc, 'lineCounter'>>;

/**
 * Checks the fields every object needs and that the API server types as strings, reporting each problem
 * at its own line with the fix; values of the wrong type are coerced to the text as written so the other
 * rules can still run on the object (the errors are fatal anyway). Objects without apiVersion, kind or
 * metadata.name have no identity and are dropped after their errors are recorded. Without a `node`
 * (the fast reader) every error is placed at the object's first line and a coerced value is the
 * JavaScript value as text, so callers use such a result only when it has no errors, and otherwise read
 * the file again with the `yaml` package.
 */
export function shapeObject(value: unknown, node: Node | undefined, yaml: ShapeSource): ShapedObject {
  const line = lineOfNode(yaml.lineCounter, node, yaml.line);
  const file = yaml.file;
  const errors: PackageError[] = [];
  // The line of a field's key (`metadata:`), which is where people look, not of its value below it.
  const at = (path: string[]) => {
    const parent = path.length > 1 ? nodeAt(node, path.slice(0, -1)) : node;
    const key = pairFor(parent, path[path.length - 1])?.key;
    return lineOfNode(yaml.lineCounter, key && typeof key === 'object' ? (key as Node) : undefined, line);
  };
  if (!isRecord(value)) {
    errors.push({
      message: `not a Kubernetes object: expected a mapping with apiVersion, kind and metadata, got ${describeValue(value)}`,
      file,
      line,
      fix: 'make the document a Kubernetes object, or move it out of the package (or annotate it config.kubernetes.io/local-config: "true")',
    });
    return { line, errors };
  }
  const meta = isRecord(value.metadata) ? value.metadata : undefined;
  const kind = typeof value.kind === 'string' && value.kind !== '' ? value.kind : undefined;
  const rawName = meta?.name;
  const label = `${kind ?? '<no kind>'}/${typeof rawName === 'string' || typeof rawName === 'number' ? rawName : '<no name>'}`;
  const object = kind || rawName !== undefined ? label : undefined;

  const required: [string[], string, string][] = [
    [
      ['apiVersion'],
      'apiVersion',
      'add "apiVersion: <group>/<version>" (e.g. "apps/v1"; "v1" for core kinds)',
    ],
    [['kind'], 'kind', 'add "kind: <Kind>" (e.g. "ConfigMap")'],
  ];
  for (const [path, field, fix] of required) {
    const v = value[path[0]];
    if (typeof v !== 'string' || v === '') {
      const message =
        v === undefined
          ? `missing ${field}`
          : `${field} must be a non-empty string (got ${describeValue(v)})`;
      errors.push({ message, file, line: v === undefined ? line : at(path), object, fix });
    }
  }
  if (!meta || rawName === undefined || rawName === null || rawName === '') {
    errors.push({
      message: meta ? 'missing metadata.name' : 'missing metadata',
      file,
      line: meta ? at(['metadata']) : line,
      object,
      fix: 'add "metadata:\\n  name: <name>"',
    });
  }
  if (errors.length > 0 || !meta) return { line, errors };

  const stringField = (path: string[], what: string): string => {
    const v = meta[path[path.length - 1]];
    if (typeof v === 'string') return v;
    const n = nodeAt(node, path);
    const written = sourceText(yaml.text, n) ?? String(v);
    errors.push({
      message: `${what} must be a string (got ${describeValue(v)})`,
      file,
      line: at(path),
      object,
      fix: isRecord(v) || Array.isArray(v) ? `make ${what} a string` : `quote it: ${JSON.stringify(written)}`,
    });
    return written;
  };

  const metadata: Record<string, unknown> = {
    ...meta,
    name: stringField(['metadata', 'name'], 'metadata.name'),
  };
  if (meta.namespace === null || meta.namespace === undefined) delete metadata.namespace;
  else metadata.namespace = stringField(['metadata', 'namespace'], 'metadata.namespace');

  for (const field of ['labels', 'annotations'] as const) {
    const map = meta[field];
    if (map === null || map === undefined) {
      delete metadata[field];
      continue;
    }
    const mapNode = nodeAt(node, ['metadata', field]);
    if (!isRecord(map)) {
      errors.push({
        message: `metadata.${field} must be a mapping of strings (got ${describeValue(map)})`,
        file,
        line: at(['metadata', field]),
        object,
        fix: `write metadata.${field} as "key: value" lines`,
      });
      delete metadata[field];
      continue;
    }
    const clean: Record<string, string> = {};
    const singular = field === 'labels' ? 'label' : 'annotation';
    for (const [key, v] of Object.entries(map)) {
      if (typeof v === 'string') {
        clean[key] = v;
        continue;
      }
      const pair = pairFor(mapNode, key);
      const valueNode = pair?.value && typeof pair.value === 'object' ? (pair.value as Node) : undefined;
      const written = v === null ? '' : (sourceText(yaml.text, valueNode) ?? String(v));
      errors.push({
        message: `${singular} ${JSON.stringify(key)} value must be a string (got ${describeValue(v)})`,
        file,
        line: lineOfNode(yaml.lineCounter, (pair?.key as Node | undefined) ?? mapNode, line),
        object,
        fix:
          isRecord(v) || Array.isArray(v)
            ? 'make the value a string (for structured data, a JSON or YAML string in quotes or a "|" block)'
            : v === null
              ? 'give it a value, or write an empty string: ""'
              : `quote it: ${JSON.stringify(written)}`,
      });
      clean[key] = written;
    }
    metadata[field] = clean;
  }

  const kubeObject = { ...value, metadata } as KubeObject;
  return { object: kubeObject, line, errors };
}
