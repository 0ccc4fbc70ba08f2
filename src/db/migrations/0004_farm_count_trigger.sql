-- users.farm_count follows farm_access: one more for every role granted, one less for every role removed,
-- in the same transaction as the change, whatever code path makes it.
CREATE FUNCTION "farm_access_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "users" SET "farm_count" = "farm_count" + 1 WHERE "user_id" = NEW."user_id";
    RETURN NEW;
  END IF;
  UPDATE "users" SET "farm_count" = "farm_count" - 1 WHERE "user_id" = OLD."user_id";
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "farm_access_count" AFTER INSERT OR DELETE ON "farm_access" FOR EACH ROW EXECUTE FUNCTION "farm_access_count"();
--> statement-breakpoint
UPDATE "users" SET "farm_count" = (SELECT count(*) FROM "farm_access" WHERE "farm_access"."user_id" = "users"."user_id");
