-- The PostgreSQL store's schema: tables, indexes and the PL/pgSQL functions behind
-- PostgresVerificationStore. createSchema() runs it in one transaction under an advisory lock, so
-- every statement is idempotent (IF NOT EXISTS, OR REPLACE, IF EXISTS) and the file is safe to
-- run again and from several processes at once.
--
-- Every `smskit_` below is the table prefix: the store replaces it with its own (`tablePrefix`
-- + "_"), so that this file, run as is (psql -f), gives the default store. A statement ends at a
-- line ending in `;` outside a `$$` body. After editing, run tools/generate_postgres_schema_swift.sh.

CREATE TABLE IF NOT EXISTS smskit_verifications (
    id TEXT PRIMARY KEY,
    e164 TEXT NOT NULL,
    digest BYTEA NOT NULL,
    key_id TEXT NOT NULL,
    sealed_code BYTEA,
    locale TEXT NOT NULL,
    is_test BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    send_count INTEGER NOT NULL,
    last_sent_at BIGINT NOT NULL,
    state TEXT NOT NULL
);

ALTER TABLE smskit_verifications ADD COLUMN IF NOT EXISTS range_key TEXT;

CREATE INDEX IF NOT EXISTS smskit_verifications_e164 ON smskit_verifications (e164, created_at);

CREATE INDEX IF NOT EXISTS smskit_verifications_expires ON smskit_verifications (expires_at);

-- Version 1's fixed-window counters (transient data) give way to sliding windows.
DROP TABLE IF EXISTS smskit_counters;

