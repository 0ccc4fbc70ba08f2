CREATE TABLE "access_epoch" (
	"value" bigint NOT NULL
);
--> statement-breakpoint
-- Exactly one row: a unique index on a constant admits no second one.
CREATE UNIQUE INDEX "access_epoch_one_row" ON "access_epoch" ((true));
--> statement-breakpoint
INSERT INTO "access_epoch" ("value") VALUES (1);
--> statement-breakpoint
-- Moves the counter on. It runs in the transaction of the change, so the new value becomes visible together
-- with the change; concurrent changes queue on the row lock and each adds its own step.
CREATE FUNCTION "bump_access_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_epoch" SET "value" = "value" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Keys: revocation, expiry and deletion take access away. A new key and `last_used_at` do not, so that
-- neither creating keys nor using them moves the counter.
CREATE TRIGGER "api_keys_access_epoch" AFTER UPDATE OF "revoked_at", "expires_at", "key_hash", "user_id" OR DELETE OR TRUNCATE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
-- Roles: a change or a removal takes access away (a grant is an upsert, so it counts as a change too).
-- A plain insert, the owner's role on a new farm, does not: a process sharing the server never remembers
-- that a user lacks a role.
CREATE TRIGGER "farm_access_access_epoch" AFTER UPDATE OR DELETE OR TRUNCATE ON "farm_access"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_access_epoch"();
