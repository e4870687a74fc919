import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SharedBudgetStore } from './shared-budget-store.ts';

/**
 * @fastify/rate-limit for the routes that ask for it (see `authenticatedAndLimited`). Counted after
 * authentication, per organization (and project for agent jobs): one tenant's requests never spend
 * another's budget, and the limit headers speak of the caller's own.
 */
export const rateLimits = fp(
  async (app) => {
    await app.register(rateLimit, { global: false, store: SharedBudgetStore });
  },
  { name: 'docsnap-rate-limits' },
);

/**
 * Route config of an Admin API route: an admin key, then a request limit per key of the request
 * (counted after authentication, so unauthenticated calls spend nobody's budget). Routes whose
 * keys are equal share one budget.
 */
export function authenticatedAndLimited(
  limit: { max: number; window: number },
  keyOf: (request: FastifyRequest) => string,
) {
  return {
    authenticate: true,
    rateLimit: { max: limit.max, timeWindow: limit.window, hook: 'preHandler' as const, keyGenerator: keyOf },
  };
}
