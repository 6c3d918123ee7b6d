/** The two Electron IPC channels (ARCHITECTURE §3): one for invoke, one for events. The preload knows only these. */
export const IPC_INVOKE_CHANNEL = 'fermix:invoke';
export const IPC_EVENT_CHANNEL = 'fermix:event';
