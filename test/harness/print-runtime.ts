/** Global setup of the unit project: shows which Node runs the tests (npm scripts pin Node 24). */
export default function printRuntime(): void {
  console.log(`[unit] node ${process.version}`);
}
