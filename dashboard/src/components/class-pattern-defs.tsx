import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';

/**
 * One hidden SVG with a fill pattern per class. Every chart and badge fills with url(#pattern), so
 * classes stay distinguishable in greyscale and for colour-blind readers.
 */
export function ClassPatternDefs() {
  const marks: Record<string, React.ReactNode> = {
    validation: <path d="M0 8 L8 0" stroke="#fff" strokeWidth="1.6" />,
    authentication: <circle cx="4" cy="4" r="1.6" fill="#fff" />,
    rate_limit: <path d="M0 4 H8" stroke="#fff" strokeWidth="1.6" />,
    transient: <path d="M0 0 L8 8 M8 0 L0 8" stroke="#fff" strokeWidth="1.2" />,
    permanent: null,
  };
  return (
    <svg aria-hidden="true" width="0" height="0" style={{ position: 'absolute' }}>
      <defs>
        {FAILURE_CLASSES.map((cls) => (
          <pattern
            key={cls}
            id={CLASS_STYLES[cls].patternId}
            width="8"
            height="8"
            patternUnits="userSpaceOnUse"
          >
            <rect width="8" height="8" fill={CLASS_STYLES[cls].color} />
            {marks[cls]}
          </pattern>
        ))}
        <pattern id="fl-pat-other" width="8" height="8" patternUnits="userSpaceOnUse">
          <rect width="8" height="8" fill="#999" />
        </pattern>
      </defs>
    </svg>
  );
}
