import test from 'ava';

import { importOrder, orderWithinModel, relationTargets } from '../../src/migration/importOrder.js';
import { registry } from '../../src/models/registry.js';

test('every model comes after the models its written references point at, except the references held back', (t) => {
  const { models, deferred } = importOrder(registry);
  const position = new Map(models.map((m, i) => [m.key, i]));
  for (const model of models) {
    for (const { field, targets } of relationTargets(model)) {
      if (deferred.get(model.key)?.includes(field.name)) continue;
      for (const target of targets) {
        if (target === model.key || !position.has(target)) continue;
        t.true(position.get(target)! < position.get(model.key)!, `${model.key}.${field.name} → ${target}`);
      }
    }
  }
  t.false(
    models.some((m) => m.readOnly),
    'derived models (cable terminations) are not imported',
  );
  t.is(models[0].key, 'extras.tag');
});

test("cycles are broken at one-to-one designations: primary IPs and a chassis's master wait for the second pass", (t) => {
  const { deferred } = importOrder(registry);
  t.deepEqual(deferred.get('dcim.device'), ['primary_ip4', 'primary_ip6']);
  t.deepEqual(deferred.get('virtualization.virtualmachine'), ['primary_ip4', 'primary_ip6']);
  t.deepEqual(deferred.get('dcim.virtualchassis'), ['master']);
});

test('within a model, an object comes after the object it names (a child region created before its parent)', (t) => {
  const region = registry.get('dcim.region');
  const objects = [
    { id: 1, parent: null },
    { id: 5, parent: { id: 9, url: 'x' } },
    { id: 9, parent: { id: 1, url: 'y' } },
  ];
  t.deepEqual(
    orderWithinModel(region, objects).map((o) => o.id),
    [1, 9, 5],
  );
});
