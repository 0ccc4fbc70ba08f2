-- Every record the API returns carries when it was created and when it last changed.
ALTER TABLE "cultivations" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "farm_fertilizers" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "farms" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "fertilizer_applications" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "harvests" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "soil_analyses" ADD COLUMN "updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Records that exist already changed last when they were created, as far as anyone knows.
UPDATE "cultivations" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "farm_fertilizers" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "farms" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "fertilizer_applications" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "fields" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "harvests" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "soil_analyses" SET "updated_at" = "created_at";--> statement-breakpoint
-- One rule for every writer: an update moves updated_at to the time of the change, and at least a
-- millisecond past the value it had (the API shows milliseconds), so two changes in one millisecond, or a
-- clock set back, still leave every change visible and the values of one record strictly increasing.
CREATE FUNCTION "touch_updated_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updated_at" := greatest(clock_timestamp(), OLD."updated_at" + interval '1 millisecond');
  RETURN NEW;
END;
$$;--> statement-breakpoint
-- A farm's row also holds its access version (0006), which moves without the farm changing: only its own
-- members count.
CREATE TRIGGER "farms_updated_at" BEFORE UPDATE OF "b_name_farm", "b_businessid_farm", "b_address_farm", "b_postalcode_farm" ON "farms"
  FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "fields_updated_at" BEFORE UPDATE ON "fields" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "cultivations_updated_at" BEFORE UPDATE ON "cultivations" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "harvests_updated_at" BEFORE UPDATE ON "harvests" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "soil_analyses_updated_at" BEFORE UPDATE ON "soil_analyses" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "farm_fertilizers_updated_at" BEFORE UPDATE ON "farm_fertilizers" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "fertilizer_applications_updated_at" BEFORE UPDATE ON "fertilizer_applications" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
