CREATE TABLE "audit_log" (
	"audit_id" text PRIMARY KEY NOT NULL,
	"b_id_farm" text NOT NULL,
	"user_id" text NOT NULL,
	"key_id" text,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_farm_list_idx" ON "audit_log" USING btree ("b_id_farm","created_at","audit_id");