import { randomBytes } from 'node:crypto';

import type { CommandEnvironment } from '../commands/decideObject.js';
import type { WriteCoordinator } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import type { ReadStore } from '../projections/ReadStore.js';
import { SecretKeeper } from './secrets.js';
import { createSuperuser } from './superuser.js';

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
  const userId = existing[0]?.id;
  const key = apiToken ?? SecretKeeper.generateTokenKey();
  if (userId !== undefined) {
    if (!apiToken) return;
    const known = await store.find(
      'users.token',
      { key_digest: commands.secrets.tokenDigest(apiToken.toLowerCase()) },
      { limit: 1 },
    );
    if (known.length > 0) return;
  }
  await createSuperuser(coordinator, commands, {
    username: name,
    email,
    // Without SUPERUSER_PASSWORD the account gets a random password nobody knows: token access only.
    password: password ?? randomBytes(24).toString('base64url'),
    token: { key, description: 'created at first start' },
    existingUserId: userId,
  });
  if (!apiToken) announce(`Superuser "${name}" created. API token (shown once): ${key}`);
}
