import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, remove } from '../support/deciderSpec.js';

/** Providers 1 "Zayo" and 2 "Lumen", circuit type 1, provider network 1 "MPLS-East" of Zayo. */
const providers = [
  create('circuits.provider', { name: 'Zayo', slug: 'zayo' }),
  create('circuits.provider', { name: 'Lumen', slug: 'lumen' }),
  create('circuits.circuittype', { name: 'Transit', slug: 'transit' }),
  create('circuits.providernetwork', { provider: 1, name: 'MPLS-East' }),
];

test('provider network: a name is taken once per provider, with NetBox message', async (t) => {
  await deciderSpec(t)
    .given(providers)
    .when(create('circuits.providernetwork', { provider: 1, name: 'MPLS-East' }))
    .thenThrows(ValidationError, { __all__: ['Provider network with this Provider and Name already exists.'] });
});

test('provider network: the same name under another provider is accepted, shown by its name', async (t) => {
  await deciderSpec(t)
    .given(providers)
    .when(create('circuits.providernetwork', { provider: 2, name: 'MPLS-East', service_id: 'SVC-9' }))
    .then([
      {
        action: 'create',
        objectType: 'circuits.providernetwork',
        objectId: 2,
        objectRepr: 'MPLS-East',
        postchange: { provider: 2, name: 'MPLS-East', service_id: 'SVC-9', description: '', comments: '' },
      },
    ]);
});

test('provider network: needs a provider and a name', async (t) => {
  await deciderSpec(t)
    .given(providers)
    .when(create('circuits.providernetwork', {}))
    .thenThrows(ValidationError, { provider: ['This field is required.'], name: ['This field is required.'] });
});

test('provider network: a provider with networks cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given(providers)
    .when(remove('circuits.provider', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: MPLS-East (1)');
});

test('provider network: cannot be deleted while a circuit terminates on it', async (t) => {
  await deciderSpec(t)
    .given([
      ...providers,
      create('circuits.circuit', { cid: 'CID-1', provider: 1, type: 1 }),
      create('circuits.circuittermination', { circuit: 1, term_side: 'Z', provider_network: 1 }),
    ])
    .when(remove('circuits.providernetwork', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: CID-1: Termination Z (1)');
});
