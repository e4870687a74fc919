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
