import { readFile } from 'node:fs/promises';
import { isRecord } from '../common/kube-object.js';
import { loadYaml, yamlLib } from '../startup/yaml-module.js';
import { readFastYaml, topLevelKeyLine } from './fast-yaml.js';
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
 * The parts of a Kptfile's top-level mapping live apply cares about, into `info`. Only those are
 * interpreted; the rest (upstream, info) is kpt's business. An empty `pipeline: {}` or `inventory:` with
 * no value counts as absent, as kpt decodes them to empty/nil. `inventoryLine` is asked only when there is
 * an inventory section; undefined means the caller cannot place it.
 */
function interpret(
  value: Record<string, unknown>,
  info: KptfileInfo,
  inventoryLine: () => number | undefined,
): KptfileInfo | undefined {
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
    info.inventoryLine = inventoryLine();
    if (info.inventoryLine === undefined) return undefined;
  }
  return info;
}

/**
 * Reads a Kptfile's text with the `yaml` package (which must be loaded), reporting syntax errors and an
 * empty or non-mapping Kptfile at their lines.
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
  const inventoryLine = () => {
    const { isMap, isScalar } = yamlLib();
    const contents = first.doc.contents;
    const pair = isMap(contents)
      ? contents.items.find((p) => isScalar(p.key) && p.key.value === 'inventory')
      : undefined;
    return lineOfNode(first.lineCounter, isScalar(pair?.key) ? pair.key : undefined, first.line);
  };
  return interpret(value, info, inventoryLine) ?? info;
}

/**
 * `parseKptfile`'s result without the `yaml` package, for a Kptfile the fast reader reads whose first
 * document is a mapping and is the first of the file (no empty document before it), and whose `inventory:`
 * line, if any, is found in the text; undefined for anything else, which `parseKptfile` then reads.
 */
export function parseKptfileFast(text: string, file: string): KptfileInfo | undefined {
  const first = readFastYaml(text)?.[0];
  if (!first || !isRecord(first.value)) return undefined;
  // before it only blank lines, comments and at most one `---`: else an empty document may come first
  const before = text.split('\n', first.line - 1).map((l) => l.trim());
  if (before.filter((l) => l !== '' && !l.startsWith('#')).some((l, i) => i > 0 || !l.startsWith('---')))
    return undefined;
  const info: KptfileInfo = { file, pipeline: false, errors: [] };
  return interpret(first.value, info, () => topLevelKeyLine(text, first, 'inventory'));
}

/**
 * Reads and parses `<dir>/Kptfile`; `file` is its path relative to the repository root. The `yaml`
 * package is imported only for a Kptfile the fast reader does not take.
 */
export async function readKptfile(abs: string, file: string): Promise<KptfileInfo> {
  const text = await readFile(abs, 'utf8');
  const fast = parseKptfileFast(text, file);
  if (fast) return fast;
  await loadYaml();
  return parseKptfile(text, file);
}
