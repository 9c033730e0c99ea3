/**
 * Label selectors as the API server reads `?labelSelector=`: `a=b`, `a==b`, `a!=b`, `a`, `!a`,
 * `a in (x,y)`, `a notin (x)`, joined by commas.
 */
type Requirement = (labels: Record<string, string>) => boolean;

export function parseLabelSelector(selector: string): Requirement {
  const reqs: Requirement[] = [];
  // split on commas outside parentheses
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts.map((p) => p.trim()).filter(Boolean)) {
    let m = /^(\S+?)\s+(in|notin)\s+\(([^)]*)\)$/.exec(raw);
    if (m) {
      const [, key, op, list] = m;
      const values = new Set(list.split(',').map((v) => v.trim()));
      reqs.push(
        op === 'in' ? (l) => key in l && values.has(l[key]) : (l) => !(key in l) || !values.has(l[key]),
      );
      continue;
    }
    m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(raw);
    if (m) {
      const [, key, op, value] = m;
      reqs.push(op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value);
      continue;
    }
    m = /^(!?)([^=!\s]+)$/.exec(raw);
    if (m) {
      const [, not, key] = m;
      reqs.push(not ? (l) => !(key in l) : (l) => key in l);
      continue;
    }
    throw new Error(`unable to parse requirement: ${raw}`);
  }
  return (labels) => reqs.every((r) => r(labels));
}

/**
 * Field selectors as the API server reads `?fieldSelector=`: `path=value`, `path==value`, `path!=value`
 * joined by commas, `path` a dotted field path (`metadata.name`, `reason`, `involvedObject.kind`). The
 * server supports a few fields per kind; this takes any field.
 */
export function parseFieldSelector(selector: string): (obj: Record<string, unknown>) => boolean {
  const reqs = selector
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((raw) => {
      const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(raw);
      if (!m) throw new Error(`invalid field selector: ${raw}`);
      const [, path, op, value] = m;
      const get = (o: unknown) =>
        path
          .split('.')
          .reduce<unknown>(
            (cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined),
            o,
          );
      return (o: Record<string, unknown>) => {
        const v = get(o);
        const text = v === undefined || v === null ? '' : String(v);
        return op === '!=' ? text !== value : text === value;
      };
    });
  return (obj) => reqs.every((r) => r(obj));
}
