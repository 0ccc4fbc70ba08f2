CREATE TABLE "cultivations" (
	"b_lu" text PRIMARY KEY NOT NULL,
	"b_id" text NOT NULL,
	"b_lu_catalogue" text NOT NULL,
	"b_lu_start" date NOT NULL,
	"b_lu_end" date,
	"m_cropresidue" boolean,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm_fertilizers" (
	"p_id" text PRIMARY KEY NOT NULL,
	"b_id_farm" text NOT NULL,
	"p_source" text NOT NULL,
	"p_id_catalogue" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fertilizer_applications" (
	"p_app_id" text PRIMARY KEY NOT NULL,
	"b_id" text NOT NULL,
	"p_id" text NOT NULL,
	"p_app_amount" double precision NOT NULL,
	"p_app_amount_display" double precision NOT NULL,
	"p_app_amount_unit" text NOT NULL,
	"p_app_method" text,
	"p_app_date" date NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fields" (
	"b_id" text PRIMARY KEY NOT NULL,
	"b_id_farm" text NOT NULL,
	"b_name" text NOT NULL,
	"b_geometry" jsonb NOT NULL,
	"b_area" double precision NOT NULL,
	"b_centroid" jsonb NOT NULL,
	"b_start" date NOT NULL,
	"b_end" date,
	"b_acquiring_method" text NOT NULL,
	"b_bufferstrip" boolean NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "harvests" (
	"b_id_harvesting" text PRIMARY KEY NOT NULL,
	"b_lu" text NOT NULL,
	"b_lu_harvest_date" date NOT NULL,
	"b_lu_yield" double precision,
	"b_lu_n_harvestable" double precision,
	"b_lu_yield_fresh" double precision,
	"b_lu_yield_bruto" double precision,
	"b_lu_tarra" double precision,
	"b_lu_dm" double precision,
	"b_lu_moist" double precision,
	"b_lu_uww" double precision,
	"b_lu_cp" double precision,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "soil_analyses" (
	"a_id" text PRIMARY KEY NOT NULL,
	"b_id" text NOT NULL,
	"a_date" date,
	"a_source" text NOT NULL,
	"a_depth_upper" double precision NOT NULL,
	"a_depth_lower" double precision,
	"b_sampling_date" date,
	"parameters" jsonb NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cultivations" ADD CONSTRAINT "cultivations_b_id_fields_b_id_fk" FOREIGN KEY ("b_id") REFERENCES "public"."fields"("b_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farm_fertilizers" ADD CONSTRAINT "farm_fertilizers_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fertilizer_applications" ADD CONSTRAINT "fertilizer_applications_b_id_fields_b_id_fk" FOREIGN KEY ("b_id") REFERENCES "public"."fields"("b_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fertilizer_applications" ADD CONSTRAINT "fertilizer_applications_p_id_farm_fertilizers_p_id_fk" FOREIGN KEY ("p_id") REFERENCES "public"."farm_fertilizers"("p_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_b_id_farm_farms_b_id_farm_fk" FOREIGN KEY ("b_id_farm") REFERENCES "public"."farms"("b_id_farm") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "harvests" ADD CONSTRAINT "harvests_b_lu_cultivations_b_lu_fk" FOREIGN KEY ("b_lu") REFERENCES "public"."cultivations"("b_lu") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "soil_analyses" ADD CONSTRAINT "soil_analyses_b_id_fields_b_id_fk" FOREIGN KEY ("b_id") REFERENCES "public"."fields"("b_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cultivations_field_list_idx" ON "cultivations" USING btree ("b_id","created_at","b_lu");--> statement-breakpoint
CREATE INDEX "farm_fertilizers_farm_list_idx" ON "farm_fertilizers" USING btree ("b_id_farm","created_at","p_id");--> statement-breakpoint
CREATE INDEX "fertilizer_applications_field_list_idx" ON "fertilizer_applications" USING btree ("b_id","created_at","p_app_id");--> statement-breakpoint
CREATE INDEX "fertilizer_applications_fertilizer_idx" ON "fertilizer_applications" USING btree ("p_id");--> statement-breakpoint
CREATE INDEX "fields_farm_list_idx" ON "fields" USING btree ("b_id_farm","created_at","b_id");--> statement-breakpoint
CREATE INDEX "harvests_cultivation_list_idx" ON "harvests" USING btree ("b_lu","created_at","b_id_harvesting");--> statement-breakpoint
CREATE INDEX "soil_analyses_field_list_idx" ON "soil_analyses" USING btree ("b_id","created_at","a_id");