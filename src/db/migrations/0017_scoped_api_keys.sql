-- Scoped API keys: what a key may do (read or write) and the only farms it reaches (null: all its owner's), both fixed at creation. Keys of before keep all their owner's access.
ALTER TABLE "api_keys" ADD COLUMN "access" text DEFAULT 'write' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "farms" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_access_check" CHECK ("api_keys"."access" in ('read', 'write'));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_farms_check" CHECK ("api_keys"."farms" is null or cardinality("api_keys"."farms") between 1 and 100);
