import type { FieldDefinition } from '../fieldDefinition.js';
import { type ContextScope, scopeModels } from './contextScopes.js';
import { CONFIG_CONTEXT_MODEL, renderConfigContexts } from './renderConfigContexts.js';

export { DEVICE_CONTEXT_SCOPE, VIRTUAL_MACHINE_CONTEXT_SCOPE } from './contextScopes.js';

/**
 * The rendered `config_context` of a model whose objects config contexts apply to
 * (devices, virtual machines): one line in the model's fields, with the scope that says
 * where the object's site, role, cluster ... come from. `?exclude=config_context` leaves
 * it out, and then it is not computed.
 */
export function configContextField(scope: ContextScope): FieldDefinition {
  return {
    name: 'config_context',
    type: 'computed',
    readOnly: true,
    value: {},
    dependsOn: [CONFIG_CONTEXT_MODEL, ...scopeModels(scope)],
    computeMany: renderConfigContexts(scope),
  };
}
