/**
 * Displays that show other objects (a contact assignment its contact and object, a circuit
 * termination its circuit, a rack reservation its rack) follow a rename at once, in every
 * form they are rendered in; the change log keeps the display each change was made under.
 */
import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function call(service: TestService, method: string, path: string, body?: unknown): Promise<any> {
  const response = await service.api(method, path, body);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

test('a renamed contact, circuit and rack show in the displays of their assignments, terminations and reservations', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await call(service, 'POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const contact = await call(service, 'POST', '/api/tenancy/contacts/', { name: 'Alice' });
  const role = await call(service, 'POST', '/api/tenancy/contact-roles/', { name: 'Admin', slug: 'admin' });
  const assignment = await call(service, 'POST', '/api/tenancy/contact-assignments/', {
    content_type: 'dcim.site',
    object_id: site.id,
    contact: contact.id,
    role: role.id,
  });
  t.is(assignment.display, 'Alice -> DC-1');
  const provider = await call(service, 'POST', '/api/circuits/providers/', { name: 'Telco', slug: 'telco' });
  const type = await call(service, 'POST', '/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
  const circuit = await call(service, 'POST', '/api/circuits/circuits/', {
    cid: 'C-1',
    provider: provider.id,
    type: type.id,
  });
  const termination = await call(service, 'POST', '/api/circuits/circuit-terminations/', {
    circuit: circuit.id,
    term_side: 'A',
    site: site.id,
  });
  t.is(termination.display, 'C-1: Termination A');
  const rack = await call(service, 'POST', '/api/dcim/racks/', { name: 'R1', site: site.id });
  const user = await call(service, 'GET', '/api/users/users/?limit=1');
  const reservation = await call(service, 'POST', '/api/dcim/rack-reservations/', {
    rack: rack.id,
    units: [1],
    user: user.results[0].id,
    description: 'x',
  });
  t.is(reservation.display, 'Reservation for rack R1');

  await call(service, 'PATCH', `/api/tenancy/contacts/${contact.id}/`, { name: 'Alice B.' });
  await call(service, 'PATCH', `/api/dcim/sites/${site.id}/`, { name: 'DC-One' });
  await call(service, 'PATCH', `/api/circuits/circuits/${circuit.id}/`, { cid: 'C-100' });
  await call(service, 'PATCH', `/api/dcim/racks/${rack.id}/`, { name: 'R-One' });

  t.is(
    (await call(service, 'GET', `/api/tenancy/contact-assignments/${assignment.id}/`)).display,
    'Alice B. -> DC-One',
  );
  t.is(
    (await call(service, 'GET', '/api/tenancy/contact-assignments/?brief=1')).results[0].display,
    'Alice B. -> DC-One',
  );
  t.is(
    (await call(service, 'GET', `/api/circuits/circuit-terminations/${termination.id}/`)).display,
    'C-100: Termination A',
  );
  // nested: the circuit's termination_a
  t.is(
    (await call(service, 'GET', `/api/circuits/circuits/${circuit.id}/`)).termination_a.display,
    'C-100: Termination A',
  );
  t.is(
    (await call(service, 'GET', `/api/dcim/rack-reservations/${reservation.id}/`)).display,
    'Reservation for rack R-One',
  );

  // the change log keeps the display the assignment had when it was made
  const changes = await call(
    service,
    'GET',
    `/api/extras/object-changes/?changed_object_type=tenancy.contactassignment&changed_object_id=${assignment.id}`,
  );
  t.deepEqual(
    changes.results.map((c: any) => c.object_repr),
    ['Alice -> DC-1'],
  );
});
