// /account and /account/developer-settings: who is signed in, their password and sessions, and the
// way to their organisations and the API keys.
import { SESSION_LIFETIME_MS, type SessionSummary, type User } from '../users-store.js';
import { Breadcrumb, CsrfField, ErrorSummary, Moment, NewPasswordField, TableHead, TextField } from './components.js';
import type { FieldErrors } from './forms.js';
import { Layout } from './layout.js';
import {
  ACCOUNT_PATH,
  API_KEYS_PATH,
  DEVELOPER_SETTINGS_PATH,
  ORGANISATIONS_PATH,
  PASSWORD_PATH,
  SIGN_OUT_EVERYWHERE_PATH,
  SIGN_OUT_PATH,
} from './paths.js';

const SESSION_LIFETIME_DAYS = SESSION_LIFETIME_MS / (24 * 60 * 60 * 1000);

export interface AccountView {
  user: User;
  csrf: string;
  /** The live sessions of the account, most recently used first. */
  sessions: SessionSummary[];
  /** All live sessions, of which `sessions` are the first. */
  totalSessions: number;
  password: { errors: FieldErrors; general?: string };
  passwordChanged?: boolean;
}

function PasswordForm({ csrf, errors, general }: { csrf: string; errors: FieldErrors; general: string | undefined }) {
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <ErrorSummary errors={errors} general={general} />
      <form method="post" action={PASSWORD_PATH} novalidate>
        <CsrfField token={csrf} />
        <TextField
          name="current_password"
          label="Current password"
          type="password"
          error={errors.current_password}
          autocomplete="current-password"
        />
        <NewPasswordField name="new_password" label="New password" error={errors.new_password} />
        <p class="aside">Changing it signs out every other browser and device where you are signed in. Your API keys keep working.</p>
        <button type="submit" class="button primary">
          Change password
        </button>
      </form>
    </section>
  );
}

function SessionList({ csrf, sessions, total }: { csrf: string; sessions: SessionSummary[]; total: number }) {
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      <p class="aside">{`Each sign-in is a session, until you sign out or it expires ${SESSION_LIFETIME_DAYS} days after it began.`}</p>
      <div class="table-wrap">
        <table>
          <TableHead columns={['Signed in', 'Last used', 'Expires']} last="Which" />
          <tbody>
            {sessions.map((session) => (
              <tr>
                <td>
                  <Moment at={session.created_at} none="" />
                </td>
                <td>
                  <Moment at={session.last_used_at} none="" />
                </td>
                <td>
                  <Moment at={session.expires_at} none="" />
                </td>
                <td>{session.current && <strong>This browser</strong>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > sessions.length && <p class="aside">{`The ${sessions.length} most recently used of your ${total} sessions are shown.`}</p>}
      <form method="post" action={SIGN_OUT_EVERYWHERE_PATH}>
        <CsrfField token={csrf} />
        <button type="submit" class="button danger">
          Sign out everywhere
        </button>
      </form>
    </section>
  );
}

export function AccountPage({ user, csrf, sessions, totalSessions, password, passwordChanged }: AccountView) {
  return (
    <Layout title="Account" user={user}>
      <Breadcrumb trail={[{ label: 'Account' }]} />
      <h1>Account</h1>
      {passwordChanged && (
        <p class="notice" role="status">
          Your password was changed, and every other session of your account was signed out. This browser stays signed in.
        </p>
      )}
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
            <a href={ORGANISATIONS_PATH}>
              <span class="title">Organisations</span>
              <span class="description">
                Your advisory firms, cooperatives and research groups: create one, add and remove members, leave.
              </span>
            </a>
          </li>
          <li>
            <a href={DEVELOPER_SETTINGS_PATH}>
              <span class="title">Developer Settings</span>
              <span class="description">API keys for your scripts and the programs that use the Akker API.</span>
            </a>
          </li>
        </ul>
      </section>
      <PasswordForm csrf={csrf} errors={password.errors} general={password.general} />
      <SessionList csrf={csrf} sessions={sessions} total={totalSessions} />
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
