import { describe, expect, it } from 'vitest';
import { printClusterSchema, renderClusterSchema, resolveClusterName } from '../../src/cluster/index.js';

describe('resolveClusterName', () => {
  it('is undefined when FAULTLINE_CLICKHOUSE_CLUSTER is unset or blank (the single-node schema applies)', () => {
    expect(resolveClusterName({})).toBeUndefined();
    expect(resolveClusterName({ FAULTLINE_CLICKHOUSE_CLUSTER: '  ' })).toBeUndefined();
  });

  it('reads a plain identifier', () => {
    expect(resolveClusterName({ FAULTLINE_CLICKHOUSE_CLUSTER: 'faultline_prod' })).toBe('faultline_prod');
    expect(resolveClusterName({ FAULTLINE_CLICKHOUSE_CLUSTER: ' prod ' })).toBe('prod');
  });

  it.each(['prod-eu', '1prod', 'prod; DROP TABLE failures', "prod'", 'prod cluster', 'x'.repeat(129)])(
    'refuses %j with a RangeError naming the variable and the fix',
    (value) => {
      const attempt = () => resolveClusterName({ FAULTLINE_CLICKHOUSE_CLUSTER: value });
      expect(attempt).toThrow(RangeError);
      expect(attempt).toThrow(/FAULTLINE_CLICKHOUSE_CLUSTER must be a ClickHouse cluster name/);
      expect(attempt).toThrow(/letters, digits and underscores, not starting with a digit/);
      expect(attempt).toThrow(/e\.g\. FAULTLINE_CLICKHOUSE_CLUSTER=faultline/);
    },
  );

  it('the renderer and the printer refuse a bad name too', () => {
    expect(() => renderClusterSchema([], { cluster: 'a-b' })).toThrow(RangeError);
    expect(() => printClusterSchema({ FAULTLINE_CLICKHOUSE_CLUSTER: 'a-b' })).toThrow(
      /FAULTLINE_CLICKHOUSE_CLUSTER must be/,
    );
    expect(() => printClusterSchema({})).toThrow(/FAULTLINE_CLICKHOUSE_CLUSTER is not set/);
    expect(() =>
      printClusterSchema({ FAULTLINE_CLICKHOUSE_CLUSTER: 'prod', FAULTLINE_CLICKHOUSE_DATABASE: 'a-b' }),
    ).toThrow(/FAULTLINE_CLICKHOUSE_DATABASE must be a plain identifier/);
  });
});
