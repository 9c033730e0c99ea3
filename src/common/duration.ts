/**
 * Parses Go-style durations as kpt takes them (`90s`, `5m`, `1h30m`, `250ms`, `0`) into milliseconds.
 * Returns undefined for anything else so callers can name the bad input.
 */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * unit[m[2]];
  return Math.round(total);
}

/** Formats milliseconds the short way people read them: `850ms`, `12.3s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, '0')}s`;
}
