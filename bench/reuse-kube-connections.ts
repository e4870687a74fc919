/**
 * Preloaded with `node --import ./bench/reuse-kube-connections.ts …` by `npm run bench:operator`
 * for the peer's "connections reused" row: it gives every KubeConfig of the process the operator's
 * own fix (src/operator/runtime/connection-reuse.ts), one dispatcher per cluster, user and TLS
 * material instead of a new TLS connection per API call, so the row shows what that is worth to a
 * controller that does not apply it itself.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { reuseConnections } from '../src/operator/runtime/connection-reuse.ts';

/** createDispatcher is private in the typings; it is what applySecurityAuthentication calls. */
type CreateDispatcher = (this: KubeConfig, cluster: unknown, options: object) => unknown;
const prototype = KubeConfig.prototype as unknown as { createDispatcher: CreateDispatcher };
const original = prototype.createDispatcher;

prototype.createDispatcher = function (this: KubeConfig, cluster, options) {
  const config = this as unknown as { createDispatcher: CreateDispatcher };
  // First call on this KubeConfig: give it the original as its own, then let reuseConnections wrap that.
  if (!Object.hasOwn(config, 'createDispatcher')) {
    Object.defineProperty(config, 'createDispatcher', {
      value: original,
      writable: true,
      configurable: true,
    });
    reuseConnections(this);
  }
  return config.createDispatcher.call(this, cluster, options);
};
