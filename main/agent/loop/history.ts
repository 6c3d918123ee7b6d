/**
 * Stored messages → the AI SDK's ModelMessage list, checked before EVERY request (issue 4 item 2):
 * each tool result must follow the assistant message that made its call, and every call must have a
 * result before the next assistant or user message. Providers reject a history that breaks this, and
 * a turn stopped mid-tool or a daemon killed mid-turn leaves exactly that, so the check repairs:
 * a call without a result gets an `interrupted` result, a result without its call is dropped. Each
 * repair is reported so it can be logged. Only the newest 3 tool-result images are sent (keptToolImages).
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import type { StoredImage, StoredMessage } from '../../store/turns.js';
import { userMessageParts, type AttachmentConvertOptions } from './user-attachments.js';

export interface HistoryRepair {
  kind: 'missing_result' | 'orphan_result' | 'duplicate_result';
  call_id: string;
}

export const INTERRUPTED_RESULT = 'Error [interrupted]: this tool call did not finish (the turn was stopped or the daemon restarted). Do not assume it ran.';

/** Repairs the stored list so calls and results pair up. Pure; returns the repaired copy. */
export function checkHistory(messages: readonly StoredMessage[]): { messages: StoredMessage[]; repairs: HistoryRepair[] } {
  const out: StoredMessage[] = [];
  const repairs: HistoryRepair[] = [];
  let open: Map<string, string> | null = null; // call id → tool name, for the last assistant message
  let answered = new Set<string>();

  const closeOpen = () => {
    if (open === null) return;
    for (const [id, name] of open) {
      if (answered.has(id)) continue;
      out.push({ role: 'tool', callId: id, name, text: INTERRUPTED_RESULT, isError: true });
      repairs.push({ kind: 'missing_result', call_id: id });
    }
    open = null;
    answered = new Set();
  };

  for (const message of messages) {
    if (message.role === 'tool') {
      if (open === null || !open.has(message.callId)) {
        repairs.push({ kind: 'orphan_result', call_id: message.callId });
        continue;
      }
      if (answered.has(message.callId)) {
        repairs.push({ kind: 'duplicate_result', call_id: message.callId });
        continue;
      }
      answered.add(message.callId);
      out.push(message);
      continue;
    }
    closeOpen();
    out.push(message);
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      open = new Map(message.toolCalls.map((call) => [call.id, call.name]));
    }
  }
  closeOpen();
  return { messages: out, repairs };
}

export interface ConvertOptions extends AttachmentConvertOptions {
  /** Anthropic takes images inside tool results; chat-completions providers get them in a user message. */
  imagesInToolResults: boolean;
  acceptsImages: boolean;
}

function imageNote(count: number): string {
  return `[${count} image(s) omitted: this model does not accept images]`;
}

/** Tool-result images the model sees per request (the computer_use runtime keeps 3 screenshots too). */
export const MODEL_TOOL_IMAGES_KEPT = 3;
export const SCREENSHOT_OMITTED = '[screenshot omitted — a newer one follows]';

/**
 * message index → the images of that tool result the model still sees: the newest
 * MODEL_TOOL_IMAGES_KEPT across the window, whichever tool returned them. Every screenshot of a long
 * browser or computer_use turn would otherwise ride along in each request until compaction, and each
 * costs as much context as a page of text. The result itself stays (with a note), so calls and results
 * still pair up in both wire formats.
 */
function keptToolImages(messages: readonly StoredMessage[]): Map<number, StoredImage[]> {
  const kept = new Map<number, StoredImage[]>();
  let left = MODEL_TOOL_IMAGES_KEPT;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message.role !== 'tool' || !message.images?.length) continue;
    const take = Math.min(left, message.images.length);
    kept.set(index, take > 0 ? message.images.slice(message.images.length - take) : []);
    left -= take;
  }
  return kept;
}

/** Converts an already checked history. Consecutive tool results become one tool message. */
export function toModelMessages(messages: readonly StoredMessage[], options: ConvertOptions): ModelMessage[] {
  const out: ModelMessage[] = [];
  let pendingImages: { name: string; images: StoredImage[] }[] = [];

  const flushImages = () => {
    if (pendingImages.length === 0) return;
    const content: ({ type: 'text'; text: string } | { type: 'image'; image: string; mediaType: string })[] = [];
    for (const entry of pendingImages) {
      content.push({ type: 'text', text: `Image(s) returned by ${entry.name}:` });
      for (const image of entry.images) content.push({ type: 'image', image: image.base64, mediaType: image.mimeType });
    }
    out.push({ role: 'user', content });
    pendingImages = [];
  };

  const keptImages = keptToolImages(messages);
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'tool') flushImages();
    if (message.role === 'user') {
      const files = message.attachments ?? [];
      out.push({ role: 'user', content: files.length > 0 ? userMessageParts(message.text, files, options) : message.text });
    } else if (message.role === 'assistant') {
      const content: ({ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown })[] = [];
      if (message.text) content.push({ type: 'text', text: message.text });
      for (const call of message.toolCalls) content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args ?? {} });
      // An assistant message must say something; a partial answer cut to nothing is skipped.
      if (content.length > 0) out.push({ role: 'assistant', content });
    } else {
      const all = message.images ?? [];
      const images = options.acceptsImages ? (keptImages.get(index) ?? []) : all;
      const text = images.length < all.length ? `${message.text}\n${SCREENSHOT_OMITTED}` : message.text;
      let output: ToolResultPart['output'];
      if (images.length > 0 && options.acceptsImages && options.imagesInToolResults) {
        output = { type: 'content', value: [{ type: 'text', text }, ...images.map((image) => ({ type: 'image-data' as const, data: image.base64, mediaType: image.mimeType }))] };
      } else {
        const note = images.length > 0 && !options.acceptsImages ? `\n${imageNote(images.length)}` : '';
        output = message.isError ? { type: 'error-text', value: text + note } : { type: 'text', value: text + note };
        if (images.length > 0 && options.acceptsImages) pendingImages.push({ name: message.name, images });
      }
      const part: ToolResultPart = { type: 'tool-result', toolCallId: message.callId, toolName: message.name, output };
      const last = out.at(-1);
      if (last?.role === 'tool' && Array.isArray(last.content)) last.content.push(part);
      else out.push({ role: 'tool', content: [part] });
    }
  }
  flushImages();
  return out;
}
