/**
 * Preloaded with `node --import ./bench/reuse-kube-connections.ts …` by `npm run bench:operator`
 * for its "connections reused" rows. @kubernetes/client-node 2.0.1 makes a new undici Agent for
 * every API call (KubeConfig.applySecurityAuthentication → createDispatcher), so every call opens
 * a new TLS connection with a new TLS context; watches already share a cached https.Agent. This
 * keeps one dispatcher per KubeConfig, cluster and user, as a fix in the client (or in the
 * operator's KubeConfig) would, so the benchmark can show what that is worth.
 */
import { KubeConfig } from '@kubernetes/client-node';

/** createDispatcher is private in the typings; it is what applySecurityAuthentication calls. */
type CreateDispatcher = (
  this: KubeConfig,
  cluster: { name?: string; server?: string } | null,
  options: object,
) => unknown;
const prototype = KubeConfig.prototype as unknown as { createDispatcher: CreateDispatcher };
const original = prototype.createDispatcher;
const cache = new WeakMap<KubeConfig, Map<string, unknown>>();

prototype.createDispatcher = function (cluster, options) {
  const key = JSON.stringify([cluster?.name ?? '', cluster?.server ?? '', this.getCurrentUser()?.name ?? '']);
  const forConfig = cache.get(this) ?? new Map<string, unknown>();
  cache.set(this, forConfig);
  if (!forConfig.has(key)) forConfig.set(key, original.call(this, cluster, options));
  return forConfig.get(key);
};
