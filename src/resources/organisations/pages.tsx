// Account → Organisations: the organisations a person is in and the form to create one; one organisation
// with its members, the forms to add one, change a role, remove one, and to leave.
import { holds } from '../../access/organisation-roles.js';
import { organisationRoles, PENDING_DAYS, type OrganisationRole } from '../../db/schema.js';
import type { User } from '../../accounts/users-store.js';
import { Breadcrumb, CsrfField, ErrorSummary, Moment, TableHead, TextField } from '../../accounts/pages/components.js';
import type { FieldErrors } from '../../accounts/pages/forms.js';
import { Layout } from '../../accounts/pages/layout.js';
import { ACCOUNT_PATH, ORGANISATIONS_PATH, organisationPath } from '../../accounts/pages/paths.js';
import type { Member, Organisation } from './schemas.js';

const accountCrumb = { label: 'Account', href: ACCOUNT_PATH };

export const membersPath = (organisationId: string) => `${organisationPath(organisationId)}/members`;
export const removeMemberPath = (organisationId: string) => `${membersPath(organisationId)}/remove`;
export const leavePath = (organisationId: string) => `${organisationPath(organisationId)}/leave`;

/** A form's problems: by field, and `general` for a rule of the organisation the request broke. */
export interface FormState<V> {
  values: V;
  errors: FieldErrors;
  general?: string;
}

export interface OrganisationsView {
  user: User;
  csrf: string;
  organisations: Organisation[];
  form: FormState<{ name: string }>;
  left?: boolean;
}

export function OrganisationsPage({ user, csrf, organisations, form, left }: OrganisationsView) {
  return (
    <Layout title="Organisations" user={user}>
      <Breadcrumb trail={[accountCrumb, { label: 'Organisations' }]} />
      <h1>Organisations</h1>
      <p class="lead">
        An organisation is a group of people that farms can be shared with as a whole: an advisory firm, a cooperative, a research group.
      </p>
      {left && (
        <p class="notice" role="status">
          You left the organisation. Its farms are no longer shared with you through it.
        </p>
      )}
      <section class="card" aria-labelledby="organisations-title">
        <h2 id="organisations-title">Your organisations</h2>
        {organisations.length === 0 ? (
          <p class="empty">You are not a member of any organisation yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Your role</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {organisations.map((organisation) => (
                  <tr>
                    <td class="name">
                      <a href={organisationPath(organisation.id)}>{organisation.name}</a>
                    </td>
                    <td>{organisation.role}</td>
                    <td>
                      <Moment at={organisation.created_at} none="" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Create an organisation</h2>
        <ErrorSummary errors={form.errors} general={form.general} />
        <form method="post" action={ORGANISATIONS_PATH} novalidate>
          <CsrfField token={csrf} />
          <TextField
            name="name"
            label="Name"
            value={form.values.name}
            error={form.errors.name}
            hint="You become its owner."
            maxlength={200}
          />
          <button type="submit" class="button primary">
            Create organisation
          </button>
        </form>
      </section>
    </Layout>
  );
}

function RoleSelect({ id, label, selected }: { id: string; label?: string; selected: OrganisationRole }) {
  return (
    <select id={id} name="role" aria-label={label}>
      {organisationRoles.map((role) => (
        <option value={role} selected={role === selected}>
          {role}
        </option>
      ))}
    </select>
  );
}

interface MemberRowProps {
  csrf: string;
  organisationId: string;
  member: Member;
  you: boolean;
  manages: boolean;
}

function MemberRow({ csrf, organisationId, member, you, manages }: MemberRowProps) {
  return (
    <tr>
      <td class="name">{member.email}</td>
      <td>{member.name ?? <span class="never">not shown yet</span>}</td>
      <td>
        {manages ? (
          <form method="post" action={membersPath(organisationId)} class="inline">
            <CsrfField token={csrf} />
            <input type="hidden" name="email" value={member.email} />
            <RoleSelect id={`role-of-${member.email}`} label={`Role of ${member.email}`} selected={member.role} />
            <button type="submit" class="button small" aria-label={`Change the role of ${member.email}`}>
              Change
            </button>
          </form>
        ) : (
          member.role
        )}
      </td>
      <td>
        <Moment at={member.created_at} none="" />
      </td>
      <td>
        {you ? (
          <strong>You</strong>
        ) : (
          manages && (
            <form method="post" action={removeMemberPath(organisationId)} class="inline">
              <CsrfField token={csrf} />
              <input type="hidden" name="email" value={member.email} />
              <button type="submit" class="button danger small" aria-label={`Remove ${member.email}`}>
                Remove
              </button>
            </form>
          )
        )}
      </td>
    </tr>
  );
}

export interface OrganisationView {
  user: User;
  csrf: string;
  organisation: Organisation;
  members: Member[];
  /** All members, of which `members` are the first. */
  total: number;
  form: FormState<{ email: string; role: string }>;
  changed?: boolean;
}

export function OrganisationPage({ user, csrf, organisation, members, total, form, changed }: OrganisationView) {
  const manages = holds(organisation.role, 'admin');
  const you = user.email.toLowerCase();
  return (
    <Layout title={organisation.name} user={user}>
      <Breadcrumb trail={[accountCrumb, { label: 'Organisations', href: ORGANISATIONS_PATH }, { label: organisation.name }]} />
      <h1>{organisation.name}</h1>
      <p class="lead">{`Your role: ${organisation.role}.`}</p>
      <ErrorSummary errors={form.errors} general={form.general} />
      {changed && (
        <p class="notice" role="status">
          The members were changed. It counts from the very next request.
        </p>
      )}
      <section class="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <div class="table-wrap">
          <table>
            <TableHead columns={['E-mail address', 'Name', 'Role', 'Added']} last="Actions" />
            <tbody>
              {members.map((member) => (
                <MemberRow
                  csrf={csrf}
                  organisationId={organisation.id}
                  member={member}
                  you={member.email.toLowerCase() === you}
                  manages={manages}
                />
              ))}
            </tbody>
          </table>
        </div>
        {total > members.length && <p class="aside">{`The first ${members.length} of its ${total} members are shown.`}</p>}
        <p class="aside">
          {`A member’s name shows once they have opened the organisation. An address nobody has signed up with is listed too: it becomes a member at its sign-up, within ${PENDING_DAYS} days.`}
        </p>
      </section>
      {manages ? (
        <section class="card" aria-labelledby="add-title">
          <h2 id="add-title">Add a member</h2>
          <form method="post" action={membersPath(organisation.id)} novalidate>
            <CsrfField token={csrf} />
            <div class="form-row">
              <TextField
                name="email"
                label="E-mail address"
                type="email"
                value={form.values.email}
                error={form.errors.email}
                maxlength={254}
              />
              <div class="field">
                <label for="role">Role</label>
                {form.errors.role && <span class="field-error">{form.errors.role}</span>}
                <RoleSelect id="role" selected={organisationRoles.find((role) => role === form.values.role) ?? 'member'} />
              </div>
            </div>
            <p class="aside">Admins add and remove admins and members; only owners add, change and remove owners.</p>
            <button type="submit" class="button primary">
              Add member
            </button>
          </form>
        </section>
      ) : (
        <p class="aside">Owners and admins add and remove members.</p>
      )}
      <form method="post" action={leavePath(organisation.id)} class="actions">
        <CsrfField token={csrf} />
        <button type="submit" class="button danger">
          Leave organisation
        </button>
      </form>
    </Layout>
  );
}
