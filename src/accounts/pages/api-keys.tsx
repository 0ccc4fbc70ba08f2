// /account/developer-settings/api-keys: the new key (once), creating a key, the active keys,
// and the page that asks before a key is revoked.
import type { ApiKeyMetadata } from '../api-keys-store.js';
import type { User } from '../users-store.js';
import { Breadcrumb, CsrfField, ErrorSummary, Moment, TextField } from './components.js';
import type { FieldErrors } from './forms.js';
import { EXPIRY_CHOICES } from './key-expiry.js';
import { Layout } from './layout.js';
import type { NewKey } from './new-key-flash.js';
import { ACCOUNT_PATH, API_KEYS_PATH, DEVELOPER_SETTINGS_PATH, revokeKeyPath } from './paths.js';

const trail = [
  { label: 'Account', href: ACCOUNT_PATH },
  { label: 'Developer Settings', href: DEVELOPER_SETTINGS_PATH },
];

interface NewKeyFormValues {
  name: string;
  expiry: string;
  expires_on: string;
}

export interface ApiKeysView {
  user: User;
  csrf: string;
  keys: ApiKeyMetadata[];
  /** All active keys, of which `keys` are the first. */
  total: number;
  newKey?: NewKey | undefined;
  revoked?: boolean;
  /** `general`: a problem of the request as a whole (the cap on keys, the rate limit). */
  form: { values: NewKeyFormValues; errors: FieldErrors; general?: string };
  /** The earliest date the expiry date field offers (YYYY-MM-DD). */
  today: string;
}

function NewKeyPanel({ newKey }: { newKey: NewKey }) {
  return (
    <section class="card new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key “{newKey.name}”</h2>
      <p class="warning">Copy this key now and keep it somewhere safe. It will not be shown again.</p>
      <div class="secret-row">
        <code class="secret" id="new-key">
          {newKey.key}
        </code>
        <button type="button" class="button" data-copy="new-key" hidden>
          Copy
        </button>
      </div>
      <p class="aside">
        Send it with every request, in the header <code>X-API-Key</code> or as <code>Authorization: Bearer</code>. Akker keeps only a
        fingerprint of it: if you lose it, revoke it and create a new one.
      </p>
    </section>
  );
}

interface CreateKeyFormProps {
  csrf: string;
  values: NewKeyFormValues;
  errors: FieldErrors;
  general: string | undefined;
  today: string;
}

function CreateKeyForm({ csrf, values, errors, general, today }: CreateKeyFormProps) {
  return (
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <ErrorSummary errors={errors} general={general} />
      <form method="post" action={API_KEYS_PATH} novalidate>
        <CsrfField token={csrf} />
        <div class="form-row">
          <TextField
            name="name"
            label="Name"
            value={values.name}
            error={errors.name}
            hint="What the key is for, such as “ci” or “farm sync”."
            maxlength={100}
          />
          <div class="field">
            <label for="expiry">Expires</label>
            <span class="hint">The key stops working then.</span>
            {errors.expiry && <span class="field-error">{errors.expiry}</span>}
            <select id="expiry" name="expiry">
              {EXPIRY_CHOICES.map((choice) => (
                <option value={choice.value} selected={values.expiry === choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div class="expiry-date">
          <TextField
            name="expires_on"
            label="Expiry date"
            type="date"
            value={values.expires_on}
            error={errors.expires_on}
            hint="With “On a date”: the key works until the end of this day (UTC)."
            min={today}
            required={false}
          />
        </div>
        <button type="submit" class="button primary">
          Create key
        </button>
      </form>
    </section>
  );
}

function KeyTable({ keys, total }: { keys: ApiKeyMetadata[]; total: number }) {
  if (keys.length === 0) return <p class="empty">You have no active keys.</p>;
  return (
    <>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td class="name">{key.name}</td>
                <td>
                  <Moment at={key.created_at} none="" />
                </td>
                <td>
                  <Moment at={key.last_used_at} none="never" />
                </td>
                <td>
                  <Moment at={key.expires_at} none="never" />
                </td>
                <td>
                  <a class="button danger small" href={revokeKeyPath(key.id)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > keys.length && <p class="aside">{`The ${keys.length} oldest of your ${total} active keys are shown.`}</p>}
    </>
  );
}

export function ApiKeysPage({ user, csrf, keys, total, newKey, revoked, form, today }: ApiKeysView) {
  return (
    <Layout title="API Keys" user={user} copyButton={newKey !== undefined}>
      <Breadcrumb trail={[...trail, { label: 'API Keys' }]} />
      <h1>API Keys</h1>
      <p class="lead">A key lets a program use the Akker API as you: it may read and change everything you may.</p>
      {newKey && <NewKeyPanel newKey={newKey} />}
      {revoked && (
        <p class="notice" role="status">
          The key was revoked. Every request with it is refused from now on.
        </p>
      )}
      <CreateKeyForm csrf={csrf} values={form.values} errors={form.errors} general={form.general} today={today} />
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Active keys</h2>
        <KeyTable keys={keys} total={total} />
      </section>
    </Layout>
  );
}

export function RevokeKeyPage({ user, csrf, apiKey }: { user: User; csrf: string; apiKey: ApiKeyMetadata }) {
  return (
    <Layout title="Revoke key" user={user}>
      <Breadcrumb trail={[...trail, { label: 'API Keys', href: API_KEYS_PATH }, { label: 'Revoke key' }]} />
      <h1>Revoke the key “{apiKey.name}”?</h1>
      <div class="card">
        <dl class="facts">
          <dt>Prefix</dt>
          <dd>
            <code>{apiKey.prefix}…</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Moment at={apiKey.created_at} none="" />
          </dd>
          <dt>Last used</dt>
          <dd>
            <Moment at={apiKey.last_used_at} none="never" />
          </dd>
        </dl>
      </div>
      <p>Every program that uses this key is refused from the moment you revoke it. A revoked key cannot be used again.</p>
      <form method="post" action={revokeKeyPath(apiKey.id)} class="actions">
        <CsrfField token={csrf} />
        <button type="submit" class="button danger solid">
          Revoke key
        </button>
        <a href={API_KEYS_PATH}>Cancel</a>
      </form>
    </Layout>
  );
}
