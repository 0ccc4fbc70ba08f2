-- A field remembers its identifier in the system it came from (an RVO sector id), so an importer can match it again.
ALTER TABLE "fields" ADD COLUMN "b_id_source" text;