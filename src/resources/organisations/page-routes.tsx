// The web pages of Account → Organisations. Here and not in accounts/pages: they use this module's
// actions and stores, and accounts sits a layer below resources. Each form is read as every page's form
// is (size, origin, CSRF token), counted as the API write it stands for, and carried out by the very
// functions of the API routes.
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError } from '../../core/domain-errors.js';
import { sessionPrincipal } from '../../core/principal.js';
import { ORGANISATIONS_PER_USER } from '../../access/organisation-roles.js';
import { errorCodes } from '../../http/problem.js';
import type { AccountDeps } from '../../accounts/deps.js';
import { csrfTokenFor } from '../../accounts/pages/csrf.js';
import { formCounter, tooManyRequests } from '../../accounts/pages/form-count.js';
import { formBodyLimit, readForm } from '../../accounts/pages/form-post.js';
import { parseForm, type FieldErrors } from '../../accounts/pages/forms.js';
import { ORGANISATIONS_PATH, organisationPath } from '../../accounts/pages/paths.js';
import { renderPage } from '../../accounts/pages/render.js';
import { renderError } from '../../accounts/pages/routes.js';
import { requireSignedIn, type PageEnv } from '../../accounts/pages/signed-in.js';
import { membersOf, openOrganisation, setMember, takeOutMember } from './actions.js';
import { OrganisationPage, OrganisationsPage, type OrganisationView, type OrganisationsView } from './pages.js';
import { memberGrantSchema, organisationInputSchema } from './schemas.js';
import { createOrganisation, listOrganisations } from './store.js';

// More members than a page lists at once; the page says when some are not shown.
const LISTED_MEMBERS = 200;

const fieldNames: Record<string, string> = { name: 'The name', email: 'The e-mail address', role: 'The role' };

/** The schemas' messages ("must be …") as sentences about their field. */
const inWords = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, `${fieldNames[field] ?? field} ${message}.`]));

type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: DomainError };

/** Carries out a change; a rule of the organisation it breaks comes back, to be shown on the page with its status. */
async function attempt<T>(change: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await change() };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, refusal: error };
    throw error;
  }
}

const statusOf = (error: DomainError) => errorCodes[error.code].status;

// The address of the member removed, by the rule an address is added by.
const removalForm = memberGrantSchema.pick({ email: true });

