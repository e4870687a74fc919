import type { ApiSecurityScheme } from './types.ts';

/** Wording shared by the HTML and Markdown renderings. */

const STATUS_TEXT: Record<string, string> = {
  '100': 'Continue',
  '101': 'Switching Protocols',
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '203': 'Non-Authoritative Information',
  '204': 'No Content',
  '205': 'Reset Content',
  '206': 'Partial Content',
  '207': 'Multi-Status',
  '300': 'Multiple Choices',
  '301': 'Moved Permanently',
  '302': 'Found',
  '303': 'See Other',
  '304': 'Not Modified',
  '307': 'Temporary Redirect',
  '308': 'Permanent Redirect',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '402': 'Payment Required',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '406': 'Not Acceptable',
  '408': 'Request Timeout',
  '409': 'Conflict',
  '410': 'Gone',
  '412': 'Precondition Failed',
  '413': 'Content Too Large',
  '415': 'Unsupported Media Type',
  '422': 'Unprocessable Content',
  '423': 'Locked',
  '425': 'Too Early',
  '428': 'Precondition Required',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '501': 'Not Implemented',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
  '1XX': 'Informational',
  '2XX': 'Success',
  '3XX': 'Redirection',
  '4XX': 'Client error',
  '5XX': 'Server error',
  default: 'Any other status',
};

export function statusText(status: string): string | undefined {
  return STATUS_TEXT[status.toUpperCase()] ?? STATUS_TEXT[status];
}

/** A response description that only repeats the reason phrase ("OK", "Not found") adds nothing. */
export function sameAsStatus(description: string, text: string | undefined): boolean {
  return text !== undefined && description.trim().replace(/\.$/, '').toLowerCase() === text.toLowerCase();
}

/** "2xx", "4xx", … for colouring; "default" for the rest. */
export function statusClass(status: string): string {
  return /^[1-5]/.test(status) ? `${status[0]}xx` : 'default';
}

export const LOCATION_TITLES = {
  path: 'Path parameters',
  query: 'Query parameters',
  header: 'Header parameters',
  cookie: 'Cookie parameters',
} as const;

/** How to send the credentials of a security scheme, in a few words; `code` is shown as code. */
export function securitySummary(scheme: ApiSecurityScheme): { text: string; code?: string } {
  switch (scheme.type) {
    case 'apiKey': {
      const where = scheme.in ?? 'header';
      const name = scheme.parameterName ?? scheme.name;
      return { text: `API key in ${where}`, code: where === 'header' ? `${name}: <api-key>` : name };
    }
    case 'http':
      if (scheme.scheme === 'basic')
        return { text: 'Basic authentication', code: 'Authorization: Basic <credentials>' };
      if (scheme.scheme === 'bearer' || scheme.scheme === undefined) {
        const format = scheme.bearerFormat ? ` (${scheme.bearerFormat})` : '';
        return { text: `Bearer token${format}`, code: 'Authorization: Bearer <token>' };
      }
      return { text: `HTTP ${scheme.scheme} authentication` };
    case 'oauth2':
      return { text: 'OAuth 2.0', code: 'Authorization: Bearer <token>' };
    case 'openIdConnect':
      return { text: 'OpenID Connect', code: 'Authorization: Bearer <token>' };
    case 'mutualTLS':
      return { text: 'Mutual TLS (client certificate)' };
    default:
      return { text: `Security scheme ${scheme.name}` };
  }
}
