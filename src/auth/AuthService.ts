import { type Clock, systemClock } from '../commands/clock.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteCoordinator } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import { type ChangeEvent, type EventUser, onMain } from '../events/ChangeEvent.js';
import type { EventLog, Subscription } from '../events/EventLog.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { maskedTokenKey } from '../models/users/token.js';
import { lookupView } from '../projections/lookupView.js';
import type { ReadStore } from '../projections/ReadStore.js';
import { AUTH_MESSAGES, type Authentication, parseTokenHeader, type Principal } from './authenticateToken.js';
import { AllowedNetworks, canonicalAddress, normalizeAllowedIps } from './ipRestriction.js';
import { defaultGrants, type Grant, grantsOf, PermissionSet } from './permissionSet.js';
import { verifyPasswordAsync } from './secrets.js';
import { safeEqual, SessionCodec, type SessionData } from './sessions.js';
import { LoginThrottle } from './throttle.js';

/** NetBox refreshes a token's last_used at most once a minute. */
export const LAST_USED_INTERVAL_MS = 60_000;

const MAX_CACHED = 50_000;

interface CachedToken {
  token: StoredObject;
  userId: number;
  expiresMs: number | null;
  lastUsedMs: number | null;
  networks: AllowedNetworks | null;
}

interface CachedUser {
  user: StoredObject;
  active: boolean;
  isSuperuser: boolean;
  permissions: PermissionSet;
  passwordTag: string;
}

/** Where a request comes from: the socket peer and a header reader (for trusted proxies). */
export interface RequestOrigin {
  socketAddress: string | undefined;
  header(name: string): string;
}

/** What authentication reads and writes: the committed read models, the log it follows, the writer (for last_used). */
export interface AuthDependencies {
  config: Pick<Config, 'secretKey' | 'defaultPermissions' | 'trustedProxies' | 'maintenanceMode' | 'loginTimeout'>;
  registry: ModelRegistry;
  log: EventLog;
  store: ReadStore;
  coordinator: WriteCoordinator;
  secrets: { tokenDigest(key: string): string };
  logger: (entry: Record<string, unknown>) => void;
}

/**
 * Authentication and the permission sets it hands to the views, with a cache that
 * makes a warm request cost a keyed digest and a few map look-ups.
 *
 * Cache coherence: the service follows the event log and drops cached tokens, users and
 * permission sets as soon as an event touches them. Until it has seen every event up to
 * the log's head (a write committed a moment ago), the cache is bypassed and the state is
 * read afresh, so a change is in force as soon as the write that made it is answered.
 */
export class AuthService {
  /** Time for expiry, last_used, sessions and throttling; tests replace it with a fake clock. */
  clock: Clock = systemClock;
  readonly throttle = new LoginThrottle();
  readonly sessions: SessionCodec;

  private readonly tokens = new Map<string, CachedToken>();
  private readonly users = new Map<number, CachedUser>();
  private readonly refreshed = new Map<number, number>();
  private readonly revokedSessions = new Map<string, number>();
  private readonly defaults: Grant[];
  private readonly proxies: AllowedNetworks | 'any' | null;
  /** Last log position whose events the cache has taken into account. */
  private seen: number;
  private subscription: Subscription | null = null;

  constructor(private readonly services: AuthDependencies) {
    const { config } = services;
    this.sessions = new SessionCodec(config.secretKey);
    this.defaults = defaultGrants(config.defaultPermissions);
    const proxies = config.trustedProxies;
    if (proxies.includes('*')) this.proxies = 'any';
    else if (proxies.length === 0) this.proxies = null;
    else {
      const normalized = normalizeAllowedIps(proxies);
      if ('error' in normalized) throw new Error(`TRUSTED_PROXIES: ${normalized.error}`);
      this.proxies = new AllowedNetworks(normalized.networks ?? []);
    }
    this.seen = services.log.head();
    try {
      this.subscription = services.log.subscribe(this.seen + 1, async (events) => this.observe(events));
    } catch {
      this.subscription = null; // a log that cannot be followed: every request reads afresh
    }
  }

  /** Committed state only: a token or user the writer has not made durable yet does not authenticate. */
  private view(): LookupView {
    return lookupView(this.services.store);
  }

  private now(): number {
    return Date.parse(this.clock.now());
  }

  /** The cache may answer only when it has seen every committed event. */
  private get coherent(): boolean {
    return this.subscription !== null && this.services.log.head() <= this.seen;
  }

  private observe(events: ChangeEvent[]): void {
    for (const event of events) {
      if (!onMain(event) || !this.services.registry.tryGet(event.objectType)?.accessControl) continue;
      if (event.objectType === 'users.token') {
        for (const state of [event.prechange, event.postchange]) {
          if (typeof state?.key_digest === 'string') this.tokens.delete(state.key_digest);
        }
      } else if (event.objectType === 'auth.user') {
        this.users.delete(event.objectId);
      } else {
        this.users.clear(); // groups and permissions: every permission set may change
      }
    }
    if (events.length) this.seen = Math.max(this.seen, events[events.length - 1].position);
  }

