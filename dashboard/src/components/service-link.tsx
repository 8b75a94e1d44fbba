import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import type { DashboardParams } from '../lib/dashboard-params';
import { dashboardHref } from '../lib/url-state';

/** A service as shown in a table: a link to the Overview filtered to it, the range and filters kept. */
export function ServiceLink({ params, service }: { params: DashboardParams; service: string }) {
  if (!service) return null;
  return <Link href={dashboardHref('/', params, { service })}>{visibleText(service)}</Link>;
}