export function organisationPageRoutes(deps: AccountDeps) {
  const { config, database } = deps;
  const db = database.db;
  const app = new Hono<PageEnv>();
  app.onError(renderError);
  const signedIn = requireSignedIn(db);
  // After signing in again, a form post returns to the list of organisations, not to the post's address.
  const signedInForForms = requireSignedIn(db, ORGANISATIONS_PATH);
  const read = (c: Context<PageEnv>) => readForm(c, config.publicUrl, csrfTokenFor(c.var.account.sessionToken));
  const principalOf = (c: Context<PageEnv>) => sessionPrincipal(c.var.account.user.user_id);
  const count = formCounter(deps);
  /** Each form counts as the API write it stands for: what to say once past the limit. */
  async function overLimit(c: Context<PageEnv>): Promise<string | undefined> {
    const counted = await count(c.var.account.user.user_id, 'write');
    return counted.decision.allowed ? undefined : tooManyRequests(c, counted);
  }

  async function listView(c: Context<PageEnv>, status: ContentfulStatusCode, view: Pick<OrganisationsView, 'form' | 'left'>) {
    const { user, sessionToken } = c.var.account;
    // Everyone is in at most ORGANISATIONS_PER_USER: all of them fit on the page.
    const { data } = await listOrganisations(db, user.user_id, { limit: ORGANISATIONS_PER_USER, offset: 0 });
    return renderPage(c, status, <OrganisationsPage user={user} csrf={csrfTokenFor(sessionToken)} organisations={data} {...view} />);
  }

  async function organisationView(
    c: Context<PageEnv>,
    id: string,
    status: ContentfulStatusCode,
    view: Pick<OrganisationView, 'form' | 'changed'>,
  ) {
    const { user, sessionToken } = c.var.account;
    const organisation = await openOrganisation(db, principalOf(c), id);
    const { data, total } = await membersOf(db, principalOf(c), id, { limit: LISTED_MEMBERS, offset: 0 });
    return renderPage(
      c,
      status,
      <OrganisationPage user={user} csrf={csrfTokenFor(sessionToken)} organisation={organisation} members={data} total={total} {...view} />,
    );
  }

  const emptyMemberForm = { values: { email: '', role: 'member' }, errors: {} };
  /** The organisation's page again, saying `general` (a rule broken, the rate limit) with `status`. */
  const saying = (c: Context<PageEnv>, id: string, status: ContentfulStatusCode, general: string, values = emptyMemberForm.values) =>
    organisationView(c, id, status, { form: { values, errors: {}, general } });

  app.get(ORGANISATIONS_PATH, signedIn, (c) =>
    listView(c, 200, { form: { values: { name: '' }, errors: {} }, left: c.req.query('left') !== undefined }),
  );

  app.post(ORGANISATIONS_PATH, formBodyLimit, signedInForForms, async (c) => {
    const form = await read(c);
    const values = { name: form.name ?? '' };
    const limited = await overLimit(c);
    if (limited) return listView(c, 429, { form: { values, errors: {}, general: limited } });
    const parsed = parseForm(organisationInputSchema, form);
    if (!parsed.ok) return listView(c, 400, { form: { values, errors: inWords(parsed.errors) } });
    const created = await attempt(() => db.transaction((tx) => createOrganisation(tx, principalOf(c), parsed.value.name)));
    if (!created.ok) return listView(c, statusOf(created.refusal), { form: { values, errors: {}, general: created.refusal.detail } });
    return c.redirect(organisationPath(created.value.id), 303);
  });

  const organisationPattern = `${ORGANISATIONS_PATH}/:id` as const;

  app.get(organisationPattern, signedIn, (c) =>
    organisationView(c, c.req.param('id'), 200, { form: emptyMemberForm, changed: c.req.query('changed') !== undefined }),
  );

  // Adds a member or changes a role: the same request, as PUT …/members is on the API.
  app.post(`${organisationPattern}/members`, formBodyLimit, signedInForForms, async (c) => {
    const id = c.req.param('id');
    const form = await read(c);
    const values = { email: form.email ?? '', role: form.role ?? '' };
    const limited = await overLimit(c);
    if (limited) return saying(c, id, 429, limited, values);
    const parsed = parseForm(memberGrantSchema, form);
    if (!parsed.ok) return organisationView(c, id, 400, { form: { values, errors: inWords(parsed.errors) } });
    const changed = await attempt(() => setMember(db, principalOf(c), id, parsed.value.email, parsed.value.role));
    if (!changed.ok) return saying(c, id, statusOf(changed.refusal), changed.refusal.detail, values);
    return c.redirect(`${organisationPath(id)}?changed=1`, 303);
  });

  app.post(`${organisationPattern}/members/remove`, formBodyLimit, signedInForForms, async (c) => {
    const id = c.req.param('id');
    const form = await read(c);
    const limited = await overLimit(c);
    if (limited) return saying(c, id, 429, limited);
    const parsed = parseForm(removalForm, form);
    if (!parsed.ok) return organisationView(c, id, 400, { form: { ...emptyMemberForm, errors: inWords(parsed.errors) } });
    const removed = await attempt(() => takeOutMember(db, principalOf(c), id, parsed.value.email));
    if (!removed.ok) return saying(c, id, statusOf(removed.refusal), removed.refusal.detail);
    return c.redirect(`${organisationPath(id)}?changed=1`, 303);
  });

  app.post(`${organisationPattern}/leave`, formBodyLimit, signedInForForms, async (c) => {
    const id = c.req.param('id');
    await read(c);
    const limited = await overLimit(c);
    if (limited) return saying(c, id, 429, limited);
    const left = await attempt(() => takeOutMember(db, principalOf(c), id, c.var.account.user.email));
    if (!left.ok) return saying(c, id, statusOf(left.refusal), left.refusal.detail);
    return c.redirect(`${ORGANISATIONS_PATH}?left=1`, 303);
  });

  return app;
}
