// /account/developer-settings/api-keys: the new key (once), creating a key, the active keys,
// and the page that asks before a key is revoked.
import type { ApiKeyMetadata } from '../api-keys-store.js';
import type { User } from '../users-store.js';
import { Breadcrumb, CsrfField, ErrorSummary, Moment, TableHead, TextField } from './components.js';
import type { FieldErrors } from './forms.js';
import { EXPIRY_CHOICES } from './key-expiry.js';
import { FARM_FIELD_PREFIX, type FarmChoice, type KeyScopeValues } from './key-scope.js';
import { Layout } from './layout.js';
import type { NewKey } from './new-key-flash.js';
import { ACCOUNT_PATH, API_KEYS_PATH, DEVELOPER_SETTINGS_PATH, revokeKeyPath } from './paths.js';

const trail = [
  { label: 'Account', href: ACCOUNT_PATH },
  { label: 'Developer Settings', href: DEVELOPER_SETTINGS_PATH },
];

interface NewKeyFormValues extends KeyScopeValues {
  name: string;
  expiry: string;
  expires_on: string;
}

/** The farms a key may be limited to: the first of the person's, and how many they reach in all. */
export interface FarmChoices {
  data: FarmChoice[];
  total: number;
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
  farms: FarmChoices;
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
  farms: FarmChoices;
}

function AccessChoice({ values, errors }: { values: NewKeyFormValues; errors: FieldErrors }) {
  return (
    <fieldset class="field choices" id="access">
      <legend>What the key may do</legend>
      {errors.access && <span class="field-error">{errors.access}</span>}
      <label>
        <input type="radio" name="access" value="write" checked={values.access !== 'read'} /> Read and write: everything you may do
      </label>
      <label>
        <input type="radio" name="access" value="read" checked={values.access === 'read'} /> Read only: reads and calculations, no changes
      </label>
    </fieldset>
  );
}

function FarmsChoice({ values, errors, farms }: { values: NewKeyFormValues; errors: FieldErrors; farms: FarmChoices }) {
  const ticked = new Set(values.farms);
  return (
    <fieldset class="field choices" id="reach">
      <legend>Farms the key reaches</legend>
      <span class="hint">Never more than you reach yourself: a farm you lose, the key loses too.</span>
      {errors.reach && <span class="field-error">{errors.reach}</span>}
      <label>
        <input type="radio" name="reach" value="all" checked={values.reach !== 'some'} /> All your farms, now and later
      </label>
      <label>
        <input type="radio" name="reach" value="some" checked={values.reach === 'some'} /> Only the farms ticked below
      </label>
      {farms.data.length === 0 ? (
        <p class="aside">You have no farms yet.</p>
      ) : (
        <ul class="farm-choices">
          {farms.data.map((farm) => (
            <li>
              <label>
                <input type="checkbox" name={`${FARM_FIELD_PREFIX}${farm.b_id_farm}`} checked={ticked.has(farm.b_id_farm)} />{' '}
                {farm.b_name_farm} <code>{farm.b_id_farm}</code>
              </label>
            </li>
          ))}
        </ul>
      )}
      {farms.total > farms.data.length && (
        <p class="aside">{`The ${farms.data.length} oldest of your ${farms.total} farms are shown; to limit a key to others, create it through the API (POST /api/keys with farms).`}</p>
      )}
    </fieldset>
  );
}

function CreateKeyForm({ csrf, values, errors, general, today, farms }: CreateKeyFormProps) {
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
        <AccessChoice values={values} errors={errors} />
        <FarmsChoice values={values} errors={errors} farms={farms} />
        <button type="submit" class="button primary">
          Create key
        </button>
      </form>
    </section>
  );
}

const accessInWords = (access: ApiKeyMetadata['access']) => (access === 'read' ? 'Read only' : 'Read and write');

/** The farms of a key, by name where the person still reaches them. */
function KeyFarms({ farms, names }: { farms: string[] | null; names: Map<string, string> }) {
  if (farms === null) return <>All your farms</>;
  return (
    <ul class="key-farms">
      {farms.map((id) => (
        <li>{names.get(id) ?? <code>{id}</code>}</li>
      ))}
    </ul>
  );
}

function KeyTable({ keys, total, farms }: { keys: ApiKeyMetadata[]; total: number; farms: FarmChoices }) {
  const names = new Map(farms.data.map((farm) => [farm.b_id_farm, farm.b_name_farm]));
  if (keys.length === 0) return <p class="empty">You have no active keys.</p>;
  return (
    <>
      <div class="table-wrap">
        <table>
          <TableHead columns={['Prefix', 'Name', 'Created', 'Last used', 'Expires', 'Access', 'Farms']} last="Actions" />
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
                <td>{accessInWords(key.access)}</td>
                <td>
                  <KeyFarms farms={key.farms} names={names} />
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

export function ApiKeysPage({ user, csrf, keys, total, newKey, revoked, form, today, farms }: ApiKeysView) {
  return (
    <Layout title="API Keys" user={user} copyButton={newKey !== undefined}>
      <Breadcrumb trail={[...trail, { label: 'API Keys' }]} />
      <h1>API Keys</h1>
      <p class="lead">
        A key lets a program use the Akker API as you: it may read and change everything you may, or less: only read, only some farms.
      </p>
      {newKey && <NewKeyPanel newKey={newKey} />}
      {revoked && (
        <p class="notice" role="status">
          The key was revoked. Every request with it is refused from now on.
        </p>
      )}
      <CreateKeyForm csrf={csrf} values={form.values} errors={form.errors} general={form.general} today={today} farms={farms} />
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Active keys</h2>
        <KeyTable keys={keys} total={total} farms={farms} />
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
          <dt>Access</dt>
          <dd>{accessInWords(apiKey.access)}</dd>
          <dt>Farms</dt>
          <dd>{apiKey.farms === null ? 'All your farms' : `${apiKey.farms.length} of your farms`}</dd>
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
