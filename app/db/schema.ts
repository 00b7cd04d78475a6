/**
 * Kysely table types. Each feature adds its tables here together with a migration in ./migrations.
 * Timestamps are stored as ISO-8601 text on SQLite and timestamptz on PostgreSQL; code reads them as strings
 * or Dates through the helpers that own each table.
 */
export interface Database {
  app_meta: AppMetaTable;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

// --- analytics ---
// Declaration merging adds the table to Database here, so this block stays append-only.
export interface Database {
  analytics_events: AnalyticsEventsTable;
}

/** One first-party analytics event: its name, its validated parameters as JSON, when it arrived (ISO-8601). */
export interface AnalyticsEventsTable {
  id: string;
  name: string;
  params: string;
  received_at: string;
}
