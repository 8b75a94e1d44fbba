import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import type { DashboardParams } from '../lib/dashboard-params';
import { dashboardHref } from '../lib/url-state';

/**
 * A service as shown in a table: a link to the Overview filtered to it, the range and filters kept,
 * on one line (service-name: "orders-api" is one token, never split at its hyphen).
 */
export function ServiceLink({ params, service }: { params: DashboardParams; service: string }) {
  if (!service) return null;
  return (
    <Link className="service-name" href={dashboardHref('/', params, { service })}>
      {visibleText(service)}
    </Link>
  );
}
