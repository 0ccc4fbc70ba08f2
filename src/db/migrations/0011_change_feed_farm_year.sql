-- The change feed (0009) covers the farm's records per year and its organic certifications. A derogation and a
-- grazing intention are named by their year, as their paths name them; a farm holds one of each per year.
CREATE FUNCTION "derogations_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'derogation', array_agg("r"."b_id_farm"), array_agg("r"."b_derogation_year"::text), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'derogation', array_agg("r"."b_id_farm"), array_agg("r"."b_derogation_year"::text), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_farm", "b_derogation_year") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('derogation', array_agg("r"."b_id_farm"), array_agg("r"."b_derogation_year"::text), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "grazing_intentions_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'grazing_intention', array_agg("r"."b_id_farm"), array_agg("r"."b_grazing_intention_year"::text), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'grazing_intention', array_agg("r"."b_id_farm"), array_agg("r"."b_grazing_intention_year"::text), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_farm", "b_grazing_intention_year") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('grazing_intention', array_agg("r"."b_id_farm"), array_agg("r"."b_grazing_intention_year"::text), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "organic_certifications_record_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_changes"('create', 'organic_certification', array_agg("r"."b_id_farm"), array_agg("r"."b_id_organic"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "record_changes"('update', 'organic_certification', array_agg("r"."b_id_farm"), array_agg("r"."b_id_organic"), array_agg("r"."updated_at"))
    FROM "new_rows" AS "r" JOIN "old_rows" AS "o" USING ("b_id_organic") WHERE "r"."updated_at" <> "o"."updated_at";
  ELSE
    PERFORM "record_removals"('organic_certification', array_agg("r"."b_id_farm"), array_agg("r"."b_id_organic"), array_agg("r"."b_id_farm"))
    FROM "old_rows" AS "r";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "derogations_created_changes" AFTER INSERT ON "derogations" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "derogations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "derogations_updated_changes" AFTER UPDATE ON "derogations" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "derogations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "derogations_deleted_changes" AFTER DELETE ON "derogations" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "derogations_record_changes"();--> statement-breakpoint
CREATE TRIGGER "grazing_intentions_created_changes" AFTER INSERT ON "grazing_intentions" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "grazing_intentions_record_changes"();--> statement-breakpoint
CREATE TRIGGER "grazing_intentions_updated_changes" AFTER UPDATE ON "grazing_intentions" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "grazing_intentions_record_changes"();--> statement-breakpoint
CREATE TRIGGER "grazing_intentions_deleted_changes" AFTER DELETE ON "grazing_intentions" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "grazing_intentions_record_changes"();--> statement-breakpoint
CREATE TRIGGER "organic_certifications_created_changes" AFTER INSERT ON "organic_certifications" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "organic_certifications_record_changes"();--> statement-breakpoint
CREATE TRIGGER "organic_certifications_updated_changes" AFTER UPDATE ON "organic_certifications" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "organic_certifications_record_changes"();--> statement-breakpoint
CREATE TRIGGER "organic_certifications_deleted_changes" AFTER DELETE ON "organic_certifications" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "organic_certifications_record_changes"();
