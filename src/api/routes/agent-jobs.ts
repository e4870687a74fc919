import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AgentJob, AgentJobParams, COMMON_ERRORS, errorResponse } from '../../contract/admin-api.ts';
import type { ApiConfig } from '../../contract/api-config.ts';
import type { AgentJobs } from '../../service/agent-jobs.ts';
import { ServiceRefusal } from '../../service/errors.ts';
import { bearer } from '../plugins/authentication.ts';
import { authenticatedAndLimited } from '../plugins/rate-limits.ts';

export interface AgentJobRoutesOptions {
  agentJobs: AgentJobs;
  organizations: ApiConfig['organizations'];
  limit: ApiConfig['rateLimits']['agentJobs'];
}

/** GET /v2/agent/{projectId}/job/{id} (spec section 4): a job of one of the caller's projects. */
export const agentJobRoutes: FastifyPluginAsyncZod<AgentJobRoutesOptions> = async (
  app,
  { agentJobs, organizations, limit },
) => {
  const projectsOf = (organization: string) =>
    organizations.find((o) => o.id === organization)?.projects ?? [];

  app.get(
    '/v2/agent/:projectId/job/:id',
    {
      config: authenticatedAndLimited(
        limit,
        (request) => `agent:${request.organization}:${(request.params as { projectId: string }).projectId}`,
      ),
      schema: {
        summary: 'Get agent job',
        operationId: 'getAgentJob',
        description: 'The current state of an agent job; poll until completed, archived or failed.',
        tags: ['agent jobs'],
        security: bearer,
        params: AgentJobParams,
        response: {
          200: AgentJob.describe('The agent job.'),
          404: errorResponse(
            'No job matches the identifier in this project.',
            'no agent job job-7f3a in project proj-1',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => {
      const { projectId, id } = request.params;
      if (!projectsOf(request.organization).includes(projectId))
        throw new ServiceRefusal('not-found', `no agent job ${id} in project ${projectId}`);
      return agentJobs.get(projectId, id);
    },
  );
};
