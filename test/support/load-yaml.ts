import { loadYaml } from '../../src/startup/yaml-module.js';

// The `yaml` package is imported on first need (src/startup/yaml-module.ts): production code awaits it in
// every async entry point; tests that call the synchronous parsers and renderers directly get it here.
await loadYaml();
