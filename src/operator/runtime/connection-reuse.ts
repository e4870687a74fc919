import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';

type CreateDispatcher = (cluster: { name?: string; server?: string } | null, options: object) => unknown;

/**
 * @kubernetes/client-node 2.0.1 builds a new undici Agent for every API call (its
 * applySecurityAuthentication → createDispatcher), so every call opens a new TLS connection: at a
 * thousand StaticExports that is most of the operator's CPU and hundreds of MiB of TLS state
 * (bench:operator measures it). This keeps one dispatcher per cluster, user and TLS material
 * (re-read per call, so rotated client certificates still take effect) for the given KubeConfig.
 * Bearer tokens are headers, set per call as before. Watches already share an agent.
 */
export function reuseConnections(kubeConfig: KubeConfig): KubeConfig {
  const target = kubeConfig as unknown as { createDispatcher: CreateDispatcher };
  const create = target.createDispatcher.bind(kubeConfig);
  const dispatchers = new Map<string, unknown>();
  target.createDispatcher = (cluster, options) => {
    const tls = createHash('sha256');
    for (const value of Object.values(options as Record<string, unknown>)) tls.update(String(value ?? ''));
    const key = JSON.stringify([
      cluster?.name,
      cluster?.server,
      kubeConfig.getCurrentUser()?.name,
      tls.digest('hex'),
    ]);
    if (!dispatchers.has(key)) dispatchers.set(key, create(cluster, options));
    return dispatchers.get(key);
  };
  return kubeConfig;
}
