import { randomBytes, randomUUID } from 'node:crypto';
import { createObjects } from '../commands/createObjects.js';
import { storedForm } from '../commands/storedForm.js';
import type { CommandEnvironment } from '../commands/decideObject.js';
import type { WriteCoordinator } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import type { ReadStore } from '../projections/ReadStore.js';
import { SecretKeeper } from './secrets.js';

/**
 * The first superuser, like netbox-docker: SUPERUSER_NAME / SUPERUSER_PASSWORD /
 * SUPERUSER_API_TOKEN. Without a token, a random one is generated and printed once;
 * it is never stored in clear. Runs as an ordinary write, so it is in the event log.
 */
export async function bootstrapSuperuser(
  config: Config,
  store: ReadStore,
  coordinator: WriteCoordinator,
  commands: CommandEnvironment,
  announce: (message: string) => void,
): Promise<void> {
  const { name, email, password, apiToken } = config.superuser;
  const existing = await store.find('auth.user', { username: { $eq: name } }, { limit: 1 });
  let userId = existing[0]?.id;
  const context = { requestId: randomUUID(), user: null };
  const key = apiToken ?? SecretKeeper.generateTokenKey();
  if (userId !== undefined) {
    if (!apiToken) return;
    const known = await store.find('users.token', { key_digest: commands.secrets.tokenDigest(apiToken.toLowerCase()) }, { limit: 1 });
    if (known.length > 0) return;
  }
  await coordinator.execute(context, async (tx) => {
    if (userId === undefined) {
      const user = await createObjects(commands, tx, commands.registry.get('auth.user'), [
        // Without SUPERUSER_PASSWORD the account gets a random password nobody knows: token access only.
        { username: name, email, password: password ?? randomBytes(24).toString('base64url'), is_staff: true, is_active: true },
      ], false);
      userId = user.ids[0];
      // The superuser flag is not writable through the API: granting it is its own change.
      const created = storedForm((await tx.view.get('auth.user', userId))!);
      tx.record({
        action: 'update',
        objectType: 'auth.user',
        objectId: userId,
        objectRepr: name,
        prechange: created,
        postchange: { ...created, is_superuser: true },
      });
    }
    await createObjects(commands, tx, commands.registry.get('users.token'), [
      { user: userId, key, write_enabled: true, description: 'created at first start' },
    ], false);
  });
  if (!apiToken) announce(`Superuser "${name}" created. API token (shown once): ${key}`);
}
