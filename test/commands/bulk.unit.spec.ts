import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, createMany, deciderSpec, patchMany } from '../support/deciderSpec.js';

test('bulk create: every item is created in one batch, ids in order', async (t) => {
  await deciderSpec(t)
    .given([create('dcim.site', { name: 'DC-1', slug: 'dc-1' })])
    .when(
      createMany('dcim.site', [
        { name: 'DC-2', slug: 'dc-2' },
        { name: 'DC-3', slug: 'dc-3', status: 'planned' },
      ]),
    )
    .then([
      { action: 'create', objectId: 2, postchange: { name: 'DC-2', status: 'active' } },
      { action: 'create', objectId: 3, postchange: { name: 'DC-3', status: 'planned' } },
    ]);
});

test('bulk create: one bad item refuses them all; errors are listed per item', async (t) => {
  await deciderSpec(t)
    .when(
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1' },
        { name: 'DC-2' },
        { name: 'DC-3', slug: 'dc-3', status: 'bogus' },
      ]),
    )
    .thenThrows(ValidationError, [
      {},
      { slug: ['This field is required.'] },
      { status: ['bogus is not a valid choice.'] },
    ]);
});

test('bulk create: items see the items before them (a duplicate within the request is refused)', async (t) => {
  await deciderSpec(t)
    .when(
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1' },
        { name: 'DC-1', slug: 'dc-1' },
      ]),
    )
    .thenThrows(ValidationError, [
      {},
      { name: ['site with this name already exists.'], slug: ['site with this slug already exists.'] },
    ]);
});

test('bulk create: a later item may reference an earlier one, by id or by attributes', async (t) => {
  await deciderSpec(t)
    .when(
      createMany('dcim.region', [
        { name: 'Europe', slug: 'europe' },
        { name: 'Germany', slug: 'germany', parent: 1 },
        { name: 'Berlin', slug: 'berlin', parent: { slug: 'germany' } },
      ]),
    )
    .then([
      { objectId: 1, postchange: { parent: null } },
      { objectId: 2, postchange: { parent: 1 } },
      { objectId: 3, postchange: { parent: 2 } },
    ]);
});

test('bulk create: an empty list creates nothing and appends nothing', async (t) => {
  await deciderSpec(t).when(createMany('dcim.site', [])).thenNothingHappened();
});

test('bulk update: each item changes its own object, in one batch', async (t) => {
  await deciderSpec(t)
    .given([
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1' },
        { name: 'DC-2', slug: 'dc-2' },
      ]),
    ])
    .when(
      patchMany('dcim.site', [
        { id: 2, status: 'retired' },
        { id: 1, description: 'first' },
      ]),
    )
    .then([
      { action: 'update', objectId: 2, prechange: { status: 'active' }, postchange: { status: 'retired' } },
      { action: 'update', objectId: 1, postchange: { description: 'first', status: 'active' } },
    ]);
});

test('bulk update: an unknown id is an item error and nothing is appended', async (t) => {
  await deciderSpec(t)
    .given([create('dcim.site', { name: 'DC-1', slug: 'dc-1' })])
    .when(
      patchMany('dcim.site', [
        { id: 1, description: 'x' },
        { id: 9, description: 'y' },
      ]),
    )
    .thenThrows(ValidationError, [{}, { id: ['Object with id 9 does not exist.'] }]);
});

test('bulk update: items see each other (two objects renamed to the same name)', async (t) => {
  await deciderSpec(t)
    .given([
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1' },
        { name: 'DC-2', slug: 'dc-2' },
        { name: 'DC-3', slug: 'dc-3' },
      ]),
    ])
    .when(
      patchMany('dcim.site', [
        { id: 1, name: 'Main' },
        { id: 2, name: 'Main' },
      ]),
    )
    .thenThrows(ValidationError, [{}, { name: ['site with this name already exists.'] }]);
});

test('bulk update: a swap through a free name succeeds because each item sees the one before', async (t) => {
  await deciderSpec(t)
    .given([
      createMany('dcim.site', [
        { name: 'A', slug: 'a' },
        { name: 'B', slug: 'b' },
      ]),
    ])
    .when(
      patchMany('dcim.site', [
        { id: 1, name: 'tmp' },
        { id: 2, name: 'A' },
        { id: 1, name: 'B' },
      ]),
    )
    .then([
      { objectId: 1, postchange: { name: 'tmp' } },
      { objectId: 2, prechange: { name: 'B' }, postchange: { name: 'A' } },
      { objectId: 1, prechange: { name: 'tmp' }, postchange: { name: 'B' } },
    ]);
});
