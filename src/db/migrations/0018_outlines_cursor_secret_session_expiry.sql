CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_geometry_simplified" jsonb;--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
-- Filling in the simplified outline of a row stored before this column (resources/fields/outline-backfill.ts)
-- changes nothing a reader sees: that transaction says so, and the field keeps its updated_at (and so its
-- ETag, and the change feed, which records an update only when updated_at moves).
DROP TRIGGER "fields_updated_at" ON "fields";--> statement-breakpoint
CREATE TRIGGER "fields_updated_at" BEFORE UPDATE ON "fields" FOR EACH ROW
  WHEN (current_setting('akker.backfilling_outlines', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION "touch_updated_at"();
