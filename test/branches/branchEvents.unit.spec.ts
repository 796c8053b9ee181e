import test from 'ava';

import { branchEvents } from '../../src/branches/branchEvents.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { makeEvent } from '../support/makeEvent.js';

const state = (status: string, more: Record<string, unknown> = {}) => ({ status, last_sync: null, ...more });

test("a branch's events are read from its own changes: creation, sync, merge, revert, archive; a rename is none", (t) => {
  const steps: Array<[Record<string, unknown> | null, Record<string, unknown> | null]> = [
    [null, state('ready')],
    [state('ready'), state('ready', { last_sync: '2026-01-02T00:00:00Z' })],
    [state('ready'), state('ready', { name: 'renamed' })],
    [state('ready'), state('merged')],
    [state('merged'), state('ready')],
    [state('ready'), state('merged')],
    [state('merged'), state('archived')],
    [state('archived'), null],
  ];
  const changes: ChangeEvent[] = steps.map(([prechange, postchange], i) =>
    makeEvent(i + 1, { objectType: 'netbox_branching.branch', prechange, postchange }),
  );
  t.deepEqual(
    branchEvents(changes).map((e) => [e.position, e.type]),
    [
      [1, 'provisioned'],
      [2, 'synced'],
      [4, 'merged'],
      [5, 'reverted'],
      [6, 'merged'],
      [7, 'archived'],
    ],
  );
});
