import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ClassPatternDefs } from '../src/components/class-pattern-defs';
import { NavLinks } from '../src/components/nav-links';
import { TimeZoneToggle } from '../src/components/time-zone-toggle';
import { displayZone } from '../src/server/display-zone';
import './globals.css';

export const metadata: Metadata = {
  title: 'Faultline',
  description: 'Which class of failure, from which source, is eating the reliability budget.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const zone = await displayZone();
  return (
    <html lang="en">
      <body>
        <ClassPatternDefs />
        <Suspense>
          <NavLinks>
            <TimeZoneToggle zone={zone} />
          </NavLinks>
        </Suspense>
        <main>{children}</main>
      </body>
    </html>
  );
}
