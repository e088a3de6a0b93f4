import { Card, H2 } from '@blueprintjs/core';
import { type ReactNode } from 'react';

export interface AuthLayoutProps {
  /** The page heading. */
  title: string;
  children: ReactNode;
}

/** The centred card every sign-in page uses. */
export function AuthLayout({ title, children }: AuthLayoutProps) {
  return (
    <main className="or-auth">
      <Card className="or-auth-card" elevation={2}>
        <div className="or-auth-brand">Openrate</div>
        <H2>{title}</H2>
        {children}
      </Card>
    </main>
  );
}
