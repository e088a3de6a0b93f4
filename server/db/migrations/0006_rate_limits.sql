CREATE INDEX "login_tokens_device_idx" ON "login_tokens" USING btree ("device_hash");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_created_at_idx" ON "rate_limit_hits" USING btree ("created_at");
