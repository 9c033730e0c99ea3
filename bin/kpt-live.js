#!/usr/bin/env node
// The `kpt-live` command: the CLI bundle that `npm run package` builds with ncc (dist/cli/index.js).
import '../dist/cli/index.js';
