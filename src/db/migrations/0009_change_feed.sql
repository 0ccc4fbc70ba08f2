CREATE TABLE "farm_change_horizons" (
	"b_id_farm" text PRIMARY KEY NOT NULL,
	"pruned_through" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm_changes" (
	"change_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "farm_changes_change_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"b_id_farm" text NOT NULL,
	"action" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL,
	"removed" jsonb,
	"parent_id" text,
	"xact" bigint,
	"changed_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "farm_changes_feed_idx" ON "farm_changes" USING btree ("b_id_farm","change_id");--> statement-breakpoint
CREATE INDEX "farm_changes_age_idx" ON "farm_changes" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "farm_changes_tombstone_parent_idx" ON "farm_changes" USING btree ("parent_id","xact") WHERE "farm_changes"."action" = 'delete';
--> statement-breakpoint
-- The change feed is written here, by triggers, so that one rule holds for every write path: the API's writes,
-- the cascades of deletes, whatever comes later. Commit order: each function below locks the farms' rows
-- (FOR NO KEY UPDATE, in id order, as the access-version triggers do) before its insert takes change_ids from
-- the sequence, and the lock is held to the commit. So of two transactions writing to one farm, the later one
-- takes its change_ids only after the earlier one committed: within a farm, change_id order is commit order. (A
-- sequence value alone would not do: one taken first can become visible after a larger one.) The API's writes
-- hold that lock already (access/audited-write.ts), and a new farm's row is seen by nobody else before its
-- commit; taking the lock here again costs little and keeps the rule true whoever writes.
CREATE FUNCTION "record_changes"("change_action" text, "change_type" text, "farm_ids" text[], "record_ids" text[], "record_times" timestamptz[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality("record_ids"), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "farms" WHERE "b_id_farm" = ANY("farm_ids") ORDER BY "b_id_farm" FOR NO KEY UPDATE;
  INSERT INTO "farm_changes" ("b_id_farm", "action", "record_type", "record_id", "updated_at")
    SELECT "c"."farm", "change_action", "change_type", "c"."id", "c"."at"
    FROM unnest("farm_ids", "record_ids", "record_times") WITH ORDINALITY AS "c"("farm", "id", "at", "n")
    ORDER BY "c"."n";
END;
$$;--> statement-breakpoint
-- A delete is one entry: a tombstone listing every id it removed, itself included, by type. A cascade deletes
-- children first, each statement leaving tombstones of its own; when the parent goes later in the same
-- transaction, its tombstone takes theirs in and they are dropped, never having been visible to anyone. Records
-- of a farm being deleted (akker.deleting_farm, set by the farm's cascade) are skipped: its feed goes with it.
CREATE FUNCTION "record_removals"("change_type" text, "farm_ids" text[], "record_ids" text[], "parent_ids" text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "this_xact" bigint := txid_current();
  "deleting" text := coalesce(current_setting('akker.deleting_farm', true), '');
BEGIN
  IF coalesce(cardinality("record_ids"), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "farms" WHERE "b_id_farm" = ANY("farm_ids") AND "b_id_farm" <> "deleting" ORDER BY "b_id_farm" FOR NO KEY UPDATE;
  WITH "gone" AS (
    SELECT "g"."farm", "g"."id", "g"."parent"
    FROM unnest("farm_ids", "record_ids", "parent_ids") AS "g"("farm", "id", "parent")
    WHERE "g"."farm" <> "deleting"
  ), "absorbed" AS (
    DELETE FROM "farm_changes" AS "c" USING "gone"
    WHERE "c"."action" = 'delete' AND "c"."parent_id" = "gone"."id" AND "c"."xact" = "this_xact"
    RETURNING "gone"."id" AS "root", "c"."removed"
  ), "ids" AS (
    SELECT "a"."root", "kv"."key" AS "type", "e"."value" AS "id"
    FROM "absorbed" AS "a", jsonb_each("a"."removed") AS "kv", jsonb_array_elements("kv"."value") AS "e"
    UNION ALL
    SELECT "gone"."id", "change_type", to_jsonb("gone"."id") FROM "gone"
  ), "by_type" AS (
    SELECT "root", "type", jsonb_agg("id") AS "ids" FROM "ids" GROUP BY "root", "type"
  ), "merged" AS (
    SELECT "root", jsonb_object_agg("type", "ids") AS "removed" FROM "by_type" GROUP BY "root"
  )
  INSERT INTO "farm_changes" ("b_id_farm", "action", "record_type", "record_id", "updated_at", "removed", "parent_id", "xact")
    SELECT "gone"."farm", 'delete', "change_type", "gone"."id", clock_timestamp(), "merged"."removed", "gone"."parent", "this_xact"
    FROM "gone" JOIN "merged" ON "merged"."root" = "gone"."id";
END;
$$;--> statement-breakpoint
-- Farms. An update counts when the farm's data changed (updated_at moved), not when only its access version
-- did. A deleted farm takes its feed along: nobody has a role on it any more to read it.
CREATE FUNCTION "farms_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'farm', array_agg("r"."b_id_farm"), array_agg("r"."b_id_farm"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'farm', array_agg("r"."b_id_farm"), array_agg("r"."b_id_farm"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_farm") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    DELETE FROM "farm_changes" WHERE "b_id_farm" IN (SELECT "b_id_farm" FROM "old_rows");
    DELETE FROM "farm_change_horizons" WHERE "b_id_farm" IN (SELECT "b_id_farm" FROM "old_rows");
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Members (roles on the farm), named by their e-mail address as the sharing endpoints name them. A grant that
-- leaves the role as it was is no change.
CREATE FUNCTION "farm_access_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'member', array_agg("r"."b_id_farm"), array_agg("u"."email"), array_agg(clock_timestamp()))
    FROM "new_rows" AS "r" JOIN "users" AS "u" ON "u"."user_id" = "r"."user_id";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'member', array_agg("r"."b_id_farm"), array_agg("u"."email"), array_agg(clock_timestamp()))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_farm", "user_id") JOIN "users" AS "u" ON "u"."user_id" = "r"."user_id"
    WHERE "r"."role" <> "o"."role";
  ELSE
    PERFORM "record_removals"('member', array_agg("r"."b_id_farm"), array_agg("u"."email"), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r" JOIN "users" AS "u" ON "u"."user_id" = "r"."user_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The records under a farm: the farm is found through the parent (still there: a cascade deletes children first).
CREATE FUNCTION "fields_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'field', array_agg("r"."b_id_farm"), array_agg("r"."b_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'field', array_agg("r"."b_id_farm"), array_agg("r"."b_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('field', array_agg("r"."b_id_farm"), array_agg("r"."b_id"), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "farm_fertilizers_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'fertilizer', array_agg("r"."b_id_farm"), array_agg("r"."p_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'fertilizer', array_agg("r"."b_id_farm"), array_agg("r"."p_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("p_id") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('fertilizer', array_agg("r"."b_id_farm"), array_agg("r"."p_id"), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "cultivations_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'cultivation', array_agg("f"."b_id_farm"), array_agg("r"."b_lu"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'cultivation', array_agg("f"."b_id_farm"), array_agg("r"."b_lu"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_lu") JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id" WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('cultivation', array_agg("f"."b_id_farm"), array_agg("r"."b_lu"), array_agg("r"."b_id"))
    FROM "old_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "soil_analyses_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'soil_analysis', array_agg("f"."b_id_farm"), array_agg("r"."a_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'soil_analysis', array_agg("f"."b_id_farm"), array_agg("r"."a_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("a_id") JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id" WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('soil_analysis', array_agg("f"."b_id_farm"), array_agg("r"."a_id"), array_agg("r"."b_id"))
    FROM "old_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "fertilizer_applications_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'fertilizer_application', array_agg("f"."b_id_farm"), array_agg("r"."p_app_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'fertilizer_application', array_agg("f"."b_id_farm"), array_agg("r"."p_app_id"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("p_app_id") JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id" WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('fertilizer_application', array_agg("f"."b_id_farm"), array_agg("r"."p_app_id"), array_agg("r"."b_id"))
    FROM "old_rows" AS "r" JOIN "fields" AS "f" ON "f"."b_id" = "r"."b_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "harvests_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'harvest', array_agg("f"."b_id_farm"), array_agg("r"."b_id_harvesting"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "cultivations" AS "c" ON "c"."b_lu" = "r"."b_lu" JOIN "fields" AS "f" ON "f"."b_id" = "c"."b_id";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'harvest', array_agg("f"."b_id_farm"), array_agg("r"."b_id_harvesting"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_harvesting") JOIN "cultivations" AS "c" ON "c"."b_lu" = "r"."b_lu" JOIN "fields" AS "f" ON "f"."b_id" = "c"."b_id" WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('harvest', array_agg("f"."b_id_farm"), array_agg("r"."b_id_harvesting"), array_agg("r"."b_lu"))
    FROM "old_rows" AS "r" JOIN "cultivations" AS "c" ON "c"."b_lu" = "r"."b_lu" JOIN "fields" AS "f" ON "f"."b_id" = "c"."b_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "farms_created_changes" AFTER INSERT ON "farms" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farms_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farms_updated_changes" AFTER UPDATE ON "farms" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farms_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farms_deleted_changes" AFTER DELETE ON "farms" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farms_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_access_created_changes" AFTER INSERT ON "farm_access" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_access_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_access_updated_changes" AFTER UPDATE ON "farm_access" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_access_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_access_deleted_changes" AFTER DELETE ON "farm_access" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_access_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fields_created_changes" AFTER INSERT ON "fields" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fields_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fields_updated_changes" AFTER UPDATE ON "fields" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fields_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fields_deleted_changes" AFTER DELETE ON "fields" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fields_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_fertilizers_created_changes" AFTER INSERT ON "farm_fertilizers" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_fertilizers_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_fertilizers_updated_changes" AFTER UPDATE ON "farm_fertilizers" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_fertilizers_record_changes"();--> statement-breakpoint
CREATE TRIGGER "farm_fertilizers_deleted_changes" AFTER DELETE ON "farm_fertilizers" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "farm_fertilizers_record_changes"();--> statement-breakpoint
CREATE TRIGGER "cultivations_created_changes" AFTER INSERT ON "cultivations" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "cultivations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "cultivations_updated_changes" AFTER UPDATE ON "cultivations" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "cultivations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "cultivations_deleted_changes" AFTER DELETE ON "cultivations" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "cultivations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "soil_analyses_created_changes" AFTER INSERT ON "soil_analyses" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "soil_analyses_record_changes"();--> statement-breakpoint
CREATE TRIGGER "soil_analyses_updated_changes" AFTER UPDATE ON "soil_analyses" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "soil_analyses_record_changes"();--> statement-breakpoint
CREATE TRIGGER "soil_analyses_deleted_changes" AFTER DELETE ON "soil_analyses" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "soil_analyses_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fertilizer_applications_created_changes" AFTER INSERT ON "fertilizer_applications" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fertilizer_applications_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fertilizer_applications_updated_changes" AFTER UPDATE ON "fertilizer_applications" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fertilizer_applications_record_changes"();--> statement-breakpoint
CREATE TRIGGER "fertilizer_applications_deleted_changes" AFTER DELETE ON "fertilizer_applications" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "fertilizer_applications_record_changes"();--> statement-breakpoint
CREATE TRIGGER "harvests_created_changes" AFTER INSERT ON "harvests" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "harvests_record_changes"();--> statement-breakpoint
CREATE TRIGGER "harvests_updated_changes" AFTER UPDATE ON "harvests" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "harvests_record_changes"();--> statement-breakpoint
CREATE TRIGGER "harvests_deleted_changes" AFTER DELETE ON "harvests" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "harvests_record_changes"();
