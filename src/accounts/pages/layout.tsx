// The frame of every page: head, site header with navigation, main column.
import type { Child } from 'hono/jsx';
import type { User } from '../users-store.js';
import { assetPath } from './assets.js';
import { ACCOUNT_PATH, SIGN_IN_PATH, SIGN_UP_PATH } from './paths.js';

interface LayoutProps {
  title: string;
  /** The signed-in person; the navigation offers sign-in (and sign-up when open) without one. */
  user?: User | undefined;
  signupOpen?: boolean;
  /** The narrow column of the sign-in and sign-up forms. */
  narrow?: boolean;
  /** Loads the copy-button script (the API Keys page). */
  copyButton?: boolean;
  children: Child;
}

export function Layout({ title, user, signupOpen = false, narrow = false, copyButton = false, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Akker`}</title>
        <link rel="icon" type="image/svg+xml" href={assetPath.icon} />
        <link rel="stylesheet" href={assetPath.stylesheet} />
        {copyButton && <script src={assetPath.copyButton} defer></script>}
      </head>
      <body>
        <header class="site-header">
          <div class="bar">
            <a class="brand" href="/">
              <img src={assetPath.icon} alt="" />
              Akker
            </a>
            <nav aria-label="Main">
              {user ? (
                <a href={ACCOUNT_PATH}>Account</a>
              ) : (
                <>
                  <a href={SIGN_IN_PATH}>Sign in</a>
                  {signupOpen && <a href={SIGN_UP_PATH}>Sign up</a>}
                </>
              )}
              <a href="/api/docs">API reference</a>
            </nav>
          </div>
        </header>
        <main class={narrow ? 'narrow' : undefined}>{children}</main>
      </body>
    </html>
  );
}
