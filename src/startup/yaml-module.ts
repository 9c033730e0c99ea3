import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package (source positions, comments-preserving edits, the diff's YAML), ~110 KB of bundle. It is
 * imported on first need, not at start: every async code path that leads to work only it does awaits
 * `loadYaml()` first (a package file the fast reader declines or that has an error, init, migrate, the CRD
 * install, a preview's diff, the plan check), and the synchronous code below them reads it with `yamlLib()`.
 * Loading an ordinary package (Kptfile, resourcegroup.yaml, plain manifests) never imports it.
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

/** Whether the `yaml` package has been imported (to check that the common paths do without it). */
export function yamlLoaded(): boolean {
  return loaded !== undefined;
}
