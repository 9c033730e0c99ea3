import { CliError } from './cli-io.js';

/**
 * Boolean flags kpt (Go's pflag) also takes as `--flag=true|false`; commander only knows `--flag` and
 * `--no-flag`. The value is how each form is spelled for commander; undefined drops the argument (it asks
 * for the default).
 */
const BOOL_FLAGS: Record<string, { on?: string; off?: string }> = {
  'dry-run': { on: '--dry-run' },
  'force-conflicts': { on: '--force-conflicts' },
  'allow-empty-prune': { on: '--allow-empty-prune' },
  'allow-skipped': { on: '--allow-skipped' },
  'exit-early': { on: '--exit-early' },
  'fail-fast': { off: '--no-fail-fast' },
  preflight: { off: '--no-preflight' },
  'allow-stale': { on: '--allow-stale' },
  'rollback-on-failure': { on: '--rollback-on-failure' },
  'rollback-prune': { on: '--rollback-prune' },
  'wait-for-jobs': { on: '--wait-for-jobs' },
  'show-status-events': { on: '--show-status-events' },
  'server-side': { on: '--server-side' },
  'install-resource-group': { on: '--install-resource-group', off: '--no-install-resource-group' },
  prune: { off: '--no-prune' },
  wait: { off: '--no-wait' },
  force: { on: '--force' },
  quiet: { on: '--quiet' },
};

/** Go's strconv.ParseBool spellings. */
function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  return undefined;
}

/**
 * Rewrites kpt's `--server-side=true`, `--prune=false`, `--install-resource-group=false` into commander's
 * forms, so kpt command lines work unchanged. Stops at `--`. A value that is not a boolean is a usage error.
 */
export function normaliseBoolFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const m = /^--([a-z-]+)=(.*)$/s.exec(arg);
    const spelling = m ? BOOL_FLAGS[m[1]] : undefined;
    if (!m || !spelling) {
      out.push(arg);
      continue;
    }
    const value = parseBool(m[2]);
    if (value === undefined) {
      throw new CliError(`invalid argument "${m[2]}" for "--${m[1]}" flag: use true or false`, 2);
    }
    const form = value ? spelling.on : spelling.off;
    if (form) out.push(form);
  }
  return out;
}
