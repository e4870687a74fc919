import type { Condition } from '../../contract/static-export.ts';

export type ConditionType = 'Ready' | 'Exporting' | 'TargetsSynced';

/**
 * Sets a metav1.Condition in a list (returned anew): lastTransitionTime moves only when the
 * status does, as Kubernetes conventions ask.
 */
export function setCondition(
  conditions: Condition[] | undefined,
  change: { type: ConditionType; status: Condition['status']; reason: string; message: string },
  generation: number,
  now: Date,
): Condition[] {
  const list = conditions ?? [];
  const previous = list.find((c) => c.type === change.type);
  const next: Condition = {
    ...change,
    observedGeneration: generation,
    lastTransitionTime:
      previous && previous.status === change.status ? previous.lastTransitionTime : now.toISOString(),
  };
  const order: ConditionType[] = ['Ready', 'Exporting', 'TargetsSynced'];
  return [...list.filter((c) => c.type !== change.type), next].sort(
    (a, b) => order.indexOf(a.type as ConditionType) - order.indexOf(b.type as ConditionType),
  );
}

export function conditionOf(conditions: Condition[] | undefined, type: ConditionType): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
