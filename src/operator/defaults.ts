/**
 * Reconciles at once, by default. A reconcile mostly waits on the apiserver and the exporter, so
 * more than a handful keep a burst of new resources moving: in bench:operator (2 cores) 1,000 new
 * StaticExports were all Ready after 54–56 s with 16 against 61.5 s with 4, at the same peak RSS.
 * Kept apart from controller.ts so the CLI can show it without loading the controller.
 */
export const DEFAULT_CONCURRENCY = 16;

/**
 * The Node.js flags the operator is meant to run with (NODE_OPTIONS in its Deployment). Left to
 * its defaults, V8 lets garbage pile up to several times the live heap on a machine with memory
 * to spare: 406 MiB peak RSS in bench:operator (1,000 StaticExports), with 60–70 MiB live. A
 * 1 MiB semi-space and a 96 MiB old space keep it at 182–188 MiB, for about a third more CPU in
 * garbage collection. The old space must grow with the resources watched: the live heap was
 * ~38 MiB with none and ~62 MiB with 1,000 (each with its target Secret), so allow another
 * 32 MiB per further 1,000 StaticExports.
 */
export const OPERATOR_NODE_OPTIONS = '--max-semi-space-size=1 --max-old-space-size=96';
