import { defineConfig } from 'vitest/config';

// Three projects, all run by `npm test`:
// - unit: pure code, no servers, fast;
// - integration: a real kube-apiserver + etcd and a real S3 server, started once by the global setup;
// - e2e: a real node (kubelet, containerd) running the project's image.
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
          exclude: ['test/**/*.integration.test.ts', 'test/**/*.e2e.test.ts'],
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
      {
        // A real node (test/harness/real-node.ts): root, containerd, runc, the CNI plugins and the
        // project's image; skipped with the reason on a machine that cannot run a kubelet.
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts'],
          // After the other projects, alone: a whole node would crowd their servers on two cores.
          sequence: { groupOrder: 1 },
          globalSetup: ['test/harness/prerequisites.ts'],
          testTimeout: 180_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
