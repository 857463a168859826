-- Each claim's token starts with the next number of this sequence, so that a frame's cursor can name its run by a
-- short number that no other run has (issue 31).
CREATE SEQUENCE IF NOT EXISTS agui_claims_given;
