-- Disputes (API.md §4 "Disputes"): opened on an approved deal, resolved by an admin.
CREATE TABLE disputes (
  id                text PRIMARY KEY,
  deal_id           text NOT NULL REFERENCES deals (id),
  opened_by_key_id  text,
  reason            text NOT NULL CHECK (reason IN ('wrong_amount', 'wrong_deal_type', 'missing_tier',
                      'wrong_attribution', 'spiff_missing', 'other')),
  description       text,
  expected_amount   numeric(20, 2),
  status            text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  outcome           text CHECK (outcome IN ('approved', 'partially_approved', 'denied')),
  resolution_note   text,
  resolved_amount   numeric(20, 2),
  created_at        timestamptz(3) NOT NULL,
  resolved_at       timestamptz(3)
);
CREATE INDEX disputes_created_idx ON disputes (created_at DESC, id DESC);
CREATE INDEX disputes_deal_idx ON disputes (deal_id);
-- At most one open dispute per deal.
CREATE UNIQUE INDEX disputes_open_deal_key ON disputes (deal_id) WHERE status = 'open';
