/** How field paths and values are spelled in a preview, where a reviewer reads them in one glance. */

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * `spec.template.spec.containers[0].image`; keys that are not plain identifiers are quoted, so
 * `metadata.labels["app.kubernetes.io/name"]` and `data["tls.crt"]` stay unambiguous.
 */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (PLAIN_KEY.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Longest rendering of a value kept in a FieldChange; the full value is in the YAML diff. */
export const SHORT_VALUE_LENGTH = 60;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A one-line rendering: strings as written (`""` when empty, first line and `…` when multi-line), numbers
 * and booleans as YAML would print them, maps and lists as compact JSON; clipped to 60 characters.
 */
export function shortValue(value: unknown): string {
  if (typeof value === 'string') {
    if (value === '') return '""';
    const newline = value.indexOf('\n');
    const firstLine = newline < 0 ? value : `${value.slice(0, newline)} …`;
    return clip(firstLine, SHORT_VALUE_LENGTH);
  }
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return clip(JSON.stringify(value), SHORT_VALUE_LENGTH);
  return String(value);
}
