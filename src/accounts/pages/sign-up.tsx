// /signup: name, e-mail address, password.
import type { Child } from 'hono/jsx';
import { CsrfField, EmailField, ErrorSummary, NewPasswordField, TextField } from './components.js';
import type { FieldErrors } from './forms.js';
import { Layout } from './layout.js';
import { SIGN_IN_PATH, SIGN_UP_PATH, withReturnTo } from './paths.js';

export interface SignUpView {
  csrf: string;
  returnTo: string;
  values: { name: string; email: string };
  errors: FieldErrors;
  general?: Child;
}

export function SignUpPage({ csrf, returnTo, values, errors, general }: SignUpView) {
  return (
    <Layout title="Create an account" signupOpen narrow>
      <div class="card">
        <h1>Create an account</h1>
        <ErrorSummary errors={errors} general={general} />
        <form method="post" action={SIGN_UP_PATH} novalidate>
          <CsrfField token={csrf} />
          <input type="hidden" name="next" value={returnTo} />
          <TextField name="name" label="Name" value={values.name} error={errors.name} autocomplete="name" maxlength={200} />
          <EmailField value={values.email} error={errors.email} autocomplete="email" />
          <NewPasswordField name="password" label="Password" error={errors.password} />
          <button type="submit" class="button primary">
            Create account
          </button>
        </form>
      </div>
      <p>
        Have an account already? <a href={withReturnTo(SIGN_IN_PATH, returnTo)}>Sign in</a>
      </p>
    </Layout>
  );
}
