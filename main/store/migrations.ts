/** Versioned schema migrations. Append only: never edit a migration that has shipped. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'conversations, messages, audit',
    statements: [
      `CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL,
        data TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX messages_by_conversation ON messages (conversation_id, id)',
      `CREATE TABLE audit_records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time TEXT NOT NULL,
        conversation_id TEXT,
        trust TEXT NOT NULL,
        origin TEXT NOT NULL,
        capability TEXT NOT NULL,
        kind TEXT NOT NULL,
        policy_class TEXT,
        decision TEXT NOT NULL,
        rule TEXT,
        args TEXT,
        duration_ms REAL,
        result_bytes INTEGER,
        error_code TEXT,
        extra TEXT
      )`,
      'CREATE INDEX audit_by_time ON audit_records (time)',
      'CREATE INDEX audit_by_capability ON audit_records (capability, time)',
    ],
  },
  {
    version: 2,
    name: 'agent turns, tool calls, model usage, parked approvals',
    statements: [
      // Which turn wrote a message: the loop rebuilds a parked turn's history from it after a restart.
      'ALTER TABLE messages ADD COLUMN turn_id TEXT',
      `CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'parked', 'completed', 'partial', 'failed', 'stopped', 'interrupted')),
        options TEXT NOT NULL,
        provider TEXT,
        model TEXT,
        iterations INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL,
        stop_reason TEXT,
        error_code TEXT,
        error_message TEXT,
        error_hint TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT
      )`,
      'CREATE INDEX turns_by_conversation ON turns (conversation_id, created_at)',
      'CREATE INDEX turns_by_status ON turns (status)',
      `CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        requested_name TEXT NOT NULL,
        name TEXT NOT NULL,
        args TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'parked', 'ok', 'error', 'cancelled')),
        error_code TEXT,
        result_preview TEXT,
        duration_ms REAL,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        UNIQUE (turn_id, call_id)
      )`,
      `CREATE TABLE model_calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        finish_reason TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cost_usd REAL,
        duration_ms REAL,
        error_code TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX model_calls_by_turn ON model_calls (turn_id, id)',
      // One row per parked call; it survives a restart so the turn can ask again and resume.
      `CREATE TABLE parked_approvals (
        turn_id TEXT PRIMARY KEY REFERENCES turns(id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        approval_id TEXT NOT NULL,
        capability TEXT NOT NULL,
        reason TEXT NOT NULL,
        card TEXT NOT NULL,
        parked_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    name: 'chat attachments',
    statements: [
      // No foreign key to conversations: send_attachment may run under a conversation id that has no row
      // (a CLI call), and its file must still be recorded.
      `CREATE TABLE attachments (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
        filename TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        path TEXT NOT NULL,
        turn_id TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX attachments_by_conversation ON attachments (conversation_id, created_at)',
      // An upload is staged (turn_id NULL) until a chat.send claims it; the sweep looks them up by this.
      'CREATE INDEX attachments_by_turn ON attachments (turn_id)',
    ],
  },
  {
    version: 4,
    name: 'conversation compactions',
    statements: [
      // A summary that stands in for messages id <= through_message_id in model calls; the messages
      // themselves stay for the person (the window shows a marker where the cut is).
      `CREATE TABLE compactions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        through_message_id INTEGER NOT NULL,
        summary TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('auto', 'manual', 'overflow')),
        replaced_messages INTEGER NOT NULL,
        tokens_before INTEGER NOT NULL,
        tokens_after INTEGER NOT NULL,
        provider TEXT,
        model TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX compactions_by_conversation ON compactions (conversation_id, id)',
    ],
  },
  {
    version: 6,
    name: 'mcp tool pins',
    statements: [
      // Tool-definition pinning (main/mcp/pin-store.ts): the accepted definition of each outbound MCP
      // tool, and the hash of a changed one the person declined (so one update is asked about once).
      `CREATE TABLE mcp_tool_pins (
        server TEXT NOT NULL,
        tool TEXT NOT NULL,
        hash TEXT NOT NULL,
        definition TEXT NOT NULL,
        pinned_at TEXT NOT NULL,
        blocked_hash TEXT,
        PRIMARY KEY (server, tool)
      )`,
    ],
  },
  {
    version: 7,
    // 7, not 5: homes that already ran 6 (committed first) would skip a 5 appended after it.
    name: 'conversation pins, title source, soft delete, full-text search',
    statements: [
      'ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0',
      // auto: first words (the daemon may replace it with a model-written title once); model; user (renamed).
      "ALTER TABLE conversations ADD COLUMN title_source TEXT NOT NULL DEFAULT 'user'",
      // Delete is undoable for a while: a deleted row is hidden, then purged (store.purgeDeleted).
      'ALTER TABLE conversations ADD COLUMN deleted_at TEXT',
      // Search by message text: an external-content index over messages, kept in step by triggers.
      "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
      'CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END',
      "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); END",
      "CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
      "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')",
    ],
  },
  {
    version: 8,
    name: 'memories with full-text search',
    statements: [
      // One row per (agent, scope, key): memory_store's admission pipeline de-duplicates on exactly this
      // (reference §2.7 step 6). written_by keeps a guest's memories apart: they never reach the owner's prompt.
      `CREATE TABLE memories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        agent_id TEXT NOT NULL,
        scope_type TEXT NOT NULL CHECK (scope_type IN ('owner', 'agent', 'conversation', 'job')),
        scope_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        category TEXT NOT NULL,
        confidence REAL NOT NULL,
        promote_target TEXT NOT NULL CHECK (promote_target IN ('user_md', 'memory_md', 'none')),
        written_by TEXT NOT NULL CHECK (written_by IN ('operator', 'guest')),
        source_type TEXT NOT NULL,
        source_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (agent_id, scope_type, scope_id, key)
      )`,
      'CREATE INDEX memories_by_scope ON memories (scope_type, scope_id, updated_at)',
      // Same style as messages_fts (migration 7): external content, kept in step by triggers.
      "CREATE VIRTUAL TABLE memories_fts USING fts5(key, value, content='memories', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
      'CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN INSERT INTO memories_fts(rowid, key, value) VALUES (new.id, new.key, new.value); END',
      "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN INSERT INTO memories_fts(memories_fts, rowid, key, value) VALUES ('delete', old.id, old.key, old.value); END",
      "CREATE TRIGGER memories_fts_update AFTER UPDATE OF key, value ON memories BEGIN INSERT INTO memories_fts(memories_fts, rowid, key, value) VALUES ('delete', old.id, old.key, old.value); INSERT INTO memories_fts(rowid, key, value) VALUES (new.id, new.key, new.value); END",
    ],
  },
  {
    version: 9,
    name: 'scheduled jobs and their runs',
    statements: [
      // Trust and role are stamped at creation (reference §2.8): a run's policy comes from them, never
      // from the model. next_run_at is epoch milliseconds so the due query is one indexed comparison.
      `CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        schedule TEXT NOT NULL,
        timezone TEXT NOT NULL,
        task TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'paused', 'disabled', 'expired', 'done')),
        trust TEXT NOT NULL CHECK (trust IN ('operator', 'guest')),
        role TEXT NOT NULL,
        allowed_tools TEXT,
        skill_name TEXT,
        provider TEXT,
        model TEXT,
        timeout_seconds INTEGER NOT NULL,
        inactivity_timeout_seconds INTEGER,
        delivery_mode TEXT NOT NULL,
        delivery_target TEXT,
        origin_conversation_id TEXT,
        expires_at INTEGER,
        next_run_at INTEGER,
        last_run_at INTEGER,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      'CREATE INDEX jobs_due ON jobs (state, next_run_at)',
      `CREATE TABLE job_runs (
        id TEXT PRIMARY KEY,
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual')),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'ok', 'error')),
        scheduled_for INTEGER,
        queued_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        prompt TEXT NOT NULL,
        conversation_id TEXT,
        turn_id TEXT,
        response TEXT,
        silent INTEGER NOT NULL DEFAULT 0,
        tool_failures INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL,
        error_code TEXT,
        error_message TEXT,
        error_hint TEXT
      )`,
      'CREATE INDEX job_runs_by_job ON job_runs (job_id, queued_at)',
    ],
  },
];
