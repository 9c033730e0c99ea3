import type { PreviewDocument } from '../preview/types.js';

/** Beyond this many objects the graph shows one box per wave: a bigger chart is unreadable anyway. */
export const MAX_GRAPH_NODES = 40;

/** A mermaid label in quotes; mermaid reads `#quot;` for a quote and has no other escape. */
function label(text: string): string {
  return `["${text.replace(/"/g, '#quot;').replace(/[\r\n`]/g, ' ')}"]`;
}

/**
 * A mermaid flowchart of the apply waves: one subgraph per wave, arrows from each dependency to the
 * object that depends on it (the order apply follows), or from wave to wave when the document carries no
 * depends-on edges (waves from implicit ordering, such as a Namespace before its objects). Undefined when
 * there is only one wave: nothing to show.
 */
export function renderWaveGraph(doc: PreviewDocument): string | undefined {
  const waves = doc.waves.filter((wave) => wave.length > 0);
  if (waves.length < 2) return undefined;
  const lines = ['flowchart LR'];
  const total = waves.reduce((n, wave) => n + wave.length, 0);
  if (total > MAX_GRAPH_NODES) {
    waves.forEach((wave, i) => {
      const count = wave.length === 1 ? '1 object' : `${wave.length} objects`;
      lines.push(`  wave${i + 1}${label(`wave ${i + 1}: ${count}`)}`);
    });
    for (let i = 1; i < waves.length; i++) lines.push(`  wave${i} --> wave${i + 1}`);
    return lines.join('\n');
  }
  const ids = new Map<string, string>();
  waves.forEach((wave, i) => {
    lines.push(`  subgraph wave${i + 1} ${label(`wave ${i + 1}`)}`);
    for (const name of wave) {
      if (ids.has(name)) continue;
      const id = `n${ids.size}`;
      ids.set(name, id);
      lines.push(`    ${id}${label(name)}`);
    }
    lines.push('  end');
  });
  const edges = doc.edges.filter((edge) => ids.has(edge.from) && ids.has(edge.to));
  if (edges.length === 0) {
    for (let i = 1; i < waves.length; i++) lines.push(`  wave${i} --> wave${i + 1}`);
  }
  for (const edge of edges) lines.push(`  ${ids.get(edge.to)} --> ${ids.get(edge.from)}`);
  return lines.join('\n');
}
