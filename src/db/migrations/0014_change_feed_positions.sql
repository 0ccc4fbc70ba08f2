-- Each farm's feed is numbered on its own (`position`: 1, 2, 3, … in commit order), so that a cursor says nothing
-- of other farms' writes. The entries kept are numbered in their change_id order, which within a farm was commit
-- order; the horizons counted change_ids, and every cursor handed out before now is refused (a new spelling), so
-- they start again from nothing pruned.
DROP INDEX "farm_changes_feed_idx";--> statement-breakpoint
ALTER TABLE "farm_changes" ADD COLUMN "position" bigint;--> statement-breakpoint
UPDATE "farm_changes" AS "c" SET "position" = "n"."position"
  FROM (SELECT "change_id", row_number() OVER (PARTITION BY "b_id_farm" ORDER BY "change_id") AS "position" FROM "farm_changes") AS "n"
  WHERE "n"."change_id" = "c"."change_id";--> statement-breakpoint
ALTER TABLE "farm_changes" ALTER COLUMN "position" SET NOT NULL;--> statement-breakpoint
DELETE FROM "farm_change_horizons";--> statement-breakpoint
CREATE UNIQUE INDEX "farm_changes_position_idx" ON "farm_changes" USING btree ("b_id_farm","position");--> statement-breakpoint
-- The last position of each farm's feed: its last entry, or the last one pruned when retention took them all.
-- A writer holds the farm's row lock when it asks, so no other can number an entry of the farm until it commits.
CREATE FUNCTION "farm_feed_ends"("farm_ids" text[]) RETURNS TABLE ("farm" text, "last_position" bigint)
LANGUAGE sql STABLE AS $$
  SELECT "f"."farm", greatest(
    coalesce((SELECT max("c"."position") FROM "farm_changes" AS "c" WHERE "c"."b_id_farm" = "f"."farm"), 0),
    coalesce((SELECT "h"."pruned_through" FROM "farm_change_horizons" AS "h" WHERE "h"."b_id_farm" = "f"."farm"), 0))
  FROM (SELECT DISTINCT unnest("farm_ids") AS "farm") AS "f"
$$;--> statement-breakpoint
-- As in 0009, with each entry numbered after the last of its farm's feed.
CREATE OR REPLACE FUNCTION "record_changes"("change_action" text, "change_type" text, "farm_ids" text[], "record_ids" text[], "record_times" timestamptz[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality("record_ids"), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "farms" WHERE "b_id_farm" = ANY("farm_ids") ORDER BY "b_id_farm" FOR NO KEY UPDATE;
  INSERT INTO "farm_changes" ("b_id_farm", "position", "action", "record_type", "record_id", "updated_at")
    SELECT "c"."farm", "e"."last_position" + row_number() OVER (PARTITION BY "c"."farm" ORDER BY "c"."n"),
           "change_action", "change_type", "c"."id", "c"."at"
    FROM unnest("farm_ids", "record_ids", "record_times") WITH ORDINALITY AS "c"("farm", "id", "at", "n")
    JOIN "farm_feed_ends"("farm_ids") AS "e" ON "e"."farm" = "c"."farm"
    ORDER BY "c"."n";
END;
$$;--> statement-breakpoint
-- As in 0009, with each tombstone numbered after the last of its farm's feed (the tombstones it takes in leave
-- gaps, never seen by anyone).
CREATE OR REPLACE FUNCTION "record_removals"("change_type" text, "farm_ids" text[], "record_ids" text[], "parent_ids" text[])
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
    SELECT "g"."farm", "g"."id", "g"."parent", "g"."n"
    FROM unnest("farm_ids", "record_ids", "parent_ids") WITH ORDINALITY AS "g"("farm", "id", "parent", "n")
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
  INSERT INTO "farm_changes" ("b_id_farm", "position", "action", "record_type", "record_id", "updated_at", "removed", "parent_id", "xact")
    SELECT "gone"."farm", "e"."last_position" + row_number() OVER (PARTITION BY "gone"."farm" ORDER BY "gone"."n"),
           'delete', "change_type", "gone"."id", clock_timestamp(), "merged"."removed", "gone"."parent", "this_xact"
    FROM "gone" JOIN "merged" ON "merged"."root" = "gone"."id"
    JOIN "farm_feed_ends"("farm_ids") AS "e" ON "e"."farm" = "gone"."farm";
END;
$$;