  /* ----------------------------------------------------------------- tokens */

  /**
   * NetBox's TokenAuthentication (netbox/api/authentication.py), checks in its order: the key,
   * then last_used (so a rejected token's use is recorded too), expiry, the user, the source address.
   */
  async authenticateToken(
    header: string | undefined,
    origin: RequestOrigin,
    requestId: string,
  ): Promise<Authentication> {
    const parsed = parseTokenHeader(header);
    if ('anonymous' in parsed) return { principal: null };
    if ('error' in parsed) return parsed;
    const digest = this.services.secrets.tokenDigest(parsed.key.toLowerCase());
    const entry = await this.tokenEntry(digest);
    if (!entry) return { error: AUTH_MESSAGES.invalid };
    const stamp = this.clock.now();
    const now = Date.parse(stamp);

    // 2. last_used, before the expiry and address checks (as NetBox does)
    if (
      !this.services.config.maintenanceMode &&
      (entry.lastUsedMs === null || now - entry.lastUsedMs > LAST_USED_INTERVAL_MS)
    ) {
      await this.refreshLastUsed(entry, stamp, now, requestId);
    }
    // 3. expiry
    if (entry.expiresMs !== null && now >= entry.expiresMs) return { error: AUTH_MESSAGES.expired };
    // 5. the user
    const user = await this.userEntry(entry.userId);
    if (!user || !user.active) return { error: AUTH_MESSAGES.inactive };
    // 6. source address
    if (entry.networks) {
      const address = this.clientAddress(origin);
      if (address === null) return { error: AUTH_MESSAGES.noAddress };
      if (!entry.networks.permits(address)) return { error: AUTH_MESSAGES.address(address) };
    }
    return {
      principal: {
        user: user.user,
        token: entry.token,
        isSuperuser: user.isSuperuser,
        writeEnabled: entry.token.write_enabled !== false,
        via: 'token',
        permissions: user.permissions,
      },
    };
  }

  private async tokenEntry(digest: string): Promise<CachedToken | null> {
    const coherent = this.coherent;
    if (coherent) {
      const cached = this.tokens.get(digest);
      if (cached) return cached;
    }
    const generation = this.seen;
    const [token] = await this.view().find('users.token', { key_digest: { $eq: digest } }, 1);
    if (!token) return null;
    const allowed = Array.isArray(token.allowed_ips) ? (token.allowed_ips as string[]) : [];
    const entry: CachedToken = {
      token,
      userId: token.user as number,
      expiresMs: typeof token.expires === 'string' ? Date.parse(token.expires) : null,
      lastUsedMs: typeof token.last_used === 'string' ? Date.parse(token.last_used) : null,
      networks: allowed.length > 0 ? new AllowedNetworks(allowed) : null,
    };
    if (coherent && generation === this.seen && this.coherent) this.remember(this.tokens, digest, entry);
    return entry;
  }

  /**
   * Recording a use is a write like any other: an update event of the token through the
   * single writer (NetBox does a direct UPDATE without a change record). Concurrent
   * requests with the same token record it once.
   */
  private async refreshLastUsed(entry: CachedToken, stamp: string, now: number, requestId: string): Promise<void> {
    const id = entry.token.id;
    const pending = this.refreshed.get(id);
    if (pending !== undefined && now - pending <= LAST_USED_INTERVAL_MS && now >= pending) return;
    this.refreshed.set(id, now);
    if (this.refreshed.size > MAX_CACHED) this.refreshed.delete(this.refreshed.keys().next().value!);
    const owner = await this.userEntry(entry.userId);
    const user: EventUser | null = owner ? { id: owner.user.id, username: String(owner.user.username) } : null;
    try {
      await this.services.coordinator.execute({ requestId, user }, async (tx) => {
        const current = await tx.view.get('users.token', id);
        if (!current) return;
        const last = typeof current.last_used === 'string' ? Date.parse(current.last_used) : null;
        if (last !== null && now - last <= LAST_USED_INTERVAL_MS && now >= last) return;
        const previous = storedForm(current);
        tx.record({
          action: 'update',
          objectType: 'users.token',
          objectId: id,
          objectRepr: typeof current.display === 'string' ? current.display : maskedTokenKey(current.key_last6),
          prechange: previous,
          postchange: { ...previous, last_used: stamp, last_updated: stamp },
        });
      });
      entry.lastUsedMs = now;
    } catch (error) {
      // Recording the use must never fail the request it belongs to.
      this.services.logger({
        level: 'warn',
        requestId,
        msg: `token last_used not recorded: ${(error as Error).message}`,
      });
    }
  }

