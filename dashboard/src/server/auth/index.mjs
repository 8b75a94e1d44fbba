// The dashboard's request gate and its rules. Plain ESM with no build step, because
// scripts/start.mjs (plain node) runs it; the types are in index.d.mts. Each rule has one home:
// allowed-hosts (DNS rebinding), cross-origin (CSRF), trusted-proxies, request-identity,
// password-hash / users-file, session-store / session-cookie, login-throttle, auth-config.
export { isAllowedHost, parseAllowedHosts, parseHostHeader } from './allowed-hosts.mjs';
export { describeAuth, resolveAuthConfig } from './auth-config.mjs';
export { crossOriginProblem, mediaType, originMatches } from './cross-origin.mjs';
export { safeNextPath } from './login-route.mjs';
export { createLoginThrottle } from './login-throttle.mjs';
export { hashPassword, parsePasswordHash, SCRYPT_DEFAULTS, verifyPassword } from './password-hash.mjs';
export { createRequestGate } from './request-gate.mjs';
export { createSessionStore } from './session-store.mjs';
export { isTrustedAddress, normalizeAddress, parseTrustedProxies } from './trusted-proxies.mjs';
export { readUsersFile } from './users-file.mjs';
