// /account and /account/developer-settings: who is signed in, and the way to the API keys.
import type { User } from '../users-store.js';
import { Breadcrumb, CsrfField } from './components.js';
import { Layout } from './layout.js';
import { ACCOUNT_PATH, API_KEYS_PATH, DEVELOPER_SETTINGS_PATH, SIGN_OUT_PATH } from './paths.js';

export function AccountPage({ user, csrf }: { user: User; csrf: string }) {
  return (
    <Layout title="Account" user={user}>
      <Breadcrumb trail={[{ label: 'Account' }]} />
      <h1>Account</h1>
      <section class="card" aria-labelledby="profile">
        <h2 id="profile">Profile</h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>E-mail address</dt>
          <dd>{user.email}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="settings">
        <h2 id="settings">Settings</h2>
        <ul class="links">
          <li>
            <a href={DEVELOPER_SETTINGS_PATH}>
              <span class="title">Developer Settings</span>
              <span class="description">API keys for your scripts and the programs that use the Akker API.</span>
            </a>
          </li>
        </ul>
      </section>
      <form method="post" action={SIGN_OUT_PATH}>
        <CsrfField token={csrf} />
        <button type="submit" class="button">
          Sign out
        </button>
      </form>
    </Layout>
  );
}

export function DeveloperSettingsPage({ user }: { user: User }) {
  return (
    <Layout title="Developer Settings" user={user}>
      <Breadcrumb trail={[{ label: 'Account', href: ACCOUNT_PATH }, { label: 'Developer Settings' }]} />
      <h1>Developer Settings</h1>
      <div class="card">
        <ul class="links">
          <li>
            <a href={API_KEYS_PATH}>
              <span class="title">API Keys</span>
              <span class="description">
                Create a key for a program that uses the Akker API, see when each key was last used, revoke a key.
              </span>
            </a>
          </li>
        </ul>
      </div>
    </Layout>
  );
}
