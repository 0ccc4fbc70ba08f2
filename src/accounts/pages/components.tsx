// Small parts the pages share: breadcrumb, error summary, form fields, CSRF field, dates.
import type { Child } from 'hono/jsx';
import { PASSWORD_MIN_LENGTH } from '../passwords.js';
import { CSRF_FIELD } from './csrf.js';
import type { FieldErrors } from './forms.js';

interface Crumb {
  label: string;
  /** Left out for the page itself. */
  href?: string;
}

export function Breadcrumb({ trail }: { trail: Crumb[] }) {
  return (
    <nav class="breadcrumb" aria-label="Breadcrumb">
      <ol>
        {trail.map((crumb) => (
          <li>{crumb.href ? <a href={crumb.href}>{crumb.label}</a> : <span aria-current="page">{crumb.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

/** The problems of a form, above it; each links to its field. `general` is a problem of no one field. */
export function ErrorSummary({ errors, general }: { errors: FieldErrors; general?: Child }) {
  const fieldMessages = Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (fieldMessages.length === 0 && !general) return null;
  return (
    <div class="error-summary" role="alert">
      <h2>There is a problem</h2>
      <ul>
        {general && <li>{general}</li>}
        {fieldMessages.map(([field, message]) => (
          <li>
            <a href={`#${field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface TextFieldProps {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date';
  /** What the person typed; never given for a password. */
  value?: string;
  error?: string | undefined;
  hint?: string;
  autocomplete?: string;
  maxlength?: number;
  min?: string;
  required?: boolean;
}

export function TextField({
  name,
  label,
  type = 'text',
  value,
  error,
  hint,
  autocomplete,
  maxlength,
  min,
  required = true,
}: TextFieldProps) {
  const described = [hint && `${name}-hint`, error && `${name}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={name}>{label}</label>
      {hint && (
        <span class="hint" id={`${name}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span class="field-error" id={`${name}-error`}>
          {error}
        </span>
      )}
      <input
        type={type}
        id={name}
        name={name}
        value={type === 'password' ? undefined : value}
        autocomplete={autocomplete}
        maxlength={maxlength}
        min={min}
        required={required}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described}
      />
    </div>
  );
}

/** The e-mail address of the sign-in and sign-up forms; `autocomplete`: "username" to sign in, "email" to sign up. */
export const EmailField = ({ value, error, autocomplete }: { value: string; error: string | undefined; autocomplete: string }) => (
  <TextField name="email" label="E-mail address" type="email" value={value} error={error} autocomplete={autocomplete} maxlength={254} />
);

/** A password being chosen, with the rule it must meet. */
export const NewPasswordField = ({ name, label, error }: { name: string; label: string; error: string | undefined }) => (
  <TextField
    name={name}
    label={label}
    type="password"
    error={error}
    hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
    autocomplete="new-password"
  />
);

export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={token} />;

/** A moment to the minute, in UTC, for people; the exact time for machines. */
export function Moment({ at, none }: { at: string | null; none: string }) {
  if (at === null) return <span class="never">{none}</span>;
  return <time datetime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>;
}

/** The head of a table whose last column (its name read out, not shown) holds each row's buttons or marks. */
export const TableHead = ({ columns, last }: { columns: string[]; last: string }) => (
  <thead>
    <tr>
      {columns.map((column) => (
        <th scope="col">{column}</th>
      ))}
      <th scope="col">
        <span class="visually-hidden">{last}</span>
      </th>
    </tr>
  </thead>
);
