import { escapeRegExp } from './escape-regexp.js';

/**
 * Credential formats whose literal prefix alone identifies them, as `[prefix, rest]`: `rest` is
 * the RegExp source of what follows the prefix. One list feeds both the redactor's expression
 * and the secret gate's prefix table, so the gate can never miss a format the expression knows.
 * Every prefix starts with a letter and is matched at a word boundary, case-sensitively.
 */
export const KEY_FORMATS: ReadonlyArray<readonly [prefix: string, rest: string]> = [
  ['sk_live_', '[A-Za-z0-9]{8,}'], // Stripe secret keys
  ['sk_test_', '[A-Za-z0-9]{8,}'],
  ['rk_live_', '[A-Za-z0-9]{8,}'], // Stripe restricted keys
  ['rk_test_', '[A-Za-z0-9]{8,}'],
  ['whsec_', '[A-Za-z0-9]{8,}'], // Stripe webhook signing secrets
  ['sk-', '(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}'], // OpenAI, Anthropic
  ['ghp_', '[A-Za-z0-9]{20,}'], // GitHub personal, OAuth, user-to-server, server, refresh tokens
  ['gho_', '[A-Za-z0-9]{20,}'],
  ['ghu_', '[A-Za-z0-9]{20,}'],
  ['ghs_', '[A-Za-z0-9]{20,}'],
  ['ghr_', '[A-Za-z0-9]{20,}'],
  ['github_pat_', '[A-Za-z0-9_]{20,}'], // GitHub fine-grained tokens
  ['xox', '[abposre]-[A-Za-z0-9-]{8,}'], // Slack bot, user, app-level, refresh tokens
  ['xapp-', '[A-Za-z0-9-]{8,}'],
  ['AKIA', '[A-Z0-9]{16}\\b'], // AWS access key ids (long-term, then STS session)
  ['ASIA', '[A-Z0-9]{16}\\b'],
  ['AIza', '[0-9A-Za-z_-]{30,}'], // Google API keys
  ['glpat-', '[A-Za-z0-9_-]{16,}'], // GitLab personal access tokens
  ['npm_', '[A-Za-z0-9]{30,}'], // npm access tokens
  ['SG.', '[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}'], // SendGrid
  // JWTs: an unsigned token with an empty payload (`{"alg":"none"}.{}.`) is this short.
  ['eyJ', '[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*'],
  ['shpat_', '[a-fA-F0-9]{32,}'], // Shopify admin, shared-secret, custom-app, partner tokens
  ['shpss_', '[a-fA-F0-9]{32,}'],
  ['shpca_', '[a-fA-F0-9]{32,}'],
  ['shppa_', '[a-fA-F0-9]{32,}'],
  ['hf_', '[A-Za-z0-9]{30,}'], // Hugging Face
  ['dop_v1_', '[a-f0-9]{64}'], // DigitalOcean personal, OAuth, refresh tokens
  ['doo_v1_', '[a-f0-9]{64}'],
  ['dor_v1_', '[a-f0-9]{64}'],
  ['pypi-AgEIcHlwaS5vcmc', '[A-Za-z0-9_-]{40,}'], // PyPI upload tokens (macaroon for pypi.org)
  // Incoming-webhook URLs carry their secret in the path.
  ['hooks.slack.com/services/', '[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]{16,}'],
  ['discord.com/api/webhooks/', '[0-9]+/[A-Za-z0-9_-]{30,}'],
  ['discordapp.com/api/webhooks/', '[0-9]+/[A-Za-z0-9_-]{30,}'],
  // PEM private keys, to their END line or, when the text was cut, to its end.
  ['BEGIN', '[A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)'],
];

/** All KEY_FORMATS as one global expression. */
export function keyFormatsRegExp(): RegExp {
  return new RegExp(KEY_FORMATS.map(([prefix, rest]) => `\\b${escapeRegExp(prefix)}${rest}`).join('|'), 'g');
}
