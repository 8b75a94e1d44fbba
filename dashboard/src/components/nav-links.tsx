'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { hrefWith } from '../lib/url-state';

const PAGES = [
  { href: '/', label: 'Overview' },
  { href: '/dependencies', label: 'Dependencies' },
  { href: '/failures', label: 'Failures' },
  { href: '/workflows', label: 'Workflows' },
  { href: '/retries', label: 'Retries' },
  { href: '/agents', label: 'Agents' },
  { href: '/alerts', label: 'Alerts' },
  { href: '/request', label: 'Request' },
  { href: '/sql', label: 'SQL' },
];

/** Links carry the time range and filters along, so switching pages keeps the user's view. */
export function NavLinks({ children }: { children?: React.ReactNode }) {
  const pathname = usePathname();
  const params = useSearchParams();
  return (
    <nav className="nav">
      <strong className="brand">Faultline</strong>
      {PAGES.map((p) => (
        <Link
          key={p.href}
          href={hrefWith(p.href, params)}
          aria-current={pathname === p.href ? 'page' : undefined}
        >
          {p.label}
        </Link>
      ))}
      <span className="nav-end">{children}</span>
    </nav>
  );
}
