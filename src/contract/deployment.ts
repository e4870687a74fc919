import { z } from 'zod';

/**
 * How a site is deployed (spec section 1): what it may load from other origins. Air-gapped
 * sites load nothing from any other origin.
 */
export const DeploymentKind = z.enum(['cloud', 'client-hosted', 'air-gapped']);
export type DeploymentKind = z.infer<typeof DeploymentKind>;
