/**
 * The platform's published contract for the four operations docsnap implements, written here
 * from its documented fields (the operations' parameters, bodies and the statuses each one
 * documents, plus 401 where a key is missing), so a fuzzer can check that a client written
 * against the platform gets nothing from docsnap it was not told to expect. Only the shapes:
 * no constraint the platform does not state (any string for a domain, a version, an id).
 */
const error = { $ref: '#/components/schemas/Error' };
const json = (schema: object, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const unauthorized = json(error, 'Authentication failed.');
const jobIdParameter = { name: 'jobId', in: 'path', required: true, schema: { type: 'string' } };

export const publishedContract = {
  openapi: '3.0.1',
  info: { title: 'Static Export and agent job operations (as published)', version: '1.0.0' },
  security: [{ bearerAuth: [] }],
  paths: {
    '/v1/static-export/jobs': {
      post: {
        operationId: 'startStaticExportJob',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/StartStaticExportRequest' } },
          },
        },
        responses: {
          202: json(
            { $ref: '#/components/schemas/StaticExportJob' },
            'The export job was accepted and queued.',
          ),
          400: json(error, 'The request body is invalid.'),
          401: unauthorized,
          403: json(error, 'Static export is not enabled for this organization.'),
        },
      },
    },
    '/v1/static-export/jobs/{jobId}': {
      get: {
        operationId: 'getStaticExportJob',
        parameters: [jobIdParameter],
        responses: {
          200: json({ $ref: '#/components/schemas/StaticExportJob' }, 'The current state of the export job.'),
          401: unauthorized,
          404: json(error, 'No job exists with the provided ID.'),
        },
      },
    },
    '/v1/static-export/jobs/{jobId}/bundle': {
      post: {
        operationId: 'generateStaticExportBundle',
        parameters: [jobIdParameter],
        responses: {
          200: json({ $ref: '#/components/schemas/BundleResponse' }, 'A presigned link to the bundle.'),
          401: unauthorized,
          404: json(error, 'No job exists with the provided ID.'),
          409: json(error, 'The job has not finished yet.'),
        },
      },
    },
    '/v2/agent/{projectId}/job/{id}': {
      get: {
        parameters: [
          { name: 'projectId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          200: json({ $ref: '#/components/schemas/AgentJob' }, 'Agent job details'),
          401: unauthorized,
          404: json(error, 'Job not found'),
        },
      },
    },
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' } } },
      StartStaticExportRequest: {
        type: 'object',
        required: ['domain'],
        properties: {
          domain: { type: 'string' },
          version: { type: 'string' },
          paths: { type: 'array', items: { type: 'string' } },
        },
      },
      StaticExportJob: {
        type: 'object',
        required: ['jobId', 'status', 'progress', 'pageCount', 'createdAt', 'updatedAt'],
        properties: {
          jobId: { type: 'string' },
          status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
          progress: { type: 'number', minimum: 0, maximum: 100 },
          pageCount: { type: 'integer' },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          error: { type: 'string', nullable: true },
        },
      },
      BundleResponse: {
        type: 'object',
        required: ['jobId', 'bundleUrl', 'sizeBytes', 'expiresAt'],
        properties: {
          jobId: { type: 'string' },
          bundleUrl: { type: 'string', format: 'uri' },
          sizeBytes: { type: 'integer' },
          expiresAt: { type: 'string', format: 'date-time' },
        },
      },
      AgentJob: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['active', 'completed', 'archived', 'failed'] },
          source: {
            type: 'object',
            properties: { repository: { type: 'string' }, ref: { type: 'string', nullable: true } },
          },
          model: { type: 'string' },
          prLink: { type: 'string', format: 'uri', nullable: true },
          createdAt: { type: 'string', format: 'date-time' },
          archivedAt: { type: 'string', format: 'date-time', nullable: true },
        },
      },
    },
  },
};
