-- API.md §16: who reported to whom on each date, override plans and their lines.

-- One row per span of a user's reporting line (inclusive dates, effective_to null = open); manager_id
-- null is a span with no manager. users.manager_id stays today's line (access, §11, reads it).
CREATE TABLE reporting_lines (
  user_id         text NOT NULL REFERENCES users (id),
  manager_id      text REFERENCES users (id),
  effective_from  date NOT NULL,
  effective_to    date,
  PRIMARY KEY (user_id, effective_from),
  CHECK (effective_to IS NULL OR effective_to >= effective_from),
  CHECK (manager_id IS NULL OR manager_id <> user_id)
);
CREATE INDEX reporting_lines_manager_idx ON reporting_lines (manager_id, effective_from);

-- Existing managers start at the earliest deal close_date (today when there is no deal, or every deal
-- closes later).
INSERT INTO reporting_lines (user_id, manager_id, effective_from)
SELECT u.id, u.manager_id, LEAST(COALESCE((SELECT min(close_date) FROM deals), CURRENT_DATE), CURRENT_DATE)
FROM users u
WHERE u.manager_id IS NOT NULL;

-- Plan kinds: an override plan pays a manager on the credits below them, by depth.
ALTER TABLE comp_plans ADD COLUMN kind text NOT NULL DEFAULT 'standard' CHECK (kind IN ('standard', 'override'));
ALTER TABLE comp_plans ADD COLUMN override_levels jsonb;
ALTER TABLE comp_plan_versions ADD COLUMN override_levels jsonb;

-- One override line per manager and deal.
CREATE UNIQUE INDEX commission_lines_override_key ON commission_lines (deal_id, user_id) WHERE kind = 'override';
CREATE INDEX commission_lines_override_plan_idx ON commission_lines (plan_id) WHERE kind = 'override';
