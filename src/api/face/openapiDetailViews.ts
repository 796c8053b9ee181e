/**
 * The read-only detail sub-resources models declare (`detailViews`: a port's trace, a
 * rack's elevation), documented from their declarations: path, parameters, answers.
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { errorResponses, operationPrefix, type Schema } from './openapiFragments.js';

export function detailViewPaths(definition: ModelDefinition): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const detail of definition.detailViews ?? []) {
    paths[`/api/${definition.app}/${definition.path}/{id}/${detail.path}/`] = {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: `${operationPrefix(definition)}_${detail.path.replace(/-/g, '_')}`,
        summary: detail.summary,
        tags: [definition.app],
        parameters: (detail.parameters ?? []).map((p) => ({ in: 'query', required: false, ...p })),
        responses: {
          200: {
            description: detail.summary,
            content: Object.fromEntries(Object.entries(detail.responses).map(([type, schema]) => [type, { schema }])),
          },
          ...errorResponses([403, 404]),
        },
      },
    };
  }
  return paths;
}
