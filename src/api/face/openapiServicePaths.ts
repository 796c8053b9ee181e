/** The paths that belong to no model: token provisioning and the status. */
import { errorResponses, json, ref, type Schema } from './openapiFragments.js';

/** POST /api/users/tokens/provision/: a token for a username and password (when tokens are served). */
export function tokenProvisionPaths(names: Map<string, string>): Record<string, Schema> {
  const token = names.get('users.token');
  if (!token) return {};
  return {
    '/api/users/tokens/provision/': {
      post: {
        operationId: 'users_tokens_provision_create',
        summary: 'Create a token for a user, authenticating by username and password (no token needed)',
        tags: ['users'],
        security: [],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: {
              username: { type: 'string' },
              password: { type: 'string', writeOnly: true },
              expires: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
              description: { type: 'string' },
              write_enabled: { type: 'boolean' },
            },
            required: ['username', 'password'],
          }),
        },
        responses: { 201: { description: 'The new token, its key shown', content: json(ref(token)) }, ...errorResponses([400, 403]) },
      },
    },
  };
}

export function statusPaths(): Record<string, Schema> {
  return {
    '/api/status/': {
      get: {
        operationId: 'status_retrieve',
        summary: 'Versions, installed applications and the projector position',
        tags: ['status'],
        responses: { 200: { description: 'Status', content: json(ref('Status')) }, ...errorResponses([403]) },
      },
    },
  };
}
