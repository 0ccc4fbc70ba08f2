// The addresses of the web pages, and where a person may be sent back to after signing in.
export const SIGN_UP_PATH = '/signup';
export const SIGN_IN_PATH = '/signin';
export const SIGN_OUT_PATH = '/signout';
export const ACCOUNT_PATH = '/account';
export const PASSWORD_PATH = '/account/password';
export const SIGN_OUT_EVERYWHERE_PATH = '/account/sign-out-everywhere';
export const DEVELOPER_SETTINGS_PATH = '/account/developer-settings';
export const API_KEYS_PATH = '/account/developer-settings/api-keys';
export const ORGANISATIONS_PATH = '/account/organisations';

export const revokeKeyPath = (keyId: string) => `${API_KEYS_PATH}/${encodeURIComponent(keyId)}/revoke`;
export const organisationPath = (organisationId: string) => `${ORGANISATIONS_PATH}/${encodeURIComponent(organisationId)}`;

// Only our own account pages: a `next` pointing anywhere else (another site, `//host`) is ignored.
const RETURN_PATH = /^\/account(\/[A-Za-z0-9_-]+)*$/;

export const safeReturnPath = (value: unknown): string => (typeof value === 'string' && RETURN_PATH.test(value) ? value : ACCOUNT_PATH);

/** The sign-in or sign-up page, remembering where to go afterwards. */
export const withReturnTo = (path: typeof SIGN_IN_PATH | typeof SIGN_UP_PATH, returnTo: string) =>
  returnTo === ACCOUNT_PATH ? path : `${path}?next=${encodeURIComponent(returnTo)}`;
