import { visibleText } from '@faultline/sql/format';

/**
 * A dependency as the pages name it: the service that answered its calls first, what the caller
 * called (host:port) beside it, muted; else the name alone. Both exact values in, shown escaped.
 */
export function DependencyName({
  dependency,
  callee = '',
  testIdPrefix = 'dependency',
}: {
  dependency: string;
  callee?: string;
  /** `<prefix>-callee` and `<prefix>-address` name the two parts for tests. */
  testIdPrefix?: string;
}) {
  const shown = visibleText(dependency);
  if (callee === '') return <code title={shown}>{shown}</code>;
  return (
    <>
      <code
        className="dep-callee"
        data-testid={`${testIdPrefix}-callee`}
        title={`${visibleText(callee)}: answered the calls to ${shown}`}
      >
        {visibleText(callee)}
      </code>{' '}
      <span className="muted dep-address" data-testid={`${testIdPrefix}-address`} title={shown}>
        {shown}
      </span>
    </>
  );
}
