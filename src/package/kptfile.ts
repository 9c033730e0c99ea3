import { readFile } from 'node:fs/promises';
import { isRecord } from '../common/kube-object.js';
import { loadYaml, yamlLib } from '../common/yaml-module.js';
import type { PackageError } from './package-error.js';
import { lineOfNode, parseYamlFile } from './read-yaml.js';

/** The Kptfile's deprecated `inventory:` section, as kpt's `kptfilev1.Inventory` has it. */
export interface KptfileInventory {
  name?: string;
  namespace?: string;
  inventoryID?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** What the engine needs from a Kptfile: whether it declares a pipeline, and its inventory section. */
export interface KptfileInfo {
  /** Path relative to the repository root. */
  file: string;
  /** Package name (`metadata.name`), when set. */
  name?: string;
  /** True when `pipeline:` has at least one mutator or validator. */
  pipeline: boolean;
  inventory?: KptfileInventory;
  /** 1-based line of `inventory:`. */
  inventoryLine?: number;
  errors: PackageError[];
}

const stringMap = (v: unknown): Record<string, string> | undefined =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : undefined;

const optString = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : String(v);

/**
 * Reads a Kptfile's text. Only the parts live apply cares about are interpreted; the rest (upstream,
 * info) is kpt's business. An empty `pipeline: {}` or `inventory:` with no value counts as absent, as kpt
 * decodes them to empty/nil.
 */
export function parseKptfile(text: string, file: string): KptfileInfo {
  const { docs, errors } = parseYamlFile(text, file);
  const info: KptfileInfo = { file, pipeline: false, errors };
  if (docs.length === 0) {
    if (errors.length === 0) {
      info.errors.push({ message: 'the Kptfile is empty', file, fix: 'create it with "kpt pkg init <dir>"' });
    }
    return info;
  }
  const [first] = docs;
  const value: unknown = first.doc.toJS();
  if (!isRecord(value)) {
    info.errors.push({
      message: 'the Kptfile is not a mapping',
      file,
      line: first.line,
      fix: 'write it as kpt does: apiVersion: kpt.dev/v1, kind: Kptfile, metadata.name',
    });
    return info;
  }
  if (isRecord(value.metadata) && typeof value.metadata.name === 'string') info.name = value.metadata.name;
  const pipeline = value.pipeline;
  if (isRecord(pipeline)) {
    const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
    info.pipeline = nonEmpty(pipeline.mutators) || nonEmpty(pipeline.validators);
  }
  const inv = value.inventory;
  if (isRecord(inv)) {
    info.inventory = {
      name: optString(inv.name),
      namespace: optString(inv.namespace),
      inventoryID: optString(inv.inventoryID),
      labels: stringMap(inv.labels),
      annotations: stringMap(inv.annotations),
    };
    const { isMap, isScalar } = yamlLib();
    const contents = first.doc.contents;
    const pair = isMap(contents)
      ? contents.items.find((p) => isScalar(p.key) && p.key.value === 'inventory')
      : undefined;
    info.inventoryLine = lineOfNode(
      first.lineCounter,
      isScalar(pair?.key) ? pair.key : undefined,
      first.line,
    );
  }
  return info;
}

/** Reads and parses `<dir>/Kptfile`; `file` is its path relative to the repository root. */
export async function readKptfile(abs: string, file: string): Promise<KptfileInfo> {
  const [text] = await Promise.all([readFile(abs, 'utf8'), loadYaml()]);
  return parseKptfile(text, file);
}
