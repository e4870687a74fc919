import { setTimeout as sleep } from 'node:timers/promises';
import { type CoordinationV1Api, type V1Lease, V1MicroTime } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isConflict, isNotFound, kubeMessage } from './kube-errors.ts';

export interface LeaderElectionSettings {
  /** How long a lease holds without renewal before a standby may take it. */
  leaseDurationMs: number;
  /** How long the leader keeps trying to renew before it gives up leading. */
  renewDeadlineMs: number;
  /** Time between attempts, to acquire and to renew. */
  retryPeriodMs: number;
}

/** client-go's and controller-runtime's defaults. */
export const DEFAULT_LEADER_ELECTION: LeaderElectionSettings = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

export interface LeaderElectorOptions extends LeaderElectionSettings {
  coordination: CoordinationV1Api;
  namespace: string;
  name: string;
  /** Unique per process: the pod name plus a random suffix. */
  identity: string;
  log: Logger;
}

/**
 * Leader election on a coordination.k8s.io Lease, with client-go's semantics: a lease is free when
 * nobody renewed it for leaseDuration, measured on this process's clock from when it last saw the
 * lease change (so clocks need not agree); writes carry the resourceVersion, so of two candidates
 * exactly one wins; a leader that cannot renew within renewDeadline stops leading before its lease
 * can run out (renewDeadline < leaseDuration), so two leaders never act at once.
 */
export class LeaderElector {
  private readonly options: LeaderElectorOptions;
  private observed: { record: string; at: number } | undefined;
  /** When the lease another replica holds runs out, as far as this one can tell. */
  private heldUntil = 0;
  private stopping = new AbortController();
  private leading = false;

  constructor(options: LeaderElectorOptions) {
    if (options.renewDeadlineMs >= options.leaseDurationMs)
      throw new Error('leader election: the renew deadline must be shorter than the lease duration');
    if (options.retryPeriodMs >= options.renewDeadlineMs)
      throw new Error('leader election: the retry period must be shorter than the renew deadline');
    this.options = options;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Waits until this process holds the lease (true), or until stop() is called (false).
   */
  async acquire(): Promise<boolean> {
    const { log, retryPeriodMs, namespace, name, identity } = this.options;
    log.info({ lease: `${namespace}/${name}`, identity }, 'waiting to lead');
    while (!this.stopping.signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        this.leading = true;
        log.info({ lease: `${namespace}/${name}`, identity }, 'became the leader');
        return true;
      }
      // Try again after the retry period, or right when the holder's lease runs out if sooner.
      const untilFree = this.heldUntil - Date.now() + 20;
      await this.pause(Math.max(20, Math.min(retryPeriodMs * (1 + Math.random() * 0.2), untilFree)));
    }
    return false;
  }

  /**
   * Renews the lease every retry period; resolves when leadership is lost (a renewal did not
   * succeed within the renew deadline) or given up by stop().
   */
  async holdUntilLost(): Promise<'lost' | 'stopped'> {
    const { retryPeriodMs, renewDeadlineMs, log } = this.options;
    let lastRenewal = Date.now();
    while (!this.stopping.signal.aborted) {
      await this.pause(retryPeriodMs);
      if (this.stopping.signal.aborted) break;
      if (await this.tryAcquireOrRenew()) {
        lastRenewal = Date.now();
        continue;
      }
      if (Date.now() - lastRenewal >= renewDeadlineMs) {
        this.leading = false;
        log.error({ lease: `${this.options.namespace}/${this.options.name}` }, 'leadership lost');
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** Stops trying; a leader hands the lease back so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (!this.leading) return;
    this.leading = false;
    const { coordination, namespace, name, identity, log } = this.options;
    try {
      const lease = await coordination.readNamespacedLease({ namespace, name });
      if (lease.spec?.holderIdentity !== identity) return;
      await coordination.replaceNamespacedLease({
        namespace,
        name,
        body: {
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: undefined,
            leaseDurationSeconds: 1,
            renewTime: new V1MicroTime(),
          },
        },
      });
      log.info({ lease: `${namespace}/${name}` }, 'leadership released');
    } catch (error) {
      log.warn({ err: kubeMessage(error) }, 'could not release the lease; it expires on its own');
    }
  }

  /** One attempt, as client-go's tryAcquireOrRenew: true when this process holds the lease after it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { coordination, namespace, name, identity, leaseDurationMs, log } = this.options;
    const now = Date.now();
    const spec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(leaseDurationMs / 1000),
      acquireTime: new V1MicroTime(now),
      renewTime: new V1MicroTime(now),
      leaseTransitions: 0,
    };
    let lease: V1Lease;
    try {
      lease = await coordination.readNamespacedLease({ namespace, name });
    } catch (error) {
      if (!isNotFound(error)) {
        log.warn({ err: kubeMessage(error) }, 'reading the lease failed');
        return false;
      }
      try {
        await coordination.createNamespacedLease({
          namespace,
          body: { metadata: { name, namespace }, spec },
        });
        this.observed = { record: JSON.stringify(spec), at: now };
        return true;
      } catch (createError) {
        // Another candidate created it first: it leads.
        if (!isConflict(createError))
          log.warn({ err: kubeMessage(createError) }, 'creating the lease failed');
        return false;
      }
    }

    const current = lease.spec ?? {};
    const record = JSON.stringify([current.holderIdentity, current.renewTime, current.leaseDurationSeconds]);
    if (this.observed?.record !== record) this.observed = { record, at: now };
    const heldByOther = Boolean(current.holderIdentity) && current.holderIdentity !== identity;
    const holdsFor = (current.leaseDurationSeconds ?? 0) * 1000;
    this.heldUntil = this.expiry(current.renewTime, holdsFor, now);
    if (heldByOther && now < this.heldUntil) return false;

    const renewing = current.holderIdentity === identity;
    try {
      await coordination.replaceNamespacedLease({
        namespace,
        name,
        body: {
          ...lease,
          spec: {
            ...spec,
            acquireTime:
              renewing && current.acquireTime ? new V1MicroTime(current.acquireTime) : spec.acquireTime,
            leaseTransitions: (current.leaseTransitions ?? 0) + (renewing ? 0 : 1),
          },
        },
      });
      return true;
    } catch (error) {
      if (!isConflict(error)) log.warn({ err: kubeMessage(error) }, 'updating the lease failed');
      return false;
    }
  }

  /**
   * When a lease renewed at `renewTime` (the holder's clock) runs out. client-go counts from when
   * it saw the renewal, which a poll sees up to a retry period late, so a takeover could come a
   * lease duration plus two retry periods after a crash. The holder's renewTime is used instead,
   * but never more than a retry period earlier than the observation allows: a holder's clock
   * running behind can bring a takeover forward by at most that, and the renew deadline leaves
   * more room than that (a leader that cannot renew stops leaseDuration − renewDeadline before its lease ends).
   */
  private expiry(renewTime: Date | undefined, holdsFor: number, now: number): number {
    const observedAt = this.observed?.at ?? now;
    const renewedAt = renewTime ? new Date(renewTime).getTime() : Number.NaN;
    const byObservation = observedAt + holdsFor;
    if (Number.isNaN(renewedAt)) return byObservation;
    return Math.max(renewedAt + holdsFor, byObservation - this.options.retryPeriodMs * 1.2);
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }
}
