import { type Document, LineCounter, type Node, parseAllDocuments } from 'yaml';
import type { PackageError } from './package-error.js';

/** One parsed YAML document with what is needed to point at its lines later. */
export interface YamlDoc {
  /** File path relative to the repository root (posix). */
  file: string;
  doc: Document.Parsed;
  text: string;
  lineCounter: LineCounter;
  /** 1-based line of the document's first content line (after comments and `---`). */
  line: number;
}

/** 1-based line where a node starts; `fallback` when the node has no position. */
export function lineOfNode(lineCounter: LineCounter, node: Node | null | undefined, fallback = 1): number {
  const offset = node?.range?.[0];
  return offset === undefined ? fallback : lineCounter.linePos(offset).line;
}

/**
 * The source text of a scalar node, as written (`1.0`, `yes`, `true`), so a fix can say exactly what to
 * quote rather than what JavaScript made of it.
 */
export function sourceText(text: string, node: Node | null | undefined): string | undefined {
  const range = node?.range;
  return range ? text.slice(range[0], range[1]) : undefined;
}

/**
 * Splits a file into documents with the `yaml` package (YAML 1.2 core schema, as kpt's kyaml reads it:
 * `yes`/`on` stay strings, `true`/`1.0` do not). Syntax errors become PackageErrors with the line the
 * parser points at; a document with errors yields no objects, the other documents of the file still do,
 * so every mistake is reported in one run.
 */
export function parseYamlFile(text: string, file: string): { docs: YamlDoc[]; errors: PackageError[] } {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter });
  const docs: YamlDoc[] = [];
  const errors: PackageError[] = [];
  // A stream with nothing in it (empty file, comments only) parses to an EmptyStream, which is an array too.
  for (const doc of Array.isArray(parsed) ? parsed : []) {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        errors.push({
          message: `invalid YAML: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
          file,
          line: err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line,
          fix: 'fix the YAML syntax at that line (indentation, quotes, unclosed brackets); `kpt fn render` or a YAML linter shows the details',
        });
      }
      continue;
    }
    docs.push({ file, doc, text, lineCounter, line: lineOfNode(lineCounter, doc.contents) });
  }
  return { docs, errors };
}
