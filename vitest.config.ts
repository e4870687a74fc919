import { defineConfig } from 'vitest/config';

// Two projects, both run by `npm test`:
// - unit: pure code, no servers, fast;
// - integration: a real kube-apiserver + etcd and a real S3 server, started once by the global setup.
// Before either runs, test/harness/prerequisites.ts checks the system tools and builds (or finds
// cached) what its tests need: the native parser for unit, the test servers and schemathesis for
// integration.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/harness/prerequisites.ts'],
          // Tests check behaviour, not time: whole-corpus exports and browser runs share two cores,
          // and so do the servers some tests start and stop in their hooks.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/harness/prerequisites.ts', 'test/harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
