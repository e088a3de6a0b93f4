CREATE TABLE "alert_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"title" text NOT NULL,
	"dataset" text NOT NULL,
	"date_field" text NOT NULL,
	"filters" jsonb NOT NULL,
	"conditions" jsonb NOT NULL,
	"dimension" text,
	"muted_days" jsonb NOT NULL,
	"duration" integer NOT NULL,
	"recipients" jsonb NOT NULL,
	"webhook_url" text,
	"message" text NOT NULL,
	"enabled" boolean NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_evaluations" (
	"rule_id" text NOT NULL,
	"day" date NOT NULL,
	"result" boolean,
	"groups" jsonb NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_evaluations_rule_id_day_pk" PRIMARY KEY("rule_id","day")
);
--> statement-breakpoint
CREATE TABLE "alert_violations" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" text NOT NULL,
	"workspace_id" integer NOT NULL,
	"status" text NOT NULL,
	"opened_on" date NOT NULL,
	"closed_on" date,
	"groups" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_evaluations" ADD CONSTRAINT "alert_evaluations_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_violations" ADD CONSTRAINT "alert_violations_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_violations" ADD CONSTRAINT "alert_violations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_rules_workspace_idx" ON "alert_rules" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "alert_violations_workspace_idx" ON "alert_violations" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_violations_one_open" ON "alert_violations" USING btree ("rule_id") WHERE "alert_violations"."status" = 'open';
