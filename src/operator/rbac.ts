import type { V1PolicyRule } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { STATIC_EXPORT } from '../contract/static-export.ts';

/**
 * Everything the operator may do, in one place: config/rbac/operator.yaml is generated from it
 * (`npm run manifests`), the chart installs that file, and the RBAC test runs the operator under
 * a ServiceAccount holding exactly these rules.
 */
export const OPERATOR_RULES: V1PolicyRule[] = [
  // The resources it reconciles; it writes only their status.
  { apiGroups: [STATIC_EXPORT.group], resources: [STATIC_EXPORT.plural], verbs: ['get', 'list', 'watch'] },
  {
    apiGroups: [STATIC_EXPORT.group],
    resources: [`${STATIC_EXPORT.plural}/status`],
    verbs: ['get', 'update'],
  },
  // Secrets are only ever listed and watched by the opt-in label (SECRET_ACCESS_LABEL), never read
  // by name: credentials come from that watch; Secret targets are created, or updated when they opt in.
  { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch', 'create', 'update'] },
  // ConfigMap targets, and ConfigMap sources of the embedded exporter.
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'update'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  // GitOps targets: existing objects only, never created.
  { apiGroups: ['argoproj.io'], resources: ['applications'], verbs: ['get', 'update'] },
  { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'update'] },
];

/** Leader election, in the operator's own namespace only. */
export const LEADER_ELECTION_RULES: V1PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
];

export const OPERATOR_ROLE_NAME = 'docsnap-operator';

/** The ClusterRole and the leader-election Role, as a multi-document YAML for kubectl or a chart. */
export function operatorRbacYaml(): string {
  const header =
    '# Generated from src/operator/rbac.ts by `npm run manifests`; do not edit.\n' +
    '# Bind the ClusterRole with a ClusterRoleBinding (all namespaces) or a RoleBinding per watched\n' +
    "# namespace (--namespace); bind the Role in the operator's own namespace.\n";
  const documents = [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: OPERATOR_ROLE_NAME, labels: { 'app.kubernetes.io/name': 'docsnap-operator' } },
      rules: OPERATOR_RULES,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {
        name: `${OPERATOR_ROLE_NAME}-leader-election`,
        labels: { 'app.kubernetes.io/name': 'docsnap-operator' },
      },
      rules: LEADER_ELECTION_RULES,
    },
  ];
  return header + documents.map((document) => `---\n${stringify(document)}`).join('');
}
