import { defineConfig } from 'vitest/config';

// Two projects, both run by `npm test`:
// - unit: pure code, no servers, fast;
// - integration: a real kube-apiserver + etcd and a real S3 server, started once by the global setup.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/harness/print-runtime.ts'],
          // Tests check behaviour, not time: whole-corpus exports and browser runs share two cores.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