CREATE TABLE IF NOT EXISTS smskit_windows (
    key TEXT PRIMARY KEY,
    bucket_start BIGINT NOT NULL,
    current_count BIGINT NOT NULL,
    previous_count BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS smskit_windows_expires ON smskit_windows (expires_at);

-- The SMS sent for each verification (first send and resends), keyed by the SHA-256 of the token
-- in their report URL, and their parts' delivery states. Both cascade from the verification, so
-- the retention sweep bounds them with it.
CREATE TABLE IF NOT EXISTS smskit_messages (
    token_digest BYTEA PRIMARY KEY,
    verification_id TEXT NOT NULL REFERENCES smskit_verifications (id) ON DELETE CASCADE,
    sequence INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    locale TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS smskit_messages_verification ON smskit_messages (verification_id, sequence);

CREATE TABLE IF NOT EXISTS smskit_message_parts (
    token_digest BYTEA NOT NULL REFERENCES smskit_messages (token_digest) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    state TEXT NOT NULL,
    provider_id TEXT,
    error_code TEXT,
    updated_at BIGINT NOT NULL,
    done_at BIGINT,
    PRIMARY KEY (token_digest, part)
);

-- Receipts name their part by the SMS centre's message ID.
CREATE INDEX IF NOT EXISTS smskit_message_parts_provider ON smskit_message_parts (provider_id)
    WHERE provider_id IS NOT NULL;

-- WindowCounter.rolled(to:window:) then weighted(at:window:).
CREATE OR REPLACE FUNCTION smskit_weighted(p_bucket BIGINT, p_cur BIGINT, p_prev BIGINT, p_window BIGINT,
                                         p_now BIGINT) RETURNS BIGINT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    b BIGINT := p_now - ((p_now % p_window) + p_window) % p_window;
    bucket BIGINT := p_bucket;
    cur BIGINT := p_cur;
    prev BIGINT := p_prev;
BEGIN
    IF b = bucket + p_window THEN prev := cur; cur := 0; bucket := b;
    ELSIF b > bucket + p_window THEN RETURN 0;
    END IF;
    RETURN prev * (p_window - least(greatest(p_now - bucket, 0), p_window)) + cur * p_window;
END $$;

-- WindowCounter.hit(limit:window:now:) on the row, which it locks.
CREATE OR REPLACE FUNCTION smskit_hit(p_key TEXT, p_limit BIGINT, p_window BIGINT, p_now BIGINT,
    OUT allowed BOOLEAN, OUT bucket BIGINT, OUT cur BIGINT, OUT prev BIGINT, OUT blocked BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    b BIGINT := p_now - ((p_now % p_window) + p_window) % p_window;
BEGIN
    INSERT INTO smskit_windows (key, bucket_start, current_count, previous_count, blocked_until, expires_at)
    VALUES (p_key, b, 0, 0, 0, b + 2 * p_window) ON CONFLICT (key) DO NOTHING;
    SELECT w.bucket_start, w.current_count, w.previous_count, w.blocked_until INTO bucket, cur, prev, blocked
        FROM smskit_windows w WHERE w.key = p_key FOR UPDATE;
    IF b = bucket + p_window THEN prev := cur; cur := 0; bucket := b;
    ELSIF b > bucket + p_window THEN prev := 0; cur := 0; bucket := b;
    END IF;
    allowed := p_limit IS NULL OR prev * (p_window - least(greatest(p_now - bucket, 0), p_window))
        + cur * p_window + p_window <= p_limit * p_window;
    IF allowed THEN cur := cur + 1; END IF;
    UPDATE smskit_windows w SET bucket_start = bucket, current_count = cur, previous_count = prev,
        expires_at = greatest(bucket + 2 * p_window, blocked) WHERE w.key = p_key;
END $$;

-- Version 1 of the start and check functions took fewer arguments (overloads would stay).
DROP FUNCTION IF EXISTS smskit_start(BIGINT, TEXT, TEXT, BIGINT, BIGINT, TEXT, BIGINT, BIGINT, TEXT, BIGINT,
    BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, BYTEA, BYTEA, TEXT, BOOLEAN, BIGINT, INTEGER, TEXT);

DROP FUNCTION IF EXISTS smskit_check(TEXT, BYTEA, TEXT, BIGINT, BIGINT);

-- Version 2 of the start function had no region cap, conversion holds or counters.
DROP FUNCTION IF EXISTS smskit_start(BIGINT, TEXT, TEXT, BIGINT, BIGINT, TEXT, BIGINT, BIGINT, TEXT, BIGINT,
    BIGINT, TEXT, BIGINT, BIGINT, TEXT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, BYTEA, BYTEA,
    TEXT, BOOLEAN, BIGINT, INTEGER, TEXT);

-- Whether one more hit fits in a window (WindowCounter.allows on the rolled row); counts nothing.
-- A refusal answers the row as stored: the caller rolls it to compute when to retry.
CREATE OR REPLACE FUNCTION smskit_peek(p_key TEXT, p_limit BIGINT, p_window BIGINT, p_now BIGINT,
    OUT allowed BOOLEAN, OUT bucket BIGINT, OUT cur BIGINT, OUT prev BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    SELECT w.bucket_start, w.current_count, w.previous_count INTO bucket, cur, prev
        FROM smskit_windows w WHERE w.key = p_key;
    allowed := NOT FOUND
        OR smskit_weighted(bucket, cur, prev, p_window, p_now) + p_window <= p_limit * p_window;
END $$;

-- StartRequest.apply(to:): reads first, so that a refusal writes nothing; serialised per
-- number by an advisory lock, so that concurrent starts for one number see each other.
-- The per-region rows it counts (cap, sent) are single rows that every start of a region locks
-- to its commit: they serialise the starts of one region (not of different regions).
CREATE OR REPLACE FUNCTION smskit_start(
    p_now BIGINT, p_key_id TEXT,
    p_client_key TEXT, p_client_limit BIGINT, p_client_window BIGINT,
    p_number_key TEXT, p_number_limit BIGINT, p_number_window BIGINT,
    p_daily_key TEXT, p_daily_limit BIGINT, p_daily_window BIGINT,
    p_fail_key TEXT, p_fail_limit BIGINT, p_fail_window BIGINT,
    p_range TEXT, p_threshold BIGINT, p_range_window BIGINT, p_ratio BIGINT, p_block BIGINT,
    p_cooldown BIGINT,
    p_id TEXT, p_e164 TEXT, p_digest BYTEA, p_sealed BYTEA, p_locale TEXT, p_is_test BOOLEAN,
    p_expires BIGINT, p_max_attempts INTEGER, p_range_key TEXT,
    p_cap_key TEXT, p_cap_limit BIGINT, p_cap_window BIGINT, p_cap_monitor BOOLEAN,
    p_hold_keys TEXT[], p_hold_windows BIGINT[], p_hold_min BIGINT[], p_hold_approved BIGINT[],
    p_hold_delivered BIGINT[], p_hold_durations BIGINT[], p_hold_monitor BOOLEAN[],
    p_sent_keys TEXT[], p_sent_window BIGINT, p_range_monitor BOOLEAN,
    OUT outcome TEXT, OUT at_ms BIGINT, OUT c_bucket BIGINT, OUT c_cur BIGINT, OUT c_prev BIGINT,
    OUT r_id TEXT, OUT r_digest BYTEA, OUT r_sealed BYTEA, OUT r_locale TEXT, OUT r_is_test BOOLEAN,
    OUT r_created BIGINT, OUT r_expires BIGINT, OUT r_attempts INTEGER, OUT r_max INTEGER,
    OUT r_sends INTEGER, OUT r_range TEXT, OUT held_key TEXT, OUT monitored TEXT)
LANGUAGE plpgsql AS $$
DECLARE
    h RECORD;
    v RECORD;
    has_open BOOLEAN := false;
    s BIGINT;
    a BIGINT;
    d BIGINT;
    f BIGINT;
    win BIGINT;
    k TEXT;
    tripped BOOLEAN;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('smskit_start:' || p_e164, 0));
    IF p_range IS NOT NULL THEN
        SELECT w.blocked_until INTO a FROM smskit_windows w WHERE w.key = 'rs:' || p_range;
        IF a > p_now THEN
            IF NOT p_range_monitor THEN outcome := 'blocked'; at_ms := a; RETURN; END IF;
            monitored := concat_ws(',', monitored, 'range_blocked');
        END IF;
    END IF;
    IF p_cooldown IS NOT NULL THEN
        -- A resend appends to this verification's events: its event lock (as in the event
        -- schema's lock_events) comes before this transaction's first row lock or write.
        SELECT x.id INTO k FROM smskit_verifications x WHERE x.e164 = p_e164 ORDER BY x.created_at DESC LIMIT 1;
        IF FOUND THEN
            PERFORM pg_advisory_xact_lock(hashtextextended('smskit_events:' || k, 0));
        END IF;
        SELECT * INTO v FROM smskit_verifications x WHERE x.e164 = p_e164
            ORDER BY x.created_at DESC LIMIT 1 FOR UPDATE;
        IF FOUND AND v.state = 'open' AND v.expires_at > p_now AND v.attempts < v.max_attempts
           AND v.key_id = p_key_id THEN
            IF p_now < v.last_sent_at + p_cooldown THEN
                outcome := 'cooldown'; at_ms := v.last_sent_at + p_cooldown; RETURN;
            END IF;
            has_open := true;
        END IF;
    END IF;
    IF p_number_key IS NOT NULL THEN
        SELECT * INTO h FROM smskit_peek(p_number_key, p_number_limit, p_number_window, p_now);
        IF NOT h.allowed THEN
            outcome := 'number'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
        END IF;
    END IF;
    IF p_daily_key IS NOT NULL THEN
        SELECT * INTO h FROM smskit_peek(p_daily_key, p_daily_limit, p_daily_window, p_now);
        IF NOT h.allowed THEN
            outcome := 'daily'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
        END IF;
    END IF;
    -- WindowCounter.allowsInFull: both buckets count in full.
    IF p_fail_key IS NOT NULL AND NOT has_open THEN
        SELECT w.bucket_start, w.current_count, w.previous_count INTO c_bucket, c_cur, c_prev
            FROM smskit_windows w WHERE w.key = p_fail_key;
        IF FOUND THEN
            a := p_now - ((p_now % p_fail_window) + p_fail_window) % p_fail_window;
            s := CASE WHEN a <= c_bucket THEN c_prev + c_cur WHEN a = c_bucket + p_fail_window THEN c_cur
                      ELSE 0 END;
            IF s + 1 > p_fail_limit THEN outcome := 'failures'; RETURN; END IF;
        END IF;
        c_bucket := NULL; c_cur := NULL; c_prev := NULL;
    END IF;
    -- Monitor mode notes what a rule would refuse and goes on.
    IF p_cap_key IS NOT NULL THEN
        SELECT * INTO h FROM smskit_peek(p_cap_key, p_cap_limit, p_cap_window, p_now);
        IF NOT h.allowed THEN
            IF p_cap_monitor THEN
                monitored := concat_ws(',', monitored, 'region_capped');
            ELSE
                outcome := 'capped'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
            END IF;
        END IF;
    END IF;
    -- HoldRule.trips, on window estimates times the window length.
    FOR i IN 1 .. coalesce(array_length(p_hold_keys, 1), 0) LOOP
        k := p_hold_keys[i];
        win := p_hold_windows[i];
        a := NULL;
        SELECT x.blocked_until INTO a FROM smskit_windows x WHERE x.key = 'xh:' || k;
        IF a > p_now THEN
            IF p_hold_monitor[i] THEN
                monitored := concat_ws(',', monitored, 'conversion_hold'); CONTINUE;
            END IF;
            outcome := 'held'; at_ms := a; held_key := k; RETURN;
        END IF;
        SELECT smskit_weighted(x.bucket_start, x.current_count, x.previous_count, win, p_now) INTO s
            FROM smskit_windows x WHERE x.key = 'xs:' || k;
        s := coalesce(s, 0);
        IF s < p_hold_min[i] * win THEN CONTINUE; END IF;
        a := NULL; d := NULL; f := NULL;
        SELECT smskit_weighted(x.bucket_start, x.current_count, x.previous_count, win, p_now) INTO a
            FROM smskit_windows x WHERE x.key = 'xa:' || k;
        SELECT smskit_weighted(x.bucket_start, x.current_count, x.previous_count, win, p_now) INTO d
            FROM smskit_windows x WHERE x.key = 'xd:' || k;
        SELECT smskit_weighted(x.bucket_start, x.current_count, x.previous_count, win, p_now) INTO f
            FROM smskit_windows x WHERE x.key = 'xf:' || k;
        a := coalesce(a, 0); d := coalesce(d, 0); f := coalesce(f, 0);
        tripped := a * 10000 < s * p_hold_approved[i]
            OR (p_hold_delivered[i] >= 0 AND d + f > 0 AND d * 10000 < s * p_hold_delivered[i]);
        IF NOT tripped THEN CONTINUE; END IF;
        IF p_hold_monitor[i] THEN
            monitored := concat_ws(',', monitored, 'conversion_hold'); CONTINUE;
        END IF;
        a := p_now + p_hold_durations[i];
        INSERT INTO smskit_windows (key, bucket_start, current_count, previous_count, blocked_until, expires_at)
        VALUES ('xh:' || k, 0, 0, 0, a, a)
        ON CONFLICT (key) DO UPDATE SET bucket_start = 0, current_count = 0, previous_count = 0,
            blocked_until = excluded.blocked_until, expires_at = excluded.expires_at;
        outcome := 'held_now'; at_ms := a; held_key := k; RETURN;
    END LOOP;
    IF p_client_key IS NOT NULL THEN
        SELECT * INTO h FROM smskit_hit(p_client_key, p_client_limit, p_client_window, p_now);
        IF NOT h.allowed THEN
            outcome := 'client'; c_bucket := h.bucket; c_cur := h.cur; c_prev := h.prev; RETURN;
        END IF;
    END IF;
    IF p_range IS NOT NULL THEN
        SELECT * INTO h FROM smskit_hit('rs:' || p_range, NULL, p_range_window, p_now);
        s := h.prev * (p_range_window - least(greatest(p_now - h.bucket, 0), p_range_window))
            + h.cur * p_range_window;
        IF s > p_threshold * p_range_window THEN
            SELECT smskit_weighted(w.bucket_start, w.current_count, w.previous_count, p_range_window, p_now)
                INTO a FROM smskit_windows w WHERE w.key = 'ra:' || p_range;
            IF coalesce(a, 0) * 10000 < s * p_ratio AND p_range_monitor THEN
                IF strpos(coalesce(monitored, ''), 'range_blocked') = 0 THEN
                    monitored := concat_ws(',', monitored, 'range_blocked');
                END IF;
            ELSIF coalesce(a, 0) * 10000 < s * p_ratio THEN
                UPDATE smskit_windows w SET blocked_until = p_now + p_block,
                    expires_at = greatest(w.expires_at, p_now + p_block) WHERE w.key = 'rs:' || p_range;
                outcome := 'blocked_now'; at_ms := p_now + p_block; RETURN;
            END IF;
        END IF;
    END IF;
    IF p_number_key IS NOT NULL THEN
        PERFORM smskit_hit(p_number_key, NULL, p_number_window, p_now);
    END IF;
    IF p_daily_key IS NOT NULL THEN
        PERFORM smskit_hit(p_daily_key, NULL, p_daily_window, p_now);
    END IF;
    IF p_cap_key IS NOT NULL THEN
        PERFORM smskit_hit(p_cap_key, NULL, p_cap_window, p_now);
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_sent_keys, 1), 0) LOOP
        PERFORM smskit_hit(p_sent_keys[i], NULL, p_sent_window, p_now);
    END LOOP;
    IF has_open THEN
        UPDATE smskit_verifications x SET send_count = x.send_count + 1, last_sent_at = p_now WHERE x.id = v.id;
        outcome := 'resend'; r_id := v.id; r_digest := v.digest; r_sealed := v.sealed_code;
        r_locale := v.locale; r_is_test := v.is_test; r_created := v.created_at; r_expires := v.expires_at;
        r_attempts := v.attempts; r_max := v.max_attempts; r_sends := v.send_count + 1; r_range := v.range_key;
        RETURN;
    END IF;
    INSERT INTO smskit_verifications (id, e164, digest, key_id, sealed_code, locale, is_test, created_at,
        expires_at, attempts, max_attempts, send_count, last_sent_at, state, range_key)
    VALUES (p_id, p_e164, p_digest, p_key_id, p_sealed, p_locale, p_is_test, p_now, p_expires, 0,
        p_max_attempts, 1, p_now, 'open', p_range_key);
    outcome := 'created';
END $$;

-- CheckRequest.apply(to:).
CREATE OR REPLACE FUNCTION smskit_check(p_id TEXT, p_digest BYTEA, p_key_id TEXT, p_now BIGINT, p_window BIGINT,
    p_fail_window BIGINT, OUT outcome TEXT, OUT r_e164 TEXT, OUT r_left INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    v RECORD;
BEGIN
    -- The verification's event lock (as in the event schema's lock_events), before the row lock.
    PERFORM pg_advisory_xact_lock(hashtextextended('smskit_events:' || p_id, 0));
    SELECT x.e164, x.digest, x.key_id, x.state, x.expires_at, x.attempts, x.max_attempts, x.range_key,
        x.is_test INTO v
        FROM smskit_verifications x WHERE x.id = p_id FOR UPDATE;
    IF NOT FOUND THEN outcome := 'not_found'; RETURN; END IF;
    IF v.state = 'approved' THEN outcome := 'already_used'; RETURN; END IF;
    IF v.state <> 'open' THEN outcome := 'closed'; RETURN; END IF;
    IF p_now >= v.expires_at THEN outcome := 'expired'; RETURN; END IF;
    IF v.attempts >= v.max_attempts THEN outcome := 'too_many_attempts'; RETURN; END IF;
    IF v.key_id <> p_key_id THEN
        UPDATE smskit_verifications x SET attempts = x.attempts + 1, state = 'closed' WHERE x.id = p_id;
        outcome := 'secret_changed'; RETURN;
    END IF;
    -- Constant time: every byte is compared (bit_or over all of them, no early exit).
    IF length(v.digest) = length(p_digest) AND (
        SELECT bit_or(get_byte(v.digest, i) # get_byte(p_digest, i))
        FROM generate_series(0, length(p_digest) - 1) AS i) = 0 THEN
        UPDATE smskit_verifications x SET attempts = x.attempts + 1, state = 'approved' WHERE x.id = p_id;
        IF v.range_key IS NOT NULL AND p_window IS NOT NULL THEN
            PERFORM smskit_hit('ra:' || v.range_key, NULL, p_window, p_now);
        END IF;
        outcome := 'approved'; r_e164 := v.e164; RETURN;
    END IF;
    UPDATE smskit_verifications x SET attempts = x.attempts + 1 WHERE x.id = p_id;
    IF p_fail_window IS NOT NULL AND NOT v.is_test THEN
        PERFORM smskit_hit('f:' || v.e164, NULL, p_fail_window, p_now);
    END IF;
    outcome := 'incorrect'; r_left := greatest(0, v.max_attempts - v.attempts - 1);
END $$;

-- A verification's SMS with its queued parts (VerificationStore.recordMessage, and
-- StartRequest.message in the start's statement, so in its transaction).
CREATE OR REPLACE FUNCTION smskit_record_message(p_digest BYTEA, p_vid TEXT, p_sequence INTEGER, p_created BIGINT,
    p_locale TEXT, p_parts INTEGER[], p_states TEXT[], p_updated BIGINT[])
RETURNS INTEGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO smskit_messages (token_digest, verification_id, sequence, created_at, locale)
    VALUES (p_digest, p_vid, p_sequence, p_created, p_locale);
    INSERT INTO smskit_message_parts (token_digest, part, state, updated_at)
    SELECT p_digest, p.part, p.state, p.updated_at FROM unnest(p_parts, p_states, p_updated) AS p (part, state, updated_at);
    RETURN coalesce(array_length(p_parts, 1), 0);
END $$;

-- The event log. A cursor is the appending transaction's ID (pg_current_xact_id()) times 2^16 plus
-- the event's place in that transaction, so no store-wide lock is needed to draw one; readers take
-- only cursors below smskit_event_horizon(), the oldest transaction still running in their snapshot
-- (pg_snapshot_xmin) times 2^16. Every transaction under it has ended, and every transaction that
-- has not is at or above it: a reader that goes on from the last cursor it saw never skips an event
-- that commits later, whichever of two writers commits first.
--
-- Order per verification: every transaction that appends a verification's events takes the
-- verification's event lock (smskit_lock_events) before it writes anything, and holds it to its
-- commit, so the next writer's transaction ID, drawn after that commit, is higher: sequences and
-- cursors of one verification increase together. smskit_append_event checks it and refuses
-- (SQLSTATE 40001) an event that would sort before one already stored, which a transaction that
-- wrote before it locked could cause. 2^16 events a transaction and transaction IDs below 2^37
-- keep cursors exact in JSON numbers (doubles).

CREATE TABLE IF NOT EXISTS smskit_events (
    cursor BIGINT PRIMARY KEY,
    verification_id TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    kind TEXT NOT NULL,
    time BIGINT NOT NULL,
    details TEXT NOT NULL,
    UNIQUE (verification_id, sequence)
);

-- Earlier versions drew cursors from an identity column under a store-wide lock; their
-- cursors count events, so they stay below those of transaction IDs (old cursors work).
ALTER TABLE smskit_events ALTER COLUMN cursor DROP IDENTITY IF EXISTS;

CREATE INDEX IF NOT EXISTS smskit_events_time ON smskit_events (time);

CREATE OR REPLACE FUNCTION smskit_lock_events(p_vid TEXT) RETURNS VOID LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtextextended('smskit_events:' || p_vid, 0))
$$;

CREATE OR REPLACE FUNCTION smskit_event_horizon() RETURNS BIGINT LANGUAGE sql STABLE AS $$
    SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 65536
$$;

CREATE OR REPLACE FUNCTION smskit_append_event(p_vid TEXT, p_kind TEXT, p_time BIGINT, p_details TEXT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    seq INTEGER;
    last_cursor BIGINT;
    base BIGINT;
    c BIGINT;
BEGIN
    PERFORM smskit_lock_events(p_vid);
    SELECT e.sequence, e.cursor INTO seq, last_cursor FROM smskit_events e WHERE e.verification_id = p_vid
        ORDER BY e.sequence DESC LIMIT 1;
    base := pg_current_xact_id()::text::bigint;
    IF base >= 137438953472 THEN
        RAISE EXCEPTION 'transaction IDs have outgrown event cursors' USING ERRCODE = 'program_limit_exceeded';
    END IF;
    base := base * 65536;
    -- Cursors from base up are this transaction's own (the next comes after them).
    IF last_cursor >= base + 65536 THEN
        RAISE EXCEPTION 'an event of this verification was appended by a later transaction; retry'
            USING ERRCODE = 'serialization_failure';
    END IF;
    SELECT coalesce(max(e.cursor) + 1, base) INTO c FROM smskit_events e
        WHERE e.cursor >= base AND e.cursor < base + 65536;
    IF c >= base + 65536 THEN
        RAISE EXCEPTION 'too many events in one transaction' USING ERRCODE = 'program_limit_exceeded';
    END IF;
    INSERT INTO smskit_events (cursor, verification_id, sequence, kind, time, details)
    VALUES (c, p_vid, coalesce(seq, 0) + 1, p_kind, p_time, p_details);
    RETURN c;
END $$;

-- CheckRequest.events(for:) for a wrong code: incorrect_code, then max_attempts when none is left.
CREATE OR REPLACE FUNCTION smskit_append_incorrect(p_vid TEXT, p_time BIGINT, p_left INTEGER)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    c BIGINT;
BEGIN
    c := smskit_append_event(p_vid, 'incorrect_code', p_time, json_build_object('attempts_left', p_left)::text);
    IF p_left = 0 THEN c := smskit_append_event(p_vid, 'max_attempts', p_time, '{}'); END IF;
    RETURN c;
END $$;

-- VerificationEventStore.expiryLookback: expired, once each, for open verifications that ended.
CREATE OR REPLACE FUNCTION smskit_report_expiries(p_now BIGINT, p_since BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    v RECORD;
    n BIGINT := 0;
BEGIN
    FOR v IN SELECT x.id, x.expires_at FROM smskit_verifications x
        WHERE x.expires_at <= p_now AND x.expires_at > p_since AND x.state = 'open'
          AND x.attempts < x.max_attempts
          AND NOT EXISTS (SELECT 1 FROM smskit_events e WHERE e.verification_id = x.id AND e.kind = 'expired')
        ORDER BY x.expires_at, x.id LIMIT 10000
    LOOP
        -- After its first event this transaction has an ID, so a verification another
        -- transaction holds or wrote to since is left to the next sweep (a transaction
        -- of its own) rather than waited for or ordered before that event.
        CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('smskit_events:' || v.id, 0));
        CONTINUE WHEN pg_current_xact_id_if_assigned() IS NOT NULL AND EXISTS (
            SELECT 1 FROM smskit_events e WHERE e.verification_id = v.id
              AND e.cursor >= (pg_current_xact_id_if_assigned()::text::bigint + 1) * 65536);
        PERFORM smskit_append_event(v.id, 'expired', v.expires_at, '{}');
        n := n + 1;
    END LOOP;
    RETURN n;
END $$;

-- Webhook delivery state. smskit_claim_webhook queues new events under a row lock on the webhook's
-- cursor (so two processes never queue one event twice), only below the event horizon (as event
-- readers do, so none that commits later is skipped), then leases the due deliveries that no
-- earlier undelivered event of their verification holds back, skipping rows another claimer has
-- locked (FOR UPDATE SKIP LOCKED).

CREATE TABLE IF NOT EXISTS smskit_webhook_cursors (
    webhook TEXT PRIMARY KEY,
    cursor BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS smskit_webhook_deliveries (
    webhook TEXT NOT NULL,
    cursor BIGINT NOT NULL,
    verification_id TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    queued_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    lease_until BIGINT NOT NULL,
    dead BOOLEAN NOT NULL,
    PRIMARY KEY (webhook, cursor)
);

CREATE INDEX IF NOT EXISTS smskit_webhook_deliveries_verification
    ON smskit_webhook_deliveries (webhook, verification_id, cursor);

CREATE INDEX IF NOT EXISTS smskit_webhook_deliveries_queued ON smskit_webhook_deliveries (queued_at);

CREATE OR REPLACE FUNCTION smskit_claim_webhook(p_webhook TEXT, p_now BIGINT, p_lease_until BIGINT, p_limit INTEGER)
RETURNS TABLE (r_attempts INTEGER, r_queued_at BIGINT, r_cursor BIGINT, r_verification_id TEXT,
               r_sequence INTEGER, r_kind TEXT, r_time BIGINT, r_details TEXT)
LANGUAGE plpgsql AS $$
DECLARE
    last BIGINT;
    newest BIGINT;
BEGIN
    INSERT INTO smskit_webhook_cursors (webhook, cursor) VALUES (p_webhook, 0) ON CONFLICT DO NOTHING;
    SELECT w.cursor INTO last FROM smskit_webhook_cursors w WHERE w.webhook = p_webhook FOR UPDATE;
    SELECT max(n.cursor) INTO newest FROM (SELECT e.cursor FROM smskit_events e WHERE e.cursor > last
        AND e.cursor < smskit_event_horizon() ORDER BY e.cursor LIMIT 1000) n;
    IF newest IS NOT NULL THEN
        INSERT INTO smskit_webhook_deliveries
        SELECT p_webhook, e.cursor, e.verification_id, 0, p_now, p_now, 0, false FROM smskit_events e
        WHERE e.cursor > last AND e.cursor <= newest ON CONFLICT DO NOTHING;
        UPDATE smskit_webhook_cursors w SET cursor = newest WHERE w.webhook = p_webhook;
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT d.cursor FROM smskit_webhook_deliveries d
        WHERE d.webhook = p_webhook AND NOT d.dead AND d.due_at <= p_now AND d.lease_until <= p_now
          AND NOT EXISTS (SELECT 1 FROM smskit_webhook_deliveries b WHERE b.webhook = p_webhook
                          AND b.verification_id = d.verification_id AND b.cursor < d.cursor AND NOT b.dead)
        ORDER BY d.cursor LIMIT p_limit FOR UPDATE SKIP LOCKED),
    leased AS (
        UPDATE smskit_webhook_deliveries d SET lease_until = p_lease_until FROM due
        WHERE d.webhook = p_webhook AND d.cursor = due.cursor RETURNING d.cursor, d.attempts, d.queued_at)
    SELECT l.attempts, l.queued_at, e.cursor, e.verification_id, e.sequence, e.kind, e.time, e.details
    FROM leased l JOIN smskit_events e ON e.cursor = l.cursor ORDER BY e.cursor;
END $$;
