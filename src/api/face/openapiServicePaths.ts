/** The paths that belong to no model: token provisioning, the caller's preferences and the status. */
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
        responses: {
          201: { description: 'The new token, its key shown', content: json(ref(token)) },
          ...errorResponses([400, 403]),
        },
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

/** GET and PATCH /api/users/config/: the caller's preferences, a free-form JSON object. */
export function userConfigPaths(names: Map<string, string>): Record<string, Schema> {
  if (!names.get('auth.user')) return {};
  const preferences: Schema = {
    type: 'object',
    additionalProperties: true,
    description: "The user's preferences (NetBox's UserConfig data)",
  };
  return {
    '/api/users/config/': {
      get: {
        operationId: 'users_config_retrieve',
        summary: "The caller's own preferences",
        tags: ['users'],
        responses: { 200: { description: 'The preferences', content: json(preferences) }, ...errorResponses([403]) },
      },
      patch: {
        operationId: 'users_config_partial_update',
        summary: "Deep-merge the body into the caller's preferences",
        tags: ['users'],
        requestBody: { required: true, content: json(preferences) },
        responses: {
          200: { description: 'The preferences after the merge', content: json(preferences) },
          ...errorResponses([400, 403]),
        },
      },
    },
  };
}
