/** Redaction of text and keys: what keeps credentials out of an envelope's message and raw. */

export { isSecretKey, REDACTED, redactText } from './redact-text.js';
