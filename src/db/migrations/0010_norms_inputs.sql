-- The inputs of the Dutch usage norms: where a field lies (soil region, four areas), a crop variety, and per farm
-- the derogation years, the grazing intention per year and the organic certifications.
CREATE TABLE "derogations" (
	"b_id_farm" text NOT NULL,
	"b_derogation_year" integer NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "derogations_b_id_farm_b_derogation_year_pk" PRIMARY KEY("b_id_farm","b_derogation_year")
);
--> statement-breakpoint
CREATE TABLE "grazing_intentions" (
	"b_id_farm" text NOT NULL,
	"b_grazing_intention_year" integer NOT NULL,
	"b_grazing_intention" boolean NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grazing_intentions_b_id_farm_b_grazing_intention_year_pk" PRIMARY KEY("b_id_farm","b_grazing_intention_year")
);
--> statement-breakpoint
CREATE TABLE "organic_certifications" (
	"b_id_organic" text PRIMARY KEY NOT NULL,
	"b_id_farm" text NOT NULL,
	"b_organic_traces" text,
	"b_organic_skal" text,
	"b_organic_issued" date NOT NULL,
	"b_organic_expires" date NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cultivations" ADD COLUMN "b_lu_variety" text;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_soil_region" text;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_in_nv_area" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_in_gwbg" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_in_natura2000" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fields" ADD COLUMN "b_in_derogation_free_zone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "derogations" ADD CONSTRAINT "derogations_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grazing_intentions" ADD CONSTRAINT "grazing_intentions_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organic_certifications" ADD CONSTRAINT "organic_certifications_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organic_certifications_farm_list_idx" ON "organic_certifications" USING btree ("b_id_farm","created_at","b_id_organic");--> statement-breakpoint
-- The new records' updated_at moves on every change, by the rule of 0007.
CREATE TRIGGER "derogations_updated_at" BEFORE UPDATE ON "derogations" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "grazing_intentions_updated_at" BEFORE UPDATE ON "grazing_intentions" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();--> statement-breakpoint
CREATE TRIGGER "organic_certifications_updated_at" BEFORE UPDATE ON "organic_certifications" FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
