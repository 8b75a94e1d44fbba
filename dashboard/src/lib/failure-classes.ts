/**
 * One visual identity per envelope class, used by every page. Colour alone is not enough (colour
 * blindness, print): each class also has a fill pattern, a glyph and its name, so a chart legend, a
 * table badge and a stacked bar agree even in greyscale.
 */
export const FAILURE_CLASSES = [
  'validation',
  'authentication',
  'rate_limit',
  'transient',
  'permanent',
] as const;

export type FailureClass = (typeof FAILURE_CLASSES)[number];

export interface ClassStyle {
  label: string;
  color: string;
  /** id of the SVG pattern declared by <ClassPatternDefs/>. */
  patternId: string;
  glyph: string;
  /** What the policy does with this class, shown in legends. */
  policy: string;
}

export const CLASS_STYLES: Record<FailureClass, ClassStyle> = {
  validation: {
    label: 'validation',
    color: '#7b61c9',
    patternId: 'fl-pat-validation',
    glyph: '✎',
    policy: 'repair, no retry',
  },
  authentication: {
    label: 'authentication',
    color: '#d4a017',
    patternId: 'fl-pat-authentication',
    glyph: '◆',
    policy: 'refresh once, then escalate',
  },
  rate_limit: {
    label: 'rate_limit',
    color: '#d9534f',
    patternId: 'fl-pat-rate_limit',
    glyph: '◷',
    policy: 'wait retry_after',
  },
  transient: {
    label: 'transient',
    color: '#2a7fd4',
    patternId: 'fl-pat-transient',
    glyph: '↻',
    policy: 'backoff and retry',
  },
  permanent: {
    label: 'permanent',
    color: '#555b66',
    patternId: 'fl-pat-permanent',
    glyph: '✕',
    policy: 'no retry, replan',
  },
};

const UNKNOWN_STYLE: ClassStyle = {
  label: 'other',
  color: '#999',
  patternId: 'fl-pat-other',
  glyph: '?',
  policy: 'unclassified',
};

export function isFailureClass(value: string): value is FailureClass {
  return (FAILURE_CLASSES as readonly string[]).includes(value);
}

export function classStyle(value: string): ClassStyle {
  return isFailureClass(value) ? CLASS_STYLES[value] : { ...UNKNOWN_STYLE, label: value || 'other' };
}
