-- API.md §20 (b). A deal audit row keeps, beside its before/after snapshots, each person's non-void line
-- total at that time ({"before": {"usr_…": "12.50"}, "after": {…}}), so a deal's history shows a rep or
-- manager the sum of the lines they see; rows written before this have none (their totals show as null).
ALTER TABLE audit_events ADD COLUMN line_totals jsonb;

-- A dispute opened by a rep or manager is about their own lines' total on the deal (amount_scope 'user',
-- scope_user_id the opener); one opened by an admin, a key or the owner CLI about the deal's ('deal').
ALTER TABLE disputes ADD COLUMN amount_scope text NOT NULL DEFAULT 'deal' CHECK (amount_scope IN ('user', 'deal'));
ALTER TABLE disputes ADD COLUMN scope_user_id text REFERENCES users (id);
ALTER TABLE disputes ADD CONSTRAINT disputes_scope_user_check CHECK ((amount_scope = 'user') = (scope_user_id IS NOT NULL));
