-- The global access epoch of 0005 gives way to a version on each farm: a change of access to one farm no
-- longer makes every process forget what it knows of all the others, and the hot farm read finds its
-- answer in the farm's own row instead of reading a second table.
DROP TRIGGER "api_keys_access_epoch" ON "api_keys";--> statement-breakpoint
DROP TRIGGER "farm_access_access_epoch" ON "farm_access";--> statement-breakpoint
DROP FUNCTION "bump_access_epoch"();--> statement-breakpoint
DROP TABLE "access_epoch" CASCADE;--> statement-breakpoint
ALTER TABLE "farms" ADD COLUMN "access_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Moves the versions of the farms `ids` on. It runs in the transaction of the change, so a farm's new version
-- becomes visible together with the change; concurrent changes queue on the farm's row lock and each adds its
-- own step. The rows are locked in one order (by id) first, so that two changes touching the same farms
-- (two users' keys revoked at once, say) cannot deadlock.
CREATE FUNCTION "bump_farm_access_versions"("ids" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "farms" WHERE "b_id_farm" = ANY("ids") ORDER BY "b_id_farm" FOR NO KEY UPDATE;
  UPDATE "farms" SET "access_version" = "access_version" + 1 WHERE "b_id_farm" = ANY("ids");
END;
$$;--> statement-breakpoint
-- Roles: a change or a removal takes access away (a grant is an upsert, so a regrant counts as a change).
-- A plain insert, the owner's role on a new farm or a first grant, does not: a process sharing the server
-- never remembers that a user lacks a role.
CREATE FUNCTION "bump_farms_of_old_roles"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_farm_access_versions"(ARRAY(SELECT DISTINCT "b_id_farm" FROM "old_roles"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "farm_access_changed_version" AFTER UPDATE ON "farm_access"
  REFERENCING OLD TABLE AS "old_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_farms_of_old_roles"();--> statement-breakpoint
CREATE TRIGGER "farm_access_removed_version" AFTER DELETE ON "farm_access"
  REFERENCING OLD TABLE AS "old_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_farms_of_old_roles"();--> statement-breakpoint
-- Keys: revocation, expiry and deletion take access away from every farm of the key's user. A new key and
-- `last_used_at` do not, so neither creating keys nor using them moves any version.
CREATE FUNCTION "bump_farms_of_users"("users" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_farm_access_versions"(ARRAY(SELECT DISTINCT "b_id_farm" FROM "farm_access" WHERE "user_id" = ANY("users")));
END;
$$;--> statement-breakpoint
CREATE FUNCTION "bump_farms_of_changed_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_farms_of_users"(ARRAY[OLD."user_id", NEW."user_id"]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "api_keys_changed_version" AFTER UPDATE OF "revoked_at", "expires_at", "key_hash", "user_id" ON "api_keys"
  FOR EACH ROW WHEN (
    OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at"
    OR OLD."key_hash" IS DISTINCT FROM NEW."key_hash" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
  ) EXECUTE FUNCTION "bump_farms_of_changed_key"();--> statement-breakpoint
CREATE FUNCTION "bump_farms_of_old_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_farms_of_users"(ARRAY(SELECT "user_id" FROM "old_keys"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "api_keys_removed_version" AFTER DELETE ON "api_keys"
  REFERENCING OLD TABLE AS "old_keys" FOR EACH STATEMENT EXECUTE FUNCTION "bump_farms_of_old_keys"();--> statement-breakpoint
-- Emptying either table takes access away everywhere.
CREATE FUNCTION "bump_all_farms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "bump_farm_access_versions"(ARRAY(SELECT "b_id_farm" FROM "farms"));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "farm_access_truncated_version" AFTER TRUNCATE ON "farm_access" FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_farms"();--> statement-breakpoint
CREATE TRIGGER "api_keys_truncated_version" AFTER TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "bump_all_farms"();
