import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';
import { ClassBadge } from './class-badge';

export function ClassLegend() {
  return (
    <ul className="class-legend" aria-label="Failure classes">
      {FAILURE_CLASSES.map((cls) => (
        <li key={cls}>
          <ClassBadge value={cls} /> <span className="muted">{CLASS_STYLES[cls].policy}</span>
        </li>
      ))}
    </ul>
  );
}
