/**
 * The composer's pending files (picked, dropped or pasted; checked against the daemon's limits before any
 * upload, in the daemon's own words) and the bytes of stored attachments, fetched by id with
 * attachments.get for inline images and downloads. Stored files never change, so a preview is cached
 * for the window's life.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { MAX_ATTACHMENTS_PER_MESSAGE, MODEL_IMAGE_TYPES, checkAttachmentsBeforeUpload, tooManyAttachments } from '../../../../../main/api/attachment-rules.js';
import type { WireError } from '../../../../../main/core/errors.js';
import type { ApiClient } from '../../../api/client.js';
import { downloadBlob } from '../../../ui/download.js';
import { toWireError } from '../../connection/store.js';
import type { PendingFile } from './attachment-types.js';
import { base64ToBytes } from './base64.js';

export type Preview = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; error: WireError };

export interface AttachmentsState {
  pending: PendingFile[];
  /** Why files were refused before upload (too large, too many, empty); cleared by the next good add. */
  refusal: WireError | null;
  /** attachment id → its image as a blob URL. */
  previews: Record<string, Preview>;
  /** The last download that failed, shown next to its button. */
  downloadError: { id: string; error: WireError } | null;
  add(files: readonly File[]): void;
  remove(key: string): void;
  dismissRefusal(): void;
  /** Hands the pending files to a send and empties the list (their preview URLs now belong to the message). */
  take(): PendingFile[];
  loadPreview(id: string): Promise<void>;
  download(id: string): Promise<void>;
}

const canPreview = () => typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';

export function createAttachmentsStore(client: ApiClient): StoreApi<AttachmentsState> {
  let counter = 0;

  const fetchBlob = async (id: string) => {
    const stored = await client.call('attachments.get', { id });
    return { stored, blob: new Blob([base64ToBytes(stored.base64)], { type: stored.mime_type }) };
  };

  return createStore<AttachmentsState>()((set, get) => ({
    pending: [],
    refusal: null,
    previews: {},
    downloadError: null,

    add(files) {
      const accepted: PendingFile[] = [];
      let refusal: WireError | null = null;
      const fitting = files.filter((file) => {
        const problem = checkAttachmentsBeforeUpload([file]);
        refusal ??= problem?.toWire() ?? null;
        return problem === null;
      });
      const room = MAX_ATTACHMENTS_PER_MESSAGE - get().pending.length;
      if (fitting.length > room) refusal ??= tooManyAttachments(get().pending.length + fitting.length).toWire();
      for (const file of fitting.slice(0, Math.max(0, room))) {
        const type = file.type || 'application/octet-stream';
        const previewUrl = MODEL_IMAGE_TYPES.includes(type) && canPreview() ? URL.createObjectURL(file) : null;
        accepted.push({ key: `p${++counter}`, file, name: file.name || 'pasted file', size: file.size, type, previewUrl });
      }
      set({ pending: [...get().pending, ...accepted], refusal });
    },

    remove(key) {
      const gone = get().pending.find((file) => file.key === key);
      if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
      set({ pending: get().pending.filter((file) => file.key !== key) });
    },

    dismissRefusal() {
      set({ refusal: null });
    },

    take() {
      const files = get().pending;
      set({ pending: [], refusal: null });
      return files;
    },

    async loadPreview(id) {
      const current = get().previews[id];
      if (current && current.state !== 'failed') return;
      set({ previews: { ...get().previews, [id]: { state: 'loading' } } });
      try {
        const { blob } = await fetchBlob(id);
        const url = canPreview() ? URL.createObjectURL(blob) : '';
        set({ previews: { ...get().previews, [id]: { state: 'ready', url } } });
      } catch (error) {
        set({ previews: { ...get().previews, [id]: { state: 'failed', error: toWireError(error) } } });
      }
    },

    async download(id) {
      set({ downloadError: null });
      try {
        const { stored, blob } = await fetchBlob(id);
        downloadBlob(stored.filename, blob);
      } catch (error) {
        set({ downloadError: { id, error: toWireError(error) } });
      }
    },
  }));
}
