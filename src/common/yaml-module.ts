import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package (source positions, comments-preserving edits, the diff's YAML), ~110 KB of bundle. It is
 * imported on first need, not at start, so a run sends its first request before evaluating it: every async
 * entry point that leads to YAML work (loading a package, reading a Kptfile, init, migrate, the CRD install,
 * the preview) awaits `loadYaml()` first, and the synchronous code below them reads it with `yamlLib()`.
 */
export async function loadYaml(): Promise<typeof Yaml> {
  loaded ??= await import('yaml');
  return loaded;
}

/** The `yaml` package, for synchronous code that runs after an awaited `loadYaml()`. */
export function yamlLib(): typeof Yaml {
  if (!loaded) throw new Error('internal error: the yaml package is used before loadYaml() was awaited');
  return loaded;
}
