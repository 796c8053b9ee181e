import { randomUUID } from 'node:crypto';

import { createObjects } from '../commands/createObjects.js';
import type { CommandEnvironment } from '../commands/decideObject.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteCoordinator } from '../commands/WriteCoordinator.js';

export interface SuperuserRequest {
  username: string;
  email: string;
  password: string;
  /** An API token to create for the user with it (its key, 40 hex characters), or none. */
  token: { key: string; description: string } | null;
  /** An existing user to give the token to instead of creating one (the first-start superuser on a later start). */
  existingUserId?: number;
}

/**
 * A superuser (and, if asked, its API token) as one ordinary write, so it is in the
 * event log like any other change: the user is created through the write side, then
 * granted the superuser flag (not writable through the API) as a change of its own.
 * Returns the user's id.
 */
export async function createSuperuser(
  coordinator: WriteCoordinator,
  commands: CommandEnvironment,
  request: SuperuserRequest,
): Promise<number> {
  let userId = request.existingUserId;
  await coordinator.execute({ requestId: randomUUID(), user: null }, async (tx) => {
    if (userId === undefined) {
      const created = await createObjects(
        commands,
        tx,
        commands.registry.get('auth.user'),
        [
          {
            username: request.username,
            email: request.email,
            password: request.password,
            is_staff: true,
            is_active: true,
          },
        ],
        { bulk: false },
      );
      userId = created.ids[0];
      const stored = storedForm((await tx.view.get('auth.user', userId))!);
      tx.record({
        action: 'update',
        objectType: 'auth.user',
        objectId: userId,
        objectRepr: request.username,
        prechange: stored,
        postchange: { ...stored, is_superuser: true },
      });
    }
    if (request.token) {
      await createObjects(
        commands,
        tx,
        commands.registry.get('users.token'),
        [{ user: userId, key: request.token.key, write_enabled: true, description: request.token.description }],
        { bulk: false },
      );
    }
  });
  return userId!;
}
