import type { TestProject } from 'vitest/node';
import {
  type BuildStep,
  build,
  cached,
  NATIVE_PARSER,
  SCHEMATHESIS,
  TEST_SERVERS,
  TOOLS,
  type Tool,
} from '../../tools/local/build-steps.ts';
import { HAVE_CORPORA, WITHOUT_CORPORA } from '../export/corpora.ts';

/**
 * Global setup shared by both projects: what the tests need beyond node_modules, before any test
 * runs. First every system tool the project's tests need (or its builds, when their output is not
 * cached yet) is looked for, and the run stops with the command that installs each missing one;
 * then each build step runs its script, which builds only what its cache lacks, one line per step.
 */

const NEEDS: Record<string, { tools: Tool[]; steps: BuildStep[] }> = {
  unit: { tools: [TOOLS.git, TOOLS.chromium], steps: [NATIVE_PARSER] },
  integration: { tools: [TOOLS.git], steps: [TEST_SERVERS, SCHEMATHESIS] },
  // The image it runs carries the native parser; its own preflight skips it on a machine without a kubelet's needs.
  e2e: { tools: [TOOLS.git], steps: [NATIVE_PARSER] },
};

export default async function prerequisites(project: TestProject): Promise<(() => void) | undefined> {
  const label = `[${project.name}]`;
  // npm scripts run on the pinned Node (the `node` devDependency): the first line says which.
  console.log(`${label} node ${process.version}`);
  const needs = NEEDS[project.name];
  if (!needs) return;
  const toBuild = needs.steps.filter((step) => !cached(step));
  const wanted = [...needs.tools, ...toBuild.flatMap((step) => step.tools)];
  const missing = wanted.filter((tool) => !tool.present());
  if (missing.length > 0) {
    // The whole run stops here, before any test (or any other project's build) starts.
    console.error(
      [
        `${label} missing system tools: install them and run the tests again.`,
        ...missing.map((tool) => `  ${tool.name} (${tool.purpose}):\n      ${tool.install}`),
      ].join('\n'),
    );
    process.exit(1);
  }
  for (const step of needs.steps) {
    if (toBuild.includes(step)) await build(label, step);
    else console.log(`${label} ${step.name}: cached`);
  }
  if (project.name === 'unit' && !HAVE_CORPORA) {
    const notice = `${label} ${WITHOUT_CORPORA}: the tests over real corpora are skipped`;
    console.log(notice);
    // Said again once the tests are done, next to the summary that counts them.
    return () => console.log(notice);
  }
}
