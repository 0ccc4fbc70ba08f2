// /signin: e-mail address and password.
import type { Child } from 'hono/jsx';
import { CsrfField, EmailField, ErrorSummary, TextField } from './components.js';
import type { FieldErrors } from './forms.js';
import { Layout } from './layout.js';
import { SIGN_IN_PATH, SIGN_UP_PATH, withReturnTo } from './paths.js';

export interface SignInView {
  csrf: string;
  returnTo: string;
  email: string;
  signupOpen: boolean;
  errors: FieldErrors;
  general?: Child;
}

export function SignInPage({ csrf, returnTo, email, signupOpen, errors, general }: SignInView) {
  return (
    <Layout title="Sign in" signupOpen={signupOpen} narrow>
      <div class="card">
        <h1>Sign in</h1>
        <ErrorSummary errors={errors} general={general} />
        <form method="post" action={SIGN_IN_PATH} novalidate>
          <CsrfField token={csrf} />
          <input type="hidden" name="next" value={returnTo} />
          <EmailField value={email} error={errors.email} autocomplete="username" />
          <TextField name="password" label="Password" type="password" error={errors.password} autocomplete="current-password" />
          <button type="submit" class="button primary">
            Sign in
          </button>
        </form>
      </div>
      {signupOpen && (
        <p>
          New to Akker? <a href={withReturnTo(SIGN_UP_PATH, returnTo)}>Create an account</a>
        </p>
      )}
    </Layout>
  );
}