  /* ------------------------------------------------------------------ users */

  private async userEntry(id: number): Promise<CachedUser | null> {
    const coherent = this.coherent;
    if (coherent) {
      const cached = this.users.get(id);
      if (cached) return cached;
    }
    const generation = this.seen;
    const view = this.view();
    const user = await view.get('auth.user', id);
    if (!user) return null;
    const groups = Array.isArray(user.groups) ? (user.groups as number[]) : [];
    const granted = await view.find('users.objectpermission', {
      enabled: { $eq: true },
      $or: [{ users: { $eq: id } }, { groups: { $in: groups } }],
    });
    const entry: CachedUser = {
      user,
      active: user.is_active !== false,
      isSuperuser: user.is_superuser === true,
      permissions: new PermissionSet(this.services.registry, id, [...this.defaults, ...grantsOf(granted)]),
      passwordTag: this.sessions.passwordTag(user.password),
    };
    if (coherent && generation === this.seen && this.coherent) this.remember(this.users, id, entry);
    return entry;
  }

  private remember<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (map.size >= MAX_CACHED) map.delete(map.keys().next().value!);
    map.set(key, value);
  }

  /** The principal of a user who proved a password (token provisioning), or null if inactive. */
  async principalFor(userId: number, via: Principal['via']): Promise<Principal | null> {
    const entry = await this.userEntry(userId);
    if (!entry || !entry.active) return null;
    return {
      user: entry.user,
      token: null,
      isSuperuser: entry.isSuperuser,
      writeEnabled: true,
      via,
      permissions: entry.permissions,
    };
  }

  /** The active user with this username and password, else null (taking as long either way). */
  async verifyCredentials(username: string, password: string): Promise<StoredObject | null> {
    const [user] = await this.view().find('auth.user', { username: { $eq: username } }, 1);
    const ok = await verifyPasswordAsync(password, user?.password);
    return ok && user && user.is_active !== false ? user : null;
  }

  /* ---------------------------------------------------------------- sessions */

  /** A new session for a user who just logged in: the cookie value and its CSRF token. */
  async openSession(userId: number): Promise<{ cookie: string; csrf: string; maxAgeMs: number } | null> {
    const entry = await this.userEntry(userId);
    if (!entry || !entry.active) return null;
    const maxAgeMs = this.services.config.loginTimeout * 1000;
    const csrf = SessionCodec.newToken();
    const cookie = this.sessions.encode({
      u: userId,
      s: SessionCodec.newToken(),
      c: csrf,
      e: this.now() + maxAgeMs,
      h: entry.passwordTag,
    });
    return { cookie, csrf, maxAgeMs };
  }

  /** The principal of a session cookie, or null (bad signature, expired, logged out, password changed, inactive). */
  async authenticateSession(
    cookie: string | undefined,
  ): Promise<{ principal: Principal; session: SessionData } | null> {
    const session = this.sessions.decode(cookie);
    if (!session) return null;
    const now = this.now();
    if (now >= session.e || this.revokedSessions.has(session.s)) return null;
    const entry = await this.userEntry(session.u);
    if (!entry || !entry.active || !safeEqual(session.h, entry.passwordTag)) return null;
    return {
      principal: {
        user: entry.user,
        token: null,
        isSuperuser: entry.isSuperuser,
        writeEnabled: true,
        via: 'session',
        permissions: entry.permissions,
      },
      session,
    };
  }

  /** Logout: the session id is refused until the cookie would have expired anyway. */
  closeSession(session: SessionData): void {
    const now = this.now();
    for (const [sid, expires] of this.revokedSessions) if (expires <= now) this.revokedSessions.delete(sid);
    this.revokedSessions.set(session.s, session.e);
  }

  /* ---------------------------------------------------------------- addresses */

  /**
   * The client address (canonical), as NetBox finds it: X-Real-IP, then the first
   * X-Forwarded-For entry, then the socket peer. The headers count only when the
   * peer is a trusted proxy (TRUSTED_PROXIES); otherwise anyone could claim any address.
   */
  clientAddress(origin: RequestOrigin): string | null {
    const peer = canonicalAddress(origin.socketAddress);
    if (this.trustsPeer(origin.socketAddress)) {
      const real = origin.header('x-real-ip');
      if (real) return canonicalAddress(real);
      const forwarded = origin.header('x-forwarded-for');
      if (forwarded) return canonicalAddress(forwarded.split(',')[0]);
    }
    return peer;
  }

  /** Whether the socket's peer is a trusted proxy (TRUSTED_PROXIES), whose forwarding headers count. */
  trustsPeer(socketAddress: string | undefined): boolean {
    if (this.proxies === 'any') return true;
    const peer = canonicalAddress(socketAddress);
    return this.proxies !== null && peer !== null && this.proxies.permits(peer);
  }

  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }
}
