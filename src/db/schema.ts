// Every table of Akker. Column names are the API's native names where the
// specification has one (b_id_farm, b_name_farm, …); the rest are snake_case.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { keyAccesses } from '../core/principal.js';

const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow();
/**
 * When the record last changed: its creation time at first, then moved on by a trigger of migration 0007
 * on every update, at least a millisecond past the value it had, so that every change shows in the response.
 */
const updatedAt = () => timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    user_id: text('user_id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    password_hash: text('password_hash').notNull(),
    /**
     * Moves on, in the same transaction, with every change that can take away what the user reaches through
     * anything but a role of their own on one farm: a membership of an organisation changed or removed, an API
     * key revoked, deleted or given another expiry (the triggers of migration 0016). A remembered role holds
     * while both this and the farm's `access_version` are unchanged (access/access-memory.ts).
     */
    access_version: bigint('access_version', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

/** Browser sessions. Only a SHA-256 hash of the cookie value is stored; a row is the session. */
export const sessions = pgTable(
  'sessions',
  {
    session_hash: text('session_hash').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    /** Kept to the minute: written at most once a minute per session (accounts/users-store.ts). */
    last_used_at: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);

/** API keys. Only a SHA-256 hash of the raw key is stored; revoked keys keep their row. */
export const apiKeys = pgTable(
  'api_keys',
  {
    key_id: text('key_id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    key_hash: text('key_hash').notNull(),
    created_at: createdAt(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    /**
     * Until when the page that created the key may show it, once: cleared as the page shows it
     * (accounts/pages/new-key-flash.ts). Null for a key created through the API, or shown already.
     */
    reveal_until: timestamp('reveal_until', { withTimezone: true }),
    /** What the key may do, fixed at creation: `read` (reads and calculations) or `write` (all its owner may). */
    access: text('access', { enum: keyAccesses }).notNull().default('write'),
    /**
     * The only farms the key reaches (1–100), fixed at creation; null: every farm its owner reaches. An id
     * whose farm is deleted stays, reaching nothing: a key never gains a farm, and never becomes unlimited.
     */
    farms: text('farms').array(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.key_hash),
    index('api_keys_user_created_idx').on(t.user_id, t.created_at, t.key_id),
    check('api_keys_access_check', sql`${t.access} in ('read', 'write')`),
    check('api_keys_farms_check', sql`${t.farms} is null or cardinality(${t.farms}) between 1 and 100`),
  ],
);

export const farms = pgTable('farms', {
  b_id_farm: text('b_id_farm').primaryKey(),
  b_name_farm: text('b_name_farm').notNull(),
  b_businessid_farm: text('b_businessid_farm'),
  b_address_farm: text('b_address_farm'),
  b_postalcode_farm: text('b_postalcode_farm'),
  /**
   * Moves on, in the same transaction, with every change that can take access to the farm away (a role on it,
   * a person's or an organisation's, changed or removed), by the triggers of migrations 0006 and 0016; what
   * takes access away from one user everywhere moves `users.access_version`. A process may trust what it remembers about a key's role on
   * the farm for as long as a statement finds the version it read when it learned that (access/access-memory.ts).
   */
  access_version: bigint('access_version', { mode: 'bigint' })
    .notNull()
    .default(sql`0`),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const farmRoles = ['owner', 'advisor', 'researcher'] as const;
export type FarmRole = (typeof farmRoles)[number];

/**
 * Who may do what on a farm. `farm_created_at` repeats the farm's (immutable)
 * creation time so that a user's farm list is one index range scan in list order,
 * however many farms the user has.
 */
export const farmAccess = pgTable(
  'farm_access',
  {
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    user_id: text('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    role: text('role', { enum: farmRoles }).notNull(),
    farm_created_at: timestamp('farm_created_at', { withTimezone: true, precision: 6 }).notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.b_id_farm, t.user_id] }),
    index('farm_access_user_list_idx').on(t.user_id, t.farm_created_at, t.b_id_farm),
    check('farm_access_role_check', sql`${t.role} in ('owner', 'advisor', 'researcher')`),
  ],
);

/** How long a role or a membership given to an address nobody has signed up with waits for that sign-up. */
export const PENDING_DAYS = 30;

/**
 * A role on a farm given to an e-mail address nobody had signed up with: it becomes a row of farm_access at
 * that address's sign-up, if within `expires_at`; the sweeper removes it after.
 */
export const pendingFarmAccess = pgTable(
  'pending_farm_access',
  {
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    /** As given, trimmed; matched case-insensitively. */
    email: text('email').notNull(),
    role: text('role', { enum: farmRoles }).notNull(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('pending_farm_access_farm_email_key').on(t.b_id_farm, sql`lower(${t.email})`),
    index('pending_farm_access_email_idx').on(sql`lower(${t.email})`),
    index('pending_farm_access_expiry_idx').on(t.expires_at),
    check('pending_farm_access_role_check', sql`${t.role} in ('owner', 'advisor', 'researcher')`),
  ],
);

/** A group of users that farms are shared with as a whole (an advisory firm, a cooperative, a research group). */
export const organisations = pgTable('organisations', {
  organisation_id: text('organisation_id').primaryKey(),
  name: text('name').notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const organisationRoles = ['owner', 'admin', 'member'] as const;
export type OrganisationRole = (typeof organisationRoles)[number];

/** The roles a farm may give an organisation: its owners are people. */
export const organisationFarmRoles = ['advisor', 'researcher'] as const;
export type OrganisationFarmRole = (typeof organisationFarmRoles)[number];

export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisation_id: text('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    role: text('role', { enum: organisationRoles }).notNull(),
    created_at: createdAt(),
    /**
     * When the member first read the organisation themselves (or created it): until then the member list shows
     * no name, so that adding an address and reading the list tells no one whether it has an account.
     */
    joined_at: timestamp('joined_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organisation_id, t.user_id] }),
    index('organisation_members_user_idx').on(t.user_id, t.created_at, t.organisation_id),
    index('organisation_members_list_idx').on(t.organisation_id, t.created_at, t.user_id),
    check('organisation_members_role_check', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/** A membership given to an address nobody had signed up with: as pending_farm_access. */
export const pendingOrganisationMembers = pgTable(
  'pending_organisation_members',
  {
    organisation_id: text('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: organisationRoles }).notNull(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('pending_organisation_members_email_key').on(t.organisation_id, sql`lower(${t.email})`),
    index('pending_organisation_members_email_idx').on(sql`lower(${t.email})`),
    index('pending_organisation_members_expiry_idx').on(t.expires_at),
    check('pending_organisation_members_role_check', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/**
 * A farm shared with an organisation: every member acts on it with `role`. `farm_created_at` as in
 * farm_access, so that the farms of an organisation are one index range scan in list order.
 */
export const organisationFarmAccess = pgTable(
  'organisation_farm_access',
  {
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    organisation_id: text('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id, { onDelete: 'cascade' }),
    role: text('role', { enum: organisationFarmRoles }).notNull(),
    farm_created_at: timestamp('farm_created_at', { withTimezone: true, precision: 6 }).notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.b_id_farm, t.organisation_id] }),
    index('organisation_farm_access_list_idx').on(t.organisation_id, t.farm_created_at, t.b_id_farm),
    check('organisation_farm_access_role_check', sql`${t.role} in ('advisor', 'researcher')`),
  ],
);

/**
 * An organisation's trail: membership changes and sharing, who did them and when. It goes with the
 * organisation; entries hold identifiers and e-mail addresses only.
 */
export const organisationAudit = pgTable(
  'organisation_audit',
  {
    audit_id: text('audit_id').primaryKey(),
    organisation_id: text('organisation_id')
      .notNull()
      .references(() => organisations.organisation_id, { onDelete: 'cascade' }),
    user_id: text('user_id').notNull(),
    key_id: text('key_id'),
    action: text('action', { enum: ['create', 'update', 'grant', 'revoke'] }).notNull(),
    /** 'organisation', 'member' (resource_id: the e-mail address and role) or 'farm' (the farm's id and role). */
    resource_type: text('resource_type', { enum: ['organisation', 'member', 'farm'] }).notNull(),
    resource_id: text('resource_id').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('organisation_audit_list_idx').on(t.organisation_id, t.created_at, t.audit_id)],
);

/** The soil regions of the Dutch usage norms (grondsoort): clay, peat, loess, sand north/west/centre, sand south. */
export const soilRegions = ['klei', 'veen', 'loess', 'zand_nwc', 'zand_zuid'] as const;
export type SoilRegion = (typeof soilRegions)[number];

/**
 * A parcel of a farm. Acquiring (b_start, b_acquiring_method) and discarding (b_end) are columns of the field.
 * The soil region and the four area memberships are the field's location as the usage norms see it: the
 * client states them (the reference reads them from national maps at the centroid).
 */
export const fields = pgTable(
  'fields',
  {
    b_id: text('b_id').primaryKey(),
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    b_name: text('b_name').notNull(),
    /** The field's identifier in the system it came from (an RVO sector id); null when not stated. */
    b_id_source: text('b_id_source'),
    b_geometry: jsonb('b_geometry').$type<FieldGeometry>().notNull(),
    /** Hectares, geodesic, 2 decimals: computed from b_geometry on every write. */
    b_area: doublePrecision('b_area').notNull(),
    /** Area-weighted centroid [longitude, latitude]: computed from b_geometry on every write. */
    b_centroid: jsonb('b_centroid').$type<[number, number]>().notNull(),
    b_start: date('b_start').notNull(),
    b_end: date('b_end'),
    b_acquiring_method: text('b_acquiring_method').notNull(),
    b_bufferstrip: boolean('b_bufferstrip').notNull(),
    b_soil_region: text('b_soil_region', { enum: soilRegions }),
    b_in_nv_area: boolean('b_in_nv_area').notNull().default(false),
    b_in_gwbg: boolean('b_in_gwbg').notNull().default(false),
    b_in_natura2000: boolean('b_in_natura2000').notNull().default(false),
    b_in_derogation_free_zone: boolean('b_in_derogation_free_zone').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('fields_farm_list_idx').on(t.b_id_farm, t.created_at, t.b_id)],
);

/** A position [longitude, latitude]: validation admits two numbers, no altitude. */
export type Position = [number, number];
export type FieldGeometry = { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };

/** A crop grown on a field; starting and ending are columns of the cultivation. */
export const cultivations = pgTable(
  'cultivations',
  {
    b_lu: text('b_lu').primaryKey(),
    b_id: text('b_id')
      .notNull()
      .references(() => fields.b_id),
    b_lu_catalogue: text('b_lu_catalogue').notNull(),
    b_lu_start: date('b_lu_start').notNull(),
    b_lu_end: date('b_lu_end'),
    m_cropresidue: boolean('m_cropresidue'),
    b_lu_variety: text('b_lu_variety'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('cultivations_field_list_idx').on(t.b_id, t.created_at, t.b_lu)],
);

/**
 * A harvest with its one analysis: the measurements as sent (b_lu_yield_fresh … b_lu_cp) and the
 * two values the calculations use, b_lu_yield (kg DM/ha) and b_lu_n_harvestable (g N/kg DM), derived
 * from them at write time by the crop's harvest category.
 */
export const harvests = pgTable(
  'harvests',
  {
    b_id_harvesting: text('b_id_harvesting').primaryKey(),
    b_lu: text('b_lu')
      .notNull()
      .references(() => cultivations.b_lu),
    b_lu_harvest_date: date('b_lu_harvest_date').notNull(),
    b_lu_yield: doublePrecision('b_lu_yield'),
    b_lu_n_harvestable: doublePrecision('b_lu_n_harvestable'),
    b_lu_yield_fresh: doublePrecision('b_lu_yield_fresh'),
    b_lu_yield_bruto: doublePrecision('b_lu_yield_bruto'),
    b_lu_tarra: doublePrecision('b_lu_tarra'),
    b_lu_dm: doublePrecision('b_lu_dm'),
    b_lu_moist: doublePrecision('b_lu_moist'),
    b_lu_uww: doublePrecision('b_lu_uww'),
    b_lu_cp: doublePrecision('b_lu_cp'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('harvests_cultivation_list_idx').on(t.b_lu, t.created_at, t.b_id_harvesting)],
);

/** A soil analysis with its sampling (depth, date) on one field. */
export const soilAnalyses = pgTable(
  'soil_analyses',
  {
    a_id: text('a_id').primaryKey(),
    b_id: text('b_id')
      .notNull()
      .references(() => fields.b_id),
    a_date: date('a_date'),
    a_source: text('a_source').notNull(),
    a_depth_upper: doublePrecision('a_depth_upper').notNull(),
    a_depth_lower: doublePrecision('a_depth_lower'),
    b_sampling_date: date('b_sampling_date'),
    /** The measured parameters (a_*, b_soiltype_agr, b_gwl_class), validated against their ranges. */
    parameters: jsonb('parameters').$type<Record<string, number | string>>().notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('soil_analyses_field_list_idx').on(t.b_id, t.created_at, t.a_id)],
);

/** A catalogue fertilizer acquired by a farm (the farm's stock); applications point at it. */
export const farmFertilizers = pgTable(
  'farm_fertilizers',
  {
    p_id: text('p_id').primaryKey(),
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    p_source: text('p_source').notNull(),
    p_id_catalogue: text('p_id_catalogue').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('farm_fertilizers_farm_list_idx').on(t.b_id_farm, t.created_at, t.p_id)],
);

export const fertilizerApplications = pgTable(
  'fertilizer_applications',
  {
    p_app_id: text('p_app_id').primaryKey(),
    b_id: text('b_id')
      .notNull()
      .references(() => fields.b_id),
    p_id: text('p_id')
      .notNull()
      .references(() => farmFertilizers.p_id),
    /** kg/ha, converted from the amount as sent in the fertilizer's unit. */
    p_app_amount: doublePrecision('p_app_amount').notNull(),
    p_app_amount_display: doublePrecision('p_app_amount_display').notNull(),
    p_app_amount_unit: text('p_app_amount_unit').notNull(),
    p_app_method: text('p_app_method'),
    p_app_date: date('p_app_date').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('fertilizer_applications_field_list_idx').on(t.b_id, t.created_at, t.p_app_id),
    index('fertilizer_applications_fertilizer_idx').on(t.p_id),
  ],
);

/** The years in which a farm holds a derogation (derogatie), one row per year. */
export const derogations = pgTable(
  'derogations',
  {
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    b_derogation_year: integer('b_derogation_year').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.b_id_farm, t.b_derogation_year] })],
);

/** Whether a farm intends to graze its animals in a year; a year without a row counts as no. */
export const grazingIntentions = pgTable(
  'grazing_intentions',
  {
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    b_grazing_intention_year: integer('b_grazing_intention_year').notNull(),
    b_grazing_intention: boolean('b_grazing_intention').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.b_id_farm, t.b_grazing_intention_year] })],
);

/** An organic certification of a farm, valid from b_organic_issued to b_organic_expires (both inclusive). */
export const organicCertifications = pgTable(
  'organic_certifications',
  {
    b_id_organic: text('b_id_organic').primaryKey(),
    b_id_farm: text('b_id_farm')
      .notNull()
      .references(() => farms.b_id_farm),
    b_organic_traces: text('b_organic_traces'),
    b_organic_skal: text('b_organic_skal'),
    b_organic_issued: date('b_organic_issued').notNull(),
    b_organic_expires: date('b_organic_expires').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('organic_certifications_farm_list_idx').on(t.b_id_farm, t.created_at, t.b_id_organic)],
);

/**
 * Who changed what, and when. No foreign keys: entries outlive the resources they name,
 * and they hold identifiers only, never a deleted record's contents.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    audit_id: text('audit_id').primaryKey(),
    b_id_farm: text('b_id_farm').notNull(),
    user_id: text('user_id').notNull(),
    key_id: text('key_id'),
    action: text('action', { enum: ['create', 'update', 'delete', 'grant', 'revoke'] }).notNull(),
    resource_type: text('resource_type').notNull(),
    resource_id: text('resource_id').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('audit_log_farm_list_idx').on(t.b_id_farm, t.created_at, t.audit_id)],
);

/**
 * The change feed of each farm (GET /api/farms/{b_id_farm}/changes): one row per create, update and delete of a
 * farm's records, written by the triggers of migrations 0009 and 0013 in the transaction of the change. Every
 * trigger takes the farm's row lock before it numbers its entries, and holds it to the commit, so within one farm
 * the `position`s are in commit order. `change_id` only names the row.
 */
export const farmChanges = pgTable(
  'farm_changes',
  {
    change_id: bigint('change_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    b_id_farm: text('b_id_farm').notNull(),
    /** The entry's number in its farm's feed: 1, 2, 3, … in commit order, counted per farm (what a cursor names). */
    position: bigint('position', { mode: 'number' }).notNull(),
    action: text('action', { enum: ['create', 'update', 'delete'] }).notNull(),
    record_type: text('record_type').notNull(),
    record_id: text('record_id').notNull(),
    /** The record's updated_at after a create or update; the time of a delete. */
    updated_at: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull(),
    /** A delete's tombstone: the ids it removed, itself included, by record type. */
    removed: jsonb('removed').$type<Record<string, string[]>>(),
    /** A delete's parent record and transaction: a delete of the parent later in the same transaction takes the tombstone into its own. */
    parent_id: text('parent_id'),
    xact: bigint('xact', { mode: 'number' }),
    /** When the entry was written: what retention counts from. */
    changed_at: timestamp('changed_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('farm_changes_position_idx').on(t.b_id_farm, t.position),
    index('farm_changes_age_idx').on(t.changed_at),
    index('farm_changes_tombstone_parent_idx')
      .on(t.parent_id, t.xact)
      .where(sql`${t.action} = 'delete'`),
  ],
);

/** Per farm, the last position that retention pruned: a cursor before it has missed entries (410). */
export const farmChangeHorizons = pgTable('farm_change_horizons', {
  b_id_farm: text('b_id_farm').primaryKey(),
  pruned_through: bigint('pruned_through', { mode: 'number' }).notNull(),
});

/**
 * The Idempotency-Key of a user's POST and the response it got (docs/api.md, Idempotency). A row is
 * first a reservation (`status` null) taken before the work, then the response to replay. It expires
 * 24 h after `reserved_at`; the sweeper deletes it later. `fingerprint` is a SHA-256 of the method,
 * path and body; `reservation` is the random token of the request holding the row.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    idempotency_key: text('idempotency_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    reservation: text('reservation').notNull(),
    reserved_at: timestamp('reserved_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    status: integer('status'),
    content_type: text('content_type'),
    location: text('location'),
    etag: text('etag'),
    body: text('body'),
    /** The response body's size in UTF-8 bytes (null: none); with `body` null, the body was left out (over the user's budget). */
    body_bytes: integer('body_bytes'),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.idempotency_key] }),
    index('idempotency_keys_reserved_at_idx').on(t.reserved_at),
    // What a user's stored bodies add up to, read without the rows (idempotency/store.ts).
    index('idempotency_keys_stored_bodies_idx')
      .on(t.user_id, t.body_bytes)
      .where(sql`${t.body} is not null`),
  ],
);
