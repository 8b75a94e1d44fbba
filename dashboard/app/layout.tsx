import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ClassPatternDefs } from '../src/components/class-pattern-defs';
import { NavLinks } from '../src/components/nav-links';
import './globals.css';

export const metadata: Metadata = {
  title: 'Faultline',
  description: 'Which class of failure, from which source, is eating the reliability budget.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <ClassPatternDefs />
        <Suspense>
          <NavLinks />
        </Suspense>
        <main>{children}</main>
      </body>
    </html>
  );
}
