import { classStyle } from '../lib/failure-classes';

/** Swatch (pattern) + glyph + name: the same three cues as the charts. */
export function ClassBadge({ value }: { value: string }) {
  const style = classStyle(value);
  return (
    <span className="class-badge" data-class={value} title={`${style.label}: ${style.policy}`}>
      <svg width="14" height="14" aria-hidden="true">
        <rect width="14" height="14" rx="2" fill={`url(#${style.patternId})`} />
      </svg>
      <span aria-hidden="true">{style.glyph}</span>
      {style.label}
    </span>
  );
}
