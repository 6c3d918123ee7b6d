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
];
