import { loadYaml } from '../../src/common/yaml-module.js';

// The `yaml` package is imported on first need (src/common/yaml-module.ts): production code awaits it in
// every async entry point; tests that call the synchronous parsers and renderers directly get it here.
await loadYaml();
