import type { ConnectionPhase } from './store.js';

export const PHASE_LABELS: Record<ConnectionPhase, string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Not authorized',
  unreachable: 'Daemon not answering',
};
