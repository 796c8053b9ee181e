// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { BEYOND_NETBOX, pairFilters } from '../filterSpecs.js';
import { pyStr } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';

/** Django's UnicodeUsernameValidator: letters, digits and @ . + - _ only. */
const USERNAME = /^[\p{L}\p{N}_@.+-]+$/u;

export const user: ModelDefinition = {
  key: 'auth.user',
  app: 'users',
  model: 'user',
  path: 'users',
  verboseName: 'user',
  verboseNamePlural: 'users',
  fields: [
    ...identityFields,
    { name: 'username', type: 'string', required: true, unique: true, maxLength: 150 },
    { name: 'password', type: 'string', required: true, writeOnly: true, secret: 'password', maxLength: 128 },
    { name: 'first_name', type: 'string', blank: true, default: '', maxLength: 150 },
    { name: 'last_name', type: 'string', blank: true, default: '', maxLength: 150 },
    { name: 'email', type: 'string', blank: true, default: '', maxLength: 254, format: 'email' },
    { name: 'is_staff', type: 'boolean', default: false },
    { name: 'is_active', type: 'boolean', default: true },
    { name: 'date_joined', type: 'datetime' },
    { name: 'groups', type: 'm2m', target: 'auth.group', default: [] },
    { name: 'is_superuser', type: 'boolean', internal: true, default: false },
    // The user's preferences (NetBox's UserConfig), served by /api/users/config/ to the user alone.
    { name: 'config', type: 'json', internal: true, default: {} },
  ],
  brief: ['id', 'url', 'display', 'username'],
  ordering: ['username', 'id'],
  search: ['username', 'first_name', 'last_name', 'email'],
  filters: {
    ...pairFilters('group_id', 'group', 'auth.group', ['groups'], 'name'),
    groups_id: false,
    groups: false,
    date_joined: BEYOND_NETBOX,
  },
  changeLogged: false,
  exemptable: false,
  accessControl: true,
  hooks: {
    display(obj) {
      const fullName = `${String(obj.first_name ?? '')} ${String(obj.last_name ?? '')}`.trim();
      return fullName ? `${pyStr(obj.username)} (${fullName})` : pyStr(obj.username);
    },
    normalize(obj, now) {
      // Django's default for date_joined is the time of creation: the decision's.
      if (obj.date_joined == null) obj.date_joined = now;
    },
    async validate(obj, view) {
      if (typeof obj.username !== 'string') return undefined;
      if (!USERNAME.test(obj.username)) {
        return {
          username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'],
        };
      }
      // Django's own wording (the generic unique check would say "user with this username ...").
      const [other] = await view.find('auth.user', { username: { $eq: obj.username }, id: { $ne: obj.id } }, 1);
      if (other) return { username: ['A user with that username already exists.'] };
      return undefined;
    },
  },
};
