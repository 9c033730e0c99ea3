import type { Node } from 'yaml';
import { isRecord, type KubeObject } from '../common/kube-object.js';
import { loadYaml, yamlLib } from '../startup/yaml-module.js';
import { type FastDoc, readFastYaml, readFastYamlInSlices } from './fast-yaml.js';
import { type ShapedObject, shapeObject } from './object-shape.js';
import type { PackageError } from './package-error.js';
import { parseYamlFile, type YamlDoc } from './read-yaml.js';

/** A checked object that has an identity. */
export type Shaped = ShapedObject & { object: KubeObject };

/**
 * Every object of one file as the fast reader reads it, when it reads the whole file, no document is a
 * `kind: List`, and every object is well-formed; undefined otherwise, and then only the `yaml` package
 * (`shapeFile`) gives the result, errors with their exact lines included. Never imports `yaml`.
 */
export function shapeFast(text: string, file: string): Shaped[] | undefined {
  return shapeDocs(readFastYaml(text), text, file);
}

function shapeDocs(fast: FastDoc[] | undefined, text: string, file: string): Shaped[] | undefined {
  if (!fast || fast.some((d) => isRecord(d.value) && d.value.kind === 'List')) return undefined;
  const shaped = fast.map((d) => shapeObject(d.value, undefined, { file, text, line: d.line }));
  return shaped.every((x) => x.errors.length === 0 && x.object) ? (shaped as Shaped[]) : undefined;
}

/**
 * Every object of one file, checked (syntax and shape errors go to `errors`), `kind: List` flattened:
 * read by the fast reader when it can (see `shapeFast`), else (and for every error's line) by the `yaml`
 * package, which is imported only then. `onKinds` hears the kinds the fast reader meets as it goes.
 */
export async function shapeFile(
  text: string,
  file: string,
  errors: PackageError[],
  onKinds?: (kinds: { apiVersion: string; kind: string }[]) => void,
): Promise<Shaped[]> {
  // read in slices: a large file does not hold up the answers the run is waiting for
  const onSlice = onKinds && ((docs: readonly FastDoc[]) => onKinds(docs.flatMap(kindOf)));
  const fast = shapeDocs(await readFastYamlInSlices(text, { onSlice }), text, file);
  if (fast) return fast;
  await loadYaml();
  const parsed = parseYamlFile(text, file);
  errors.push(...parsed.errors);
  const out: Shaped[] = [];
  for (const yaml of parsed.docs) {
    if (yaml.doc.contents === null || yaml.doc.toJS() === null) continue; // empty document (`---` alone)
    for (const { value, node } of objectsOf(yaml)) {
      const shaped = shapeObject(value, node, yaml);
      errors.push(...shaped.errors);
      if (shaped.object) out.push(shaped as Shaped);
    }
  }
  return out;
}

/** The objects of one document: itself, or the items of a `kind: List` (flattened as kpt's live.Flatten). */
function objectsOf(yaml: YamlDoc): { value: unknown; node: Node | undefined }[] {
  const value: unknown = yaml.doc.toJS();
  const node = yaml.doc.contents ?? undefined;
  if (isRecord(value) && value.kind === 'List' && Array.isArray(value.items)) {
    const itemsNode = yaml.doc.getIn(['items'], true);
    return value.items.map((item, i) => ({
      value: item,
      node: yamlLib().isSeq(itemsNode) ? (itemsNode.items[i] as Node | undefined) : undefined,
    }));
  }
  return [{ value, node }];
}

/** A document's apiVersion and kind, when both are strings. */
function kindOf(doc: FastDoc): { apiVersion: string; kind: string }[] {
  if (!isRecord(doc.value)) return [];
  const { apiVersion, kind } = doc.value;
  return typeof apiVersion === 'string' && typeof kind === 'string' ? [{ apiVersion, kind }] : [];
}
