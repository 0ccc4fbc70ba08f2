-- The change feed's functions run on every write, with arrays for arguments, whose sizes the planner cannot
-- know in advance: so it planned their statements anew on each call (a custom plan each time looked cheaper
-- than the generic one), 0.3 ms of a 0.4 ms trigger on PostgreSQL and more on PGlite. One generic plan a
-- connection does for every size they take: the feed's farms are few, and each look-up goes by an index.
ALTER FUNCTION "record_changes"(text, text, text[], text[], timestamptz[]) SET "plan_cache_mode" = 'force_generic_plan';--> statement-breakpoint
ALTER FUNCTION "record_removals"(text, text[], text[], text[]) SET "plan_cache_mode" = 'force_generic_plan';
