/**
 * What happened, at info level, for `fermix logs`: approvals asked and answered, provider fallbacks,
 * and the settings changes made through the API (providers, plugins, MCP servers).
 * Turns log themselves (agent-service.ts). Only names and outcomes are logged — never arguments, keys
 * or message text (the logger redacts secrets too, but nothing secret should reach it).
 */
import type { EventEnvelope } from '../api/events.js';

interface InfoLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
}

const EVENT_LINES: Record<string, string> = {
  'approval.requested': 'approval requested',
  'approval.resolved': 'approval answered',
  'directory_access.requested': 'folder access requested',
  'directory_access.settled': 'folder access answered',
};

/** Subscribe with `events.subscribe(activityEventLogger(logger))`. */
export function activityEventLogger(logger: InfoLogger): (event: EventEnvelope) => void {
  return (event) => {
    const payload = (event.payload ?? {}) as Record<string, unknown>;
    const line = EVENT_LINES[event.type];
    if (line) {
      const { summary: _summary, message: _message, reason: _reason, token: _token, ...fields } = payload;
      logger.info(line, { stream: event.stream, ...fields });
    } else if (event.type === 'chat.warning' && payload.code === 'provider_fallback') {
      logger.info('provider fallback', { stream: event.stream, turn_id: payload.turn_id, message: payload.message });
    }
  };
}

/** Methods that change what the agent can do or which model it talks to; their successful calls are logged by name. */
const LOGGED_METHODS = /^(providers\.(add|remove|set_primary|set_model|set_key)|plugins\.(enable|disable|install|uninstall|upgrade|pin|reload)|mcp\.[a-z_]+_(add|remove|enable|disable)|mcp\.(add|remove|enable|disable|reload)|sessions\.rotate|system\.rotate_token)$/;

/** Logs a settings change after it succeeded: which method, which provider/plugin/server (by name only). */
export function logSettingsChange(logger: InfoLogger, method: string, input: unknown, transport: string | undefined): void {
  if (!LOGGED_METHODS.test(method)) return;
  const fields = (input ?? {}) as Record<string, unknown>;
  const name = typeof fields.name === 'string' ? fields.name : undefined;
  logger.info('settings changed', { method, ...(name ? { name } : {}), ...(typeof fields.model === 'string' ? { model: fields.model } : {}), transport: transport ?? null });
}
