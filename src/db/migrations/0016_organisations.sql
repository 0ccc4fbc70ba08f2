CREATE TABLE "organisation_audit" (
	"audit_id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"key_id" text,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_farm_access" (
	"b_id_farm" text NOT NULL,
	"organisation_id" text NOT NULL,
	"role" text NOT NULL,
	"farm_created_at" timestamp (6) with time zone NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisation_farm_access_b_id_farm_organisation_id_pk" PRIMARY KEY("b_id_farm","organisation_id"),
	CONSTRAINT "organisation_farm_access_role_check" CHECK ("organisation_farm_access"."role" in ('advisor', 'researcher'))
);
--> statement-breakpoint
CREATE TABLE "organisation_members" (
	"organisation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"joined_at" timestamp with time zone,
	CONSTRAINT "organisation_members_organisation_id_user_id_pk" PRIMARY KEY("organisation_id","user_id"),
	CONSTRAINT "organisation_members_role_check" CHECK ("organisation_members"."role" in ('owner', 'admin', 'member'))
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"organisation_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_farm_access" (
	"b_id_farm" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pending_farm_access_role_check" CHECK ("pending_farm_access"."role" in ('owner', 'advisor', 'researcher'))
);
--> statement-breakpoint
CREATE TABLE "pending_organisation_members" (
	"organisation_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pending_organisation_members_role_check" CHECK ("pending_organisation_members"."role" in ('owner', 'admin', 'member'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "access_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_audit" ADD CONSTRAINT "organisation_audit_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_farm_access" ADD CONSTRAINT "organisation_farm_access_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_farm_access" ADD CONSTRAINT "organisation_farm_access_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_members" ADD CONSTRAINT "organisation_members_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_members" ADD CONSTRAINT "organisation_members_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_farm_access" ADD CONSTRAINT "pending_farm_access_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_organisation_members" ADD CONSTRAINT "pending_organisation_members_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organisation_audit_list_idx" ON "organisation_audit" USING btree ("organisation_id","created_at","audit_id");--> statement-breakpoint
CREATE INDEX "organisation_farm_access_list_idx" ON "organisation_farm_access" USING btree ("organisation_id","farm_created_at","b_id_farm");--> statement-breakpoint
CREATE INDEX "organisation_members_user_idx" ON "organisation_members" USING btree ("user_id","created_at","organisation_id");--> statement-breakpoint
CREATE INDEX "organisation_members_list_idx" ON "organisation_members" USING btree ("organisation_id","created_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_farm_access_farm_email_key" ON "pending_farm_access" USING btree ("b_id_farm",lower("email"));--> statement-breakpoint
CREATE INDEX "pending_farm_access_email_idx" ON "pending_farm_access" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "pending_farm_access_expiry_idx" ON "pending_farm_access" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_organisation_members_email_key" ON "pending_organisation_members" USING btree ("organisation_id",lower("email"));--> statement-breakpoint
CREATE INDEX "pending_organisation_members_email_idx" ON "pending_organisation_members" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "pending_organisation_members_expiry_idx" ON "pending_organisation_members" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "farm_count";--> statement-breakpoint
-- A farm list's total is counted now that farms come through organisations too (resources/farms/store.ts).
DROP TRIGGER "farm_access_count" ON "farm_access";--> statement-breakpoint
DROP FUNCTION "farm_access_count"();--> statement-breakpoint
-- Moves the versions of the users `ids` on, in the transaction of the change; the rows are locked in one order
-- first, so that two changes touching the same users cannot deadlock. What takes access away from a user on
-- many farms at once moves this one row instead of every farm's (docs/architecture.md, Access memory).
CREATE FUNCTION "bump_user_access_versions"("ids" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "users" WHERE "user_id" = ANY("ids") ORDER BY "user_id" FOR NO KEY UPDATE;
  UPDATE "users" SET "access_version" = "access_version" + 1 WHERE "user_id" = ANY("ids");
END;
$$;--> statement-breakpoint
-- Keys: revocation, expiry and deletion take access away from everything the key's user reaches, their own
-- roles and their organisations' alike: the user's version, in place of every farm's (0006).
CREATE OR REPLACE FUNCTION "bump_farms_of_changed_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_user_access_versions"(ARRAY[OLD."user_id", NEW."user_id"]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_farms_of_old_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_user_access_versions"(ARRAY(SELECT DISTINCT "user_id" FROM "old_keys"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
ALTER FUNCTION "bump_farms_of_changed_key"() RENAME TO "bump_user_of_changed_key";--> statement-breakpoint
ALTER FUNCTION "bump_farms_of_old_keys"() RENAME TO "bump_users_of_old_keys";--> statement-breakpoint
DROP FUNCTION "bump_farms_of_users"(text[]);--> statement-breakpoint
-- Emptying the keys takes access away from every user.
CREATE FUNCTION "bump_all_users"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_user_access_versions"(ARRAY(SELECT "user_id" FROM "users"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "api_keys_truncated_version" ON "api_keys";--> statement-breakpoint
CREATE TRIGGER "api_keys_truncated_version" AFTER TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_users"();--> statement-breakpoint
-- An organisation's role on a farm changed or removed: the farm's version, as for a person's role (0006).
-- A first share moves nothing: a process never remembers that a user lacks a role.
CREATE TRIGGER "organisation_farm_access_changed_version" AFTER UPDATE ON "organisation_farm_access"
  REFERENCING OLD TABLE AS "old_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_farms_of_old_roles"();--> statement-breakpoint
CREATE TRIGGER "organisation_farm_access_removed_version" AFTER DELETE ON "organisation_farm_access"
  REFERENCING OLD TABLE AS "old_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_farms_of_old_roles"();--> statement-breakpoint
CREATE TRIGGER "organisation_farm_access_truncated_version" AFTER TRUNCATE ON "organisation_farm_access"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_farms"();--> statement-breakpoint
-- A membership removed (the member leaving, removed, the organisation deleted) takes away every farm shared
-- with the organisation from that member alone: their version moves, one row however many farms. A change of
-- a member's organisation role changes no farm role and moves nothing; nor does a new member.
CREATE FUNCTION "bump_users_of_old_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_user_access_versions"(ARRAY(SELECT DISTINCT "user_id" FROM "old_members"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_members_removed_version" AFTER DELETE ON "organisation_members"
  REFERENCING OLD TABLE AS "old_members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_users_of_old_members"();--> statement-breakpoint
CREATE TRIGGER "organisation_members_truncated_version" AFTER TRUNCATE ON "organisation_members"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_users"();
--> statement-breakpoint
CREATE TRIGGER "organisations_updated_at" BEFORE UPDATE OF "name" ON "organisations" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
