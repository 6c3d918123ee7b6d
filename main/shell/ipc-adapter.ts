// Adapts Electron IPC to the daemon's one dispatcher: one invoke channel, one event channel (ARCHITECTURE §3).
import { ipcMain, type WebContents } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../api/channels.js';
import type { Dispatcher, DispatchResult } from '../api/dispatcher.js';
import type { EventEnvelope } from '../api/events.js';
import { isAppUrl } from './app-origin.js';

export interface IpcAdapterOptions {
  dispatcher: Dispatcher;
  subscribe(listener: (event: EventEnvelope) => void): () => void;
  /** The web contents that may receive events; only those showing our origin get them. */
  targets(): WebContents[];
}

export interface IpcAdapter {
  /** Sends a shell-originated event (e.g. push-to-talk) on the same channel as daemon events. */
  broadcast(event: EventEnvelope): void;
  detach(): void;
}

const refusedSender: DispatchResult = {
  ok: false,
  error: {
    code: 'forbidden_sender',
    message: 'Only the Fermix window may call the daemon.',
    hint: 'Use the Fermix window; pages opened from links have no access to the daemon.',
  },
};

export function attachIpcAdapter(options: IpcAdapterOptions): IpcAdapter {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, method: unknown, input: unknown): Promise<DispatchResult> => {
    // The preload only runs in our window, but a frame inside it (or a page it navigated to) shares the
    // renderer process; the frame's own URL is what proves the call comes from the app.
    if (!isAppUrl(event.senderFrame?.url)) return refusedSender;
    if (typeof method !== 'string') {
      return { ok: false, error: { code: 'invalid_input', message: 'The method name must be a string.', hint: 'Call window.fermix.invoke("<domain>.<verb>", input).' } };
    }
    return options.dispatcher.dispatch(method, input, { transport: 'ipc', trust: 'operator' });
  });

  const broadcast = (event: EventEnvelope) => {
    for (const contents of options.targets()) {
      if (!contents.isDestroyed() && isAppUrl(contents.getURL())) contents.send(IPC_EVENT_CHANNEL, event);
    }
  };
  const unsubscribe = options.subscribe(broadcast);

  return {
    broadcast,
    detach() {
      ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
      unsubscribe();
    },
  };
}
