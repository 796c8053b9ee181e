// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { BEYOND_NETBOX, lookupsBeyondNetBox } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { normalizeAllowedIps } from '../values/allowedIps.js';

/** The masked form NetBox shows when keys cannot be retrieved: 34 '*' and the key's last 6 characters. */
export function maskedTokenKey(last6: unknown): string {
  return '*'.repeat(34) + (typeof last6 === 'string' ? last6 : '');
}

export const token: ModelDefinition = {
  key: 'users.token',
  app: 'users',
  model: 'token',
  path: 'tokens',
  verboseName: 'token',
  verboseNamePlural: 'tokens',
  fields: [
    ...identityFields,
    { name: 'user', type: 'fk', target: 'auth.user', onDelete: 'CASCADE', required: true },
    { name: 'created', type: 'datetime', readOnly: true },
    { name: 'expires', type: 'datetime', nullable: true, default: null },
    { name: 'last_used', type: 'datetime', nullable: true, default: null },
    // The token's use time is served as last_updated too (tracked uses set it, besides last_used): it moves with every write and every recorded use.
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'key',
      type: 'string',
      secret: 'token_key',
      unique: true,
      minLength: 40,
      maxLength: 40,
      pattern: '^[0-9a-fA-F]{40}$',
    },
    { name: 'write_enabled', type: 'boolean', default: true },
    descriptionField,
    // null (as tokens from the provision endpoint have) or [] both mean any client address
    { name: 'allowed_ips', type: 'array', nullable: true, default: [], defaultOnPut: true, items: 'cidr' },
    { name: 'key_last6', type: 'string', internal: true, nullable: true },
    { name: 'key_digest', type: 'string', internal: true, nullable: true },
    { name: 'key_cipher', type: 'string', internal: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'key', 'write_enabled'],
  ordering: ['id'],
  // NetBox's: the use time served as last_updated is not among them
  orderingFields: ['id', 'user', 'created', 'expires', 'last_used', 'write_enabled', 'description', 'allowed_ips'],
  search: ['description'],
  filters: {
    user: { kind: 'related', target: 'auth.user', by: 'username', path: ['user'] },
    // NetBox: created and expires exact, __gte and __lte only
    created: lookupsBeyondNetBox('n', 'gt', 'lt'),
    expires: lookupsBeyondNetBox('n', 'gt', 'lt'),
    last_used: BEYOND_NETBOX,
    last_updated: BEYOND_NETBOX,
  },
  changeLogged: false,
  accessControl: true,
  hooks: {
    // NetBox shows the full key while ALLOW_TOKEN_RETRIEVAL is on; the clear key is never stored
    // (the write side keeps key_digest, key_cipher and key_last6), and display strings end up in
    // change records, so the display is always the masked form.
    display: (obj) => maskedTokenKey(obj.key_last6),
    normalize(obj) {
      const result = normalizeAllowedIps(obj.allowed_ips);
      if ('error' in result) return { allowed_ips: [result.error] };
      obj.allowed_ips = result.networks;
    },
    async validate(obj, view) {
      // The key is only held as its digest; NetBox's model-level wording for the duplicate.
      if (typeof obj.key_digest !== 'string') return undefined;
      const [other] = await view.find('users.token', { key_digest: { $eq: obj.key_digest }, id: { $ne: obj.id } }, 1);
      return other ? { key: ['Token with this Key already exists.'] } : undefined;
    },
  },
};
