// The web application: sign up, sign in, Account (password, sessions) → Developer Settings → API Keys.
// Plain HTML forms posted as application/x-www-form-urlencoded; every post is
// size-limited, origin-checked and CSRF-checked before a field is read.
import { Hono, type Context } from 'hono';
import { createApiKey, findActiveApiKey, keyCapMessage, listActiveApiKeys, revokeApiKey } from '../api-keys-store.js';
import type { AccountDeps } from '../deps.js';
import { changePasswordWith } from '../change-password.js';
import { endEverySession, endSession, secureCookies, sessionToken, signedInAs } from '../session-cookie.js';
import { signInWith } from '../sign-in.js';
import type { SignInThrottle } from '../sign-in-throttle.js';
import { signUpWith } from '../sign-up.js';
import { listLiveSessions } from '../users-store.js';
import { errorCodes, newErrorId } from '../../http/problem.js';
import { DomainError } from '../../core/domain-errors.js';
import { AccountPage, DeveloperSettingsPage, type AccountView } from './account.js';
import { ApiKeysPage, RevokeKeyPage, type ApiKeysView, type FarmChoices } from './api-keys.js';
import { farmGoneMessage, keyScopeOf, keyScopeValues } from './key-scope.js';
import { assetRoutes } from './assets.js';
import { csrfTokenFor, expectedVisitorToken, visitorFormToken } from './csrf.js';
import { formCounter, minutesInWords, tooManyRequests } from './form-count.js';
import { formBodyLimit, readForm } from './form-post.js';
import { changePasswordForm, newKeyForm, parseForm, signInForm, signUpForm } from './forms.js';
import { expiryOf, isoDay } from './key-expiry.js';
import { MessagePage } from './message-page.js';
import { holdNewKey, takeNewKey } from './new-key-flash.js';
import { PageError, pageNotFound } from './page-error.js';
import {
  ACCOUNT_PATH,
  API_KEYS_PATH,
  DEVELOPER_SETTINGS_PATH,
  PASSWORD_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_EVERYWHERE_PATH,
  SIGN_OUT_PATH,
  SIGN_UP_PATH,
  safeReturnPath,
} from './paths.js';
import { renderPage } from './render.js';
import { requireSignedIn, type PageEnv } from './signed-in.js';
import { SignInPage, type SignInView } from './sign-in.js';
import { SignUpPage, type SignUpView } from './sign-up.js';

// More keys than anyone keeps by hand; the page says when some are not shown.
const LISTED_KEYS = 200;
// The farms offered to limit a key to; the page says when some are not shown, and the API takes any.
const LISTED_FARMS = 200;
// More sessions than anyone keeps by hand; the page says when some are not shown.
const LISTED_SESSIONS = 50;

const signUpClosed = () =>
  new PageError(404, 'Sign-up is closed', 'New accounts cannot be made on this server. Ask the people who run it for an account.');

const keyGone = () => pageNotFound('This key does not exist, or it was revoked already.');

/** Sets Retry-After for a throttled sign-up or sign-in and says, for people, how long to wait. */
function waitFor(c: Context, retryAfterSeconds: number): string {
  c.header('retry-after', String(retryAfterSeconds));
  return minutesInWords(retryAfterSeconds);
}

export const notFoundPage = (c: Context) =>
  renderPage(c, 404, <MessagePage title="Page not found" explanation="There is no page at this address." />);

/** The page of an error a page's route threw: a PageError or a DomainError in its words, any other as a 500 with a reference. */
export function renderError(error: Error, c: Context) {
  if (error instanceof PageError) return renderPage(c, error.status, <MessagePage title={error.title} explanation={error.explanation} />);
  if (error instanceof DomainError) {
    const { status, title } = errorCodes[error.code];
    return renderPage(c, status, <MessagePage title={title} explanation={error.detail} />);
  }
  const errorId = newErrorId();
  console.error(
    JSON.stringify({ level: 'error', error_id: errorId, method: c.req.method, path: c.req.path, error: error.stack ?? String(error) }),
  );
  return renderPage(
    c,
    500,
    <MessagePage
      title="Something went wrong"
      explanation="The page could not be shown. Try again in a moment; if it keeps failing, quote the reference below."
      errorId={errorId}
    />,
  );
}

