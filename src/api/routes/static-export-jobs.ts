import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  COMMON_ERRORS,
  ExportBundle,
  ExportJob,
  ExportJobParams,
  errorResponse,
  StartExportRequest,
} from '../../contract/admin-api.ts';
import type { ApiConfig } from '../../contract/api-config.ts';
import type { ExportJobs } from '../../service/export-jobs.ts';
import { bearer } from '../plugins/authentication.ts';
import { authenticatedAndLimited } from '../plugins/rate-limits.ts';

export interface StaticExportRoutesOptions {
  exportJobs: ExportJobs;
  limit: ApiConfig['rateLimits']['staticExport'];
}

const knownProperties = new Set(Object.keys(StartExportRequest.shape));

/** The static export operations (spec section 4): start, status, bundle. */
export const staticExportJobRoutes: FastifyPluginAsyncZod<StaticExportRoutesOptions> = async (
  app,
  { exportJobs, limit },
) => {
  // One budget per organization across the three operations.
  const config = authenticatedAndLimited(limit, (request) => `static-export:${request.organization}`);

  app.post(
    '/v1/static-export/jobs',
    {
      config,
      // Properties the contract may add are ignored; say which, for whoever investigates.
      preValidation: (request, _reply, done) => {
        const body = request.body;
        const unknown =
          body && typeof body === 'object'
            ? Object.keys(body).filter((key) => !knownProperties.has(key))
            : [];
        if (unknown.length > 0)
          request.log.debug(
            { reqId: request.id, unknown: unknown.slice(0, 20) },
            'ignored unknown properties',
          );
        done();
      },
      schema: {
        summary: 'Start static export job',
        operationId: 'startStaticExportJob',
        description: 'Queues a static export of a documentation domain. Requires an Enterprise plan.',
        tags: ['static export'],
        security: bearer,
        body: StartExportRequest,
        response: {
          202: ExportJob.describe('The export job was accepted and queued.'),
          400: errorResponse(
            'The request is invalid: the body is not JSON within the size limit, `domain` is not a hostname, or a `paths` entry names no page.',
            '2 requested paths name no page: guides/old-page, api/removed',
          ),
          403: errorResponse(
            'The organization has no Enterprise plan, or the domain is not one of its documentation sites.',
            'docs.example.com is not a documentation site of your organization',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const job = await exportJobs.start(request.organization, request.body);
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/v1/static-export/jobs/:jobId',
    {
      config,
      schema: {
        summary: 'Get static export job status',
        operationId: 'getStaticExportJob',
        description:
          'Status, live progress (0–100) and page count. A failed export is 200 with status failed.',
        tags: ['static export'],
        security: bearer,
        params: ExportJobParams,
        response: {
          200: ExportJob.describe('The current state of the export job.'),
          404: errorResponse(
            'No job of this organization has the identifier.',
            'no export job se_4f2a9c1e7b3d5a60',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => exportJobs.get(request.organization, request.params.jobId),
  );

  app.post(
    '/v1/static-export/jobs/:jobId/bundle',
    {
      config,
      schema: {
        summary: 'Generate export bundle',
        operationId: 'generateStaticExportBundle',
        description:
          'A presigned link to the archive of a completed job, valid until expiresAt. Calling again returns a fresh link for the same job.',
        tags: ['static export'],
        security: bearer,
        params: ExportJobParams,
        response: {
          200: ExportBundle.describe('A presigned link to the archive of the job.'),
          404: errorResponse(
            'No job of this organization has the identifier.',
            'no export job se_4f2a9c1e7b3d5a60',
          ),
          409: errorResponse(
            'The job has not completed, so there is no bundle yet.',
            'export job se_4f2a9c1e7b3d5a60 is running; a bundle needs a completed job',
          ),
          415: errorResponse(
            'A body was sent that is not JSON (this operation takes none).',
            'Unsupported Media Type: text/plain',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => exportJobs.bundle(request.organization, request.params.jobId),
  );
};
