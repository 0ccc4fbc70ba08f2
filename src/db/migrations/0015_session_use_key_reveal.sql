-- The new-key page shows a raw key once: the one-time record it clears as it shows the key.
ALTER TABLE "api_keys" ADD COLUMN "reveal_until" timestamp with time zone;--> statement-breakpoint
-- When each session was last used, for the account page; a session of before this migration was last used, as far as is known, when it started.
ALTER TABLE "sessions" ADD COLUMN "last_used_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "last_used_at" = "created_at";
