import { defineConfig } from 'vitest/config';

// Two projects: `unit` (pure functions, plain objects, no cluster) and `integration` (a real
// kube-apiserver + controller-manager started once per run by test/support/global-setup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/load-yaml.ts'],
          // some unit tests spawn git, bash or node (release script, change sets): seconds on a loaded machine
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          // no yaml preload here (unit tests have one): the product's own entry points must load it
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 900_000,
          // one control plane shared by all files; keep files from stampeding it on 2 cores
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});
