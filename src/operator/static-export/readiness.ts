import type { Condition, Phase, StaticExportStatus, TargetStatus } from '../../contract/static-export.ts';
import { type ConditionType, conditionOf, setCondition } from './conditions.ts';

/** What a reconcile found that the status fields do not hold. */
export interface ReconcileOutcome {
  suspended?: boolean;
  /** The resource cannot be acted on until someone fixes its surroundings (a Secret, a flag). */
  misconfigured?: { reason: string; message: string };
  /** An export was started by this reconcile, and why. */
  started?: { jobId: string; message: string };
}

export interface Readiness {
  phase: Phase;
  conditions: Condition[];
}

/**
 * `phase` and the conditions, computed once at the end of a reconcile from the status it built
 * and its outcome, so they can never disagree: phase Ready exactly when Ready is True and the last
 * export succeeded (Ready stays True while a new export runs, or after one failed, since the last
 * bundle still serves: phase Exporting or Failed then).
 */
export function readiness(
  status: StaticExportStatus,
  outcome: ReconcileOutcome,
  generation: number,
  now: Date,
): Readiness {
  let conditions = status.conditions ?? [];
  const set = (type: ConditionType, value: Condition['status'], reason: string, message: string) => {
    conditions = setCondition(conditions, { type, status: value, reason, message }, generation, now);
  };

  const exporting = exportingCondition(status, outcome, conditionOf(conditions, 'Exporting'));
  if (exporting) set('Exporting', ...exporting);
  const synced = targetsCondition(status);
  if (synced) set('TargetsSynced', ...synced);
  const [ready, reason, message] = readyCondition(status, outcome, now);
  set('Ready', ready, reason, message);
  return { phase: phaseOf(status, outcome, ready === 'True'), conditions };
}

/** The errors of the targets that did not take the link, in one message; undefined when all did. */
export function targetErrors(targets: TargetStatus[] = []): string | undefined {
  const failed = targets.filter((t) => t.error);
  return failed.length > 0 ? failed.map((t) => t.error).join('; ') : undefined;
}

type ConditionValue = [Condition['status'], string, string];

function exportingCondition(
  status: StaticExportStatus,
  outcome: ReconcileOutcome,
  previous: Condition | undefined,
): ConditionValue | undefined {
  const { jobId, jobStatus } = status;
  if (outcome.started)
    return [
      'True',
      'ExportStarted',
      `export job ${outcome.started.jobId} started: ${outcome.started.message}`,
    ];
  if (jobStatus === 'queued' || jobStatus === 'running') {
    if (previous?.status === 'True' && previous.message.includes(`${jobId} `))
      return [previous.status, previous.reason, previous.message];
    return ['True', 'ExportRunning', `export job ${jobId} is ${jobStatus}`];
  }
  if (jobStatus === 'completed') return ['False', 'ExportCompleted', `export job ${jobId} completed`];
  if (jobStatus === 'failed') return ['False', 'ExportFailed', status.error ?? 'the export failed'];
  return undefined;
}

function targetsCondition(status: StaticExportStatus): ConditionValue | undefined {
  const { bundle, targets = [] } = status;
  if (!bundle) return undefined;
  if ((bundle.refreshFailures ?? 0) > 0 && status.refreshError)
    return ['False', 'RefreshFailed', status.refreshError];
  const errors = targetErrors(targets);
  if (errors) return ['False', 'TargetWriteFailed', errors];
  return ['True', 'Synced', `the bundle link is in ${targets.length} target(s)`];
}

function readyCondition(status: StaticExportStatus, outcome: ReconcileOutcome, now: Date): ConditionValue {
  if (outcome.suspended)
    return ['False', 'Suspended', 'spec.suspend is true: nothing is exported or refreshed'];
  if (outcome.misconfigured) return ['False', outcome.misconfigured.reason, outcome.misconfigured.message];
  const { bundle } = status;
  if (bundle) {
    if (now.getTime() >= Date.parse(bundle.expiresAt))
      return [
        'False',
        'LinkExpired',
        status.refreshError ?? `the bundle link expired at ${bundle.expiresAt}`,
      ];
    const errors = targetErrors(status.targets);
    if (errors) return ['False', 'TargetWriteFailed', errors];
    return [
      'True',
      'BundleReady',
      `bundle of job ${bundle.jobId} is in the targets until ${bundle.expiresAt}`,
    ];
  }
  if (status.jobStatus === 'failed') return ['False', 'ExportFailed', status.error ?? 'the export failed'];
  if (status.jobStatus === 'completed' && status.error) return ['False', 'BundleFailed', status.error];
  if (status.jobStatus === 'queued' || status.jobStatus === 'running' || status.jobStatus === 'completed')
    return ['False', 'Exporting', 'the first export is running'];
  return ['False', 'Pending', 'no export has run yet'];
}

function phaseOf(status: StaticExportStatus, outcome: ReconcileOutcome, ready: boolean): Phase {
  if (outcome.suspended) return 'Suspended';
  const delivered = status.bundle !== undefined && status.bundle.jobId === status.jobId;
  if (!outcome.misconfigured) {
    if (status.jobStatus === 'queued' || status.jobStatus === 'running') return 'Exporting';
    if (status.jobStatus === 'completed' && !delivered) return 'Bundling';
    if (status.jobStatus === 'failed') return 'Failed';
  }
  if (ready) return 'Ready';
  return status.bundle || status.jobStatus === 'failed' ? 'Failed' : 'Pending';
}
