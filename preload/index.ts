// The whole bridge between the sandboxed window and the daemon (ARCHITECTURE §3): two functions over two
// channels, no per-method code. The dispatcher in the main process validates every call, so nothing here
// needs to know the contract; adding an API method never touches this file.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../main/api/channels.js';

type EventListener = (event: unknown) => void;

const bridge = {
  invoke(method: string, input: unknown): Promise<unknown> {
    if (typeof method !== 'string') return Promise.reject(new TypeError('fermix.invoke: method must be a string'));
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, method, input);
  },
  subscribe(listener: EventListener): () => void {
    if (typeof listener !== 'function') throw new TypeError('fermix.subscribe: listener must be a function');
    // Only the payload crosses: the IpcRendererEvent carries `sender`, which must not reach page code.
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('fermix', bridge);
