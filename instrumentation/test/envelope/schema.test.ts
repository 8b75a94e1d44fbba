import { describe, expect, it } from 'vitest';
import { createEnvelope } from '../../src/envelope/create-envelope.js';
import { envelopeJsonSchema, modelEnvelopeJsonSchema } from '../../src/envelope/envelope-json-schema.js';
import { toModelEnvelope } from '../../src/envelope/to-model-envelope.js';

describe('envelopeJsonSchema', () => {
  it('requires exactly the fields an envelope has', () => {
    const e = createEnvelope({ class: 'transient', source: 'db', code: '40001', message: 'x' });
    expect([...envelopeJsonSchema.required].sort()).toEqual(Object.keys(e).sort());
    expect(Object.keys(envelopeJsonSchema.properties).sort()).toEqual(Object.keys(e).sort());
    expect([...modelEnvelopeJsonSchema.required].sort()).toEqual(Object.keys(toModelEnvelope(e)).sort());
    expect(modelEnvelopeJsonSchema.properties).not.toHaveProperty('raw');
  });

  it('states each class action: repair, refresh once then escalate, wait, back off, replan', () => {
    const actions = Object.fromEntries(
      envelopeJsonSchema.properties.class.oneOf.map((c) => [c.const, c.description.toLowerCase()]),
    );
    expect(actions.validation).toContain('repair');
    expect(actions.authentication).toMatch(/refresh once.*escalate/);
    expect(actions.rate_limit).toContain('wait');
    expect(actions.transient).toContain('back off');
    expect(actions.permanent).toContain('replan');
  });

  it('ties retry_after to retryable and is serializable', () => {
    expect(envelopeJsonSchema.properties.retry_after.type).toEqual(['number', 'null']);
    expect(envelopeJsonSchema.then.properties.retry_after.type).toBe('null');
    expect(JSON.parse(JSON.stringify(envelopeJsonSchema)).$schema).toContain('2020-12');
  });
});
