CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"reservation" text NOT NULL,
	"reserved_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"status" integer,
	"content_type" text,
	"location" text,
	"etag" text,
	"body" text,
	CONSTRAINT "idempotency_keys_user_id_idempotency_key_pk" PRIMARY KEY("user_id","idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_reserved_at_idx" ON "idempotency_keys" USING btree ("reserved_at");