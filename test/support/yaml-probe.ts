/**
 * A fresh process (no vitest setup preloading `yaml`) that reads packages as the CLI does and tells after
 * each step whether the `yaml` package has been imported, as one JSON line per step.
 * Usage: node --import tsx yaml-probe.ts <repoRoot> <step>... where a step is `load:<dir>`,
 * `inventory:<dir>` or `units`.
 */

import { findUnits } from '../../src/package/find-packages.js';
import { readInventoryInfo } from '../../src/package/inventory-info.js';
import { loadPackage } from '../../src/package/load-package.js';
import { yamlLoaded } from '../../src/startup/yaml-module.js';

const [repoRoot, ...steps] = process.argv.slice(2);
for (const step of steps) {
  const [what, dir = '.'] = step.split(':');
  let result: unknown;
  if (what === 'load') {
    const r = await loadPackage(dir, { repoRoot });
    result = { objects: r.objects, inventory: r.inventory, notices: r.notices, errors: r.errors };
  } else if (what === 'inventory') result = await readInventoryInfo(dir, { repoRoot });
  else if (what === 'units') result = await findUnits(repoRoot);
  else throw new Error(`unknown step ${step}`);
  process.stdout.write(`${JSON.stringify({ step, yamlLoaded: yamlLoaded(), result })}\n`);
}
