import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
} from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { CorrelationPropagator, correlationIdOf } from '../../src/preload/pipeline/correlation.js';

const propagator = new CorrelationPropagator();
const extract = (headers: Record<string, string>) =>
  propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);

describe('CorrelationPropagator', () => {
  it('adopts an inbound x-correlation-id, else x-request-id', () => {
    expect(correlationIdOf(extract({ 'x-correlation-id': 'corr-1', 'x-request-id': 'req-1' }))).toBe(
      'corr-1',
    );
    expect(correlationIdOf(extract({ 'x-request-id': 'req-1' }))).toBe('req-1');
    expect(correlationIdOf(extract({}))).toBeUndefined();
  });

  it("prefers an upstream preload's baggage over a header a proxy added on the way", () => {
    const ctx = extract({ baggage: 'faultline.correlation_id=from-a', 'x-request-id': 'from-proxy' });
    expect(correlationIdOf(ctx)).toBe('from-a');
  });

  it('ignores an oversized header instead of adopting a payload as an id', () => {
    expect(correlationIdOf(extract({ 'x-correlation-id': 'x'.repeat(500) }))).toBeUndefined();
  });

  it('injects the id as W3C baggage so the next service reuses it', () => {
    const carrier: Record<string, string> = {};
    propagator.inject(extract({ 'x-correlation-id': 'corr-2' }), carrier, defaultTextMapSetter);
    expect(carrier.baggage).toBe('faultline.correlation_id=corr-2');
    const other = propagation.setBaggage(
      context.active(),
      propagation.createBaggage({ team: { value: 'pay' } }),
    );
    const plain: Record<string, string> = {};
    propagator.inject(other, plain, defaultTextMapSetter);
    expect(plain.baggage).toBe('team=pay');
  });
});