/** The farms the user reaches that a key may be limited to: the first `limit`, and how many in all. */
export type FarmChoicesOf = (userId: string, limit: number) => Promise<FarmChoices>;

export function pageRoutes(deps: AccountDeps, signInThrottle: SignInThrottle, farmChoicesOf: FarmChoicesOf) {
  const { config, database } = deps;
  const db = database.db;
  const signUp = signUpWith(deps);
  const signIn = signInWith(deps, signInThrottle);
  const changePassword = changePasswordWith(deps, signInThrottle);
  // The key forms count like their API twins: key management, in the general window of the user.
  const count = formCounter(deps);
  const countKeyManagement = (userId: string) => count(userId, 'general');
  const secure = secureCookies(config);
  const signupOpen = config.signup === 'open';
  const app = new Hono<PageEnv>();
  app.onError(renderError);
  app.route('/', assetRoutes());

  const read = (c: Context, expectedToken: string | undefined) => readForm(c, config.publicUrl, expectedToken);
  const signedIn = requireSignedIn(db);
  // After signing in again, a form post of the API Keys pages returns to that page, not to the post's address.
  const signedInForKeys = requireSignedIn(db, API_KEYS_PATH);
  const signedInForAccount = requireSignedIn(db, ACCOUNT_PATH);

  app.get('/', async (c) => c.redirect((await signedInAs(c, db)) ? ACCOUNT_PATH : SIGN_IN_PATH));

  const signUpView = (c: Context, status: 200 | 400 | 409 | 429, view: Omit<SignUpView, 'csrf'>) =>
    renderPage(c, status, <SignUpPage csrf={visitorFormToken(c, secure)} {...view} />);

  app.get(SIGN_UP_PATH, async (c) => {
    if (!signupOpen) throw signUpClosed();
    const returnTo = safeReturnPath(c.req.query('next'));
    if (await signedInAs(c, db)) return c.redirect(returnTo);
    return signUpView(c, 200, { returnTo, values: { name: '', email: '' }, errors: {} });
  });

  app.post(SIGN_UP_PATH, formBodyLimit, async (c) => {
    if (!signupOpen) throw signUpClosed();
    const form = await read(c, expectedVisitorToken(c, secure));
    const returnTo = safeReturnPath(form.next);
    const values = { name: form.name ?? '', email: form.email ?? '' };
    const parsed = parseForm(signUpForm, form);
    if (!parsed.ok) return signUpView(c, 400, { returnTo, values, errors: parsed.errors });
    const outcome = await signUp(c, parsed.value);
    switch (outcome.kind) {
      case 'closed':
        throw signUpClosed();
      case 'throttled': {
        const wait = waitFor(c, outcome.retryAfterSeconds);
        const general = `Too many accounts were made from your network in the last hour. Wait ${wait} and try again.`;
        return signUpView(c, 429, { returnTo, values, errors: {}, general });
      }
      case 'taken':
        return signUpView(c, 409, {
          returnTo,
          values,
          errors: { email: 'An account with this e-mail address exists already: sign in, or use another address.' },
        });
      case 'signed-up':
        return c.redirect(returnTo, 303);
    }
  });

  const signInView = (c: Context, status: 200 | 400 | 401 | 429, view: Omit<SignInView, 'csrf' | 'signupOpen'>) =>
    renderPage(c, status, <SignInPage csrf={visitorFormToken(c, secure)} signupOpen={signupOpen} {...view} />);

  app.get(SIGN_IN_PATH, async (c) => {
    const returnTo = safeReturnPath(c.req.query('next'));
    if (await signedInAs(c, db)) return c.redirect(returnTo);
    return signInView(c, 200, { returnTo, email: '', errors: {} });
  });

  app.post(SIGN_IN_PATH, formBodyLimit, async (c) => {
    const form = await read(c, expectedVisitorToken(c, secure));
    const returnTo = safeReturnPath(form.next);
    const email = form.email ?? '';
    const parsed = parseForm(signInForm, form);
    if (!parsed.ok) return signInView(c, 400, { returnTo, email, errors: parsed.errors });
    const outcome = await signIn(c, parsed.value);
    switch (outcome.kind) {
      case 'throttled': {
        const general = `Too many sign-in attempts failed. Wait ${waitFor(c, outcome.retryAfterSeconds)} and try again.`;
        return signInView(c, 429, { returnTo, email, errors: {}, general });
      }
      case 'refused':
        return signInView(c, 401, { returnTo, email, errors: {}, general: 'The e-mail address or the password is wrong.' });
      case 'signed-in':
        return c.redirect(returnTo, 303);
    }
  });

  app.post(SIGN_OUT_PATH, formBodyLimit, async (c) => {
    const token = sessionToken(c);
    if (token !== undefined) {
      await read(c, csrfTokenFor(token));
      await endSession(c, db, config);
    }
    return c.redirect(SIGN_IN_PATH, 303);
  });

  async function accountView(c: Context<PageEnv>, status: 200 | 400 | 403 | 429, view: Pick<AccountView, 'password' | 'passwordChanged'>) {
    const { user, sessionToken: token } = c.var.account;
    const { data, total } = await listLiveSessions(db, user.user_id, token, LISTED_SESSIONS);
    return renderPage(c, status, <AccountPage user={user} csrf={csrfTokenFor(token)} sessions={data} totalSessions={total} {...view} />);
  }

  app.get(ACCOUNT_PATH, signedIn, (c) =>
    accountView(c, 200, { password: { errors: {} }, passwordChanged: c.req.query('password-changed') !== undefined }),
  );

  app.post(PASSWORD_PATH, formBodyLimit, signedInForAccount, async (c) => {
    const account = c.var.account;
    const form = await read(c, csrfTokenFor(account.sessionToken));
    const parsed = parseForm(changePasswordForm, form);
    if (!parsed.ok) return accountView(c, 400, { password: { errors: parsed.errors } });
    const outcome = await changePassword(c, account, { current: parsed.value.current_password, replacement: parsed.value.new_password });
    switch (outcome.kind) {
      case 'throttled': {
        const general = `Too many password attempts failed. Wait ${waitFor(c, outcome.retryAfterSeconds)} and try again.`;
        return accountView(c, 429, { password: { errors: {}, general } });
      }
      case 'refused':
        return accountView(c, 403, { password: { errors: { current_password: 'This is not your current password.' } } });
      case 'changed':
        // The response carries the new session's cookie; the page after it says what happened.
        return c.redirect(`${ACCOUNT_PATH}?password-changed=1`, 303);
    }
  });

  app.post(SIGN_OUT_EVERYWHERE_PATH, formBodyLimit, signedInForAccount, async (c) => {
    const { user, sessionToken: token } = c.var.account;
    await read(c, csrfTokenFor(token));
    await endEverySession(c, db, config, user.user_id);
    const explanation = 'Every session of your account has ended, in this browser and on every other device. Sign in again to go on.';
    return renderPage(c, 200, <MessagePage title="Signed out everywhere" explanation={explanation} />);
  });

  app.get(DEVELOPER_SETTINGS_PATH, signedIn, (c) => renderPage(c, 200, <DeveloperSettingsPage user={c.var.account.user} />));

  async function apiKeysView(
    c: Context<PageEnv>,
    status: 200 | 400 | 409 | 422 | 429,
    view: Pick<ApiKeysView, 'form' | 'newKey' | 'revoked'>,
  ) {
    const { user, sessionToken: token } = c.var.account;
    const [{ data, total }, farms] = await Promise.all([
      listActiveApiKeys(db, user.user_id, LISTED_KEYS, 0),
      farmChoicesOf(user.user_id, LISTED_FARMS),
    ]);
    const today = isoDay(new Date());
    return renderPage(
      c,
      status,
      <ApiKeysPage user={user} csrf={csrfTokenFor(token)} keys={data} total={total} today={today} farms={farms} {...view} />,
    );
  }

  app.get(API_KEYS_PATH, signedIn, async (c) =>
    apiKeysView(c, 200, {
      form: { values: { name: '', expiry: 'never', expires_on: '', access: 'write', reach: 'all', farms: [] }, errors: {} },
      newKey: await takeNewKey(c, db, c.var.account, secure),
      revoked: c.req.query('revoked') !== undefined,
    }),
  );

  app.post(API_KEYS_PATH, formBodyLimit, signedInForKeys, async (c) => {
    const { user, sessionToken: token } = c.var.account;
    const form = await read(c, csrfTokenFor(token));
    const values = { name: form.name ?? '', expiry: form.expiry ?? 'never', expires_on: form.expires_on ?? '', ...keyScopeValues(form) };
    const counted = await countKeyManagement(user.user_id);
    if (!counted.decision.allowed) return apiKeysView(c, 429, { form: { values, errors: {}, general: tooManyRequests(c, counted) } });
    const parsed = parseForm(newKeyForm, form);
    const expiry = expiryOf(values.expiry, values.expires_on, new Date());
    const scope = keyScopeOf(values);
    if (!parsed.ok || !expiry.ok || !scope.ok) {
      const errors = {
        ...(parsed.ok ? {} : parsed.errors),
        ...(expiry.ok ? {} : { [expiry.field]: expiry.message }),
        ...(scope.ok ? {} : { [scope.field]: scope.message }),
      };
      return apiKeysView(c, 400, { form: { values, errors } });
    }
    const newKey = { name: parsed.value.name, expiresAt: expiry.expiresAt, scope: scope.scope };
    const outcome = await createApiKey(db, user.user_id, newKey, config.maxKeysPerUser);
    if (outcome.kind === 'farms-not-reached') return apiKeysView(c, 422, { form: { values, errors: { reach: farmGoneMessage } } });
    if (outcome.kind === 'at-cap')
      return apiKeysView(c, 409, { form: { values, errors: {}, general: keyCapMessage(config.maxKeysPerUser) } });
    const created = outcome.key;
    await holdNewKey(c, db, token, secure, { id: created.id, name: created.name, key: created.key });
    return c.redirect(API_KEYS_PATH, 303);
  });

  const revokePath = `${API_KEYS_PATH}/:id/revoke`;

  app.get(revokePath, signedIn, async (c) => {
    const { user, sessionToken: token } = c.var.account;
    const apiKey = await findActiveApiKey(db, user.user_id, c.req.param('id'));
    if (!apiKey) throw keyGone();
    return renderPage(c, 200, <RevokeKeyPage user={user} csrf={csrfTokenFor(token)} apiKey={apiKey} />);
  });

  app.post(revokePath, formBodyLimit, signedInForKeys, async (c) => {
    const { user, sessionToken: token } = c.var.account;
    await read(c, csrfTokenFor(token));
    const counted = await countKeyManagement(user.user_id);
    if (!counted.decision.allowed) {
      return renderPage(c, 429, <MessagePage title="Too many requests" explanation={tooManyRequests(c, counted)} />);
    }
    const keyId = c.req.param('id');
    if (!(await revokeApiKey(db, user.user_id, keyId))) throw keyGone();
    return c.redirect(`${API_KEYS_PATH}?revoked=1`, 303);
  });

  return app;
}
