/**
 * Stored messages → the AI SDK's ModelMessage list, checked before EVERY request (issue 4 item 2):
 * each tool result must follow the assistant message that made its call, and every call must have a
 * result before the next assistant or user message. Providers reject a history that breaks this, and
 * a turn stopped mid-tool or a daemon killed mid-turn leaves exactly that, so the check repairs:
 * a call without a result gets an `interrupted` result, a result without its call is dropped. Each
 * repair is reported so it can be logged.
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

  for (const message of messages) {
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
      const images = message.images ?? [];
      let output: ToolResultPart['output'];
      if (images.length > 0 && options.acceptsImages && options.imagesInToolResults) {
        output = { type: 'content', value: [{ type: 'text', text: message.text }, ...images.map((image) => ({ type: 'image-data' as const, data: image.base64, mediaType: image.mimeType }))] };
      } else {
        const note = images.length > 0 && !options.acceptsImages ? `\n${imageNote(images.length)}` : '';
        output = message.isError ? { type: 'error-text', value: message.text + note } : { type: 'text', value: message.text + note };
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
