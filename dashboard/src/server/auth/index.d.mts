// Types of the gate's modules (index.mjs), for TypeScript callers and tests.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';

export interface HostName {
  /** Lowercase, without brackets or a trailing dot. */
  hostname: string;
  port: number | null;
}

export interface PasswordHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export interface TrustedProxies {
  list: BlockList;
  entries: string[];
}

export type LoginConfig =
  | { kind: 'token'; digest: Buffer }
  | { kind: 'users'; users: Map<string, PasswordHash>; file: string };

export interface AuthConfig {
  bindHost: string;
  /** Bound to loopback: the only case where no auth mode is required. */
  loopback: boolean;
  login: LoginConfig | null;
  proxy: TrustedProxies | null;
  /** From FAULTLINE_DASHBOARD_ALLOWED_HOSTS and FAULTLINE_DASHBOARD_PUBLIC_URL (localhost and IP literals always pass). */
  allowedHosts: HostName[];
  /** FAULTLINE_DASHBOARD_PUBLIC_URL's origin, e.g. `https://faultline.example.com`. */
  publicOrigin: string | null;
  /** Public URL is https: the session cookie is Secure and __Host- prefixed. */
  secureCookies: boolean;
  sessionTtlMs: number;
}

export interface Refusal {
  status: number;
  message: string;
}

export function resolveAuthConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: { bindHost: string },
): AuthConfig;
export function describeAuth(config: AuthConfig): string;

export type RequestGate = (req: IncomingMessage, res: ServerResponse, next: () => unknown) => void;
export function createRequestGate(config: AuthConfig, options?: { now?: () => number }): RequestGate;

export function parseHostHeader(value: string | undefined): HostName | null;
export function parseAllowedHosts(raw: string | undefined, variable?: string): HostName[];
export function isAllowedHost(host: HostName | null, allowed: HostName[]): boolean;

export function crossOriginProblem(
  headers: IncomingHttpHeaders,
  options: {
    unsafe: boolean;
    host: HostName;
    publicOrigin: string | null;
    headerAuthenticated: boolean;
    acceptsForm: boolean;
  },
): Refusal | null;
export function originMatches(origin: string, host: HostName, publicOrigin: string | null): boolean;
export function mediaType(header: string | undefined): string | undefined;

export function safeNextPath(raw: unknown): string;

export interface LoginThrottle {
  retryAfterS(address: string): number;
  failed(address: string): void;
  succeeded(address: string): void;
}
export function createLoginThrottle(options?: {
  maxFailures?: number;
  windowMs?: number;
  maxTracked?: number;
  now?: () => number;
}): LoginThrottle;

export const SCRYPT_DEFAULTS: { readonly N: number; readonly r: number; readonly p: number };
export function parsePasswordHash(text: string): PasswordHash;
export function hashPassword(password: string, params?: { N: number; r: number; p: number }): Promise<string>;
export function verifyPassword(password: string, hash: PasswordHash): Promise<boolean>;
export function readUsersFile(path: string): Map<string, PasswordHash>;

export interface SessionStore {
  create(user: string): { id: string; expiresAt: number };
  lookup(id: string | undefined): { user: string; expiresAt: number } | undefined;
  revoke(id: string | undefined): void;
  readonly size: number;
}
export function createSessionStore(options: {
  ttlMs: number;
  maxSessions?: number;
  now?: () => number;
}): SessionStore;

export function parseTrustedProxies(raw: string, variable?: string): TrustedProxies;
export function normalizeAddress(address: string | undefined): string;
export function isTrustedAddress(proxies: TrustedProxies, remoteAddress: string | undefined): boolean;
