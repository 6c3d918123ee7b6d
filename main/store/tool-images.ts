/**
 * Tool-result images for chat.history, so a reloaded window shows the screenshots the live view showed.
 * The bytes are already stored with the tool message (`messages.data`, the images the loop replays to the
 * model), so nothing is written twice. A page returns only the newest HISTORY_TOOL_IMAGES_KEPT images of the
 * whole conversation — the same 3 the model still sees and the computer_use runtime keeps — because a
 * page of 200 messages from a long browser session would otherwise carry dozens of multi-megabyte PNGs
 * in one answer; older results say how many images they had (`images_omitted`).
 */
import type { Database } from './database.js';

export const HISTORY_TOOL_IMAGES_KEPT = 3;

export interface HistoryToolImage {
  mime_type: string;
  base64: string;
}

/** message id → its images still shown and how many older ones are not, for the given tool messages. */
export function toolImagesOf(db: Database, conversationId: string, toolMessageIds: readonly number[]): Map<number, { images: HistoryToolImage[]; omitted: number }> {
  const out = new Map<number, { images: HistoryToolImage[]; omitted: number }>();
  if (toolMessageIds.length === 0) return out;
  const marks = toolMessageIds.map(() => '?').join(',');
  // json_* read only the rows' JSON, never the rows of other conversations; invalid data reads as no images.
  const counted = db.all<{ id: number; n: number }>(
    `SELECT id, json_array_length(data, '$.images') AS n FROM messages WHERE conversation_id = ? AND role = 'tool' AND id IN (${marks}) AND json_valid(data) AND json_type(data, '$.images') = 'array'`,
    [conversationId, ...toolMessageIds],
  ).filter((row) => row.n > 0);
  if (counted.length === 0) return out;
  // Newest first, stopping at the third result that has images: a long conversation is not read whole.
  const newest = db.all<{ id: number; n: number }>(
    `SELECT id, json_array_length(data, '$.images') AS n FROM messages WHERE conversation_id = ? AND role = 'tool' AND json_valid(data) AND json_type(data, '$.images') = 'array' AND json_array_length(data, '$.images') > 0 ORDER BY id DESC LIMIT ?`,
    [conversationId, HISTORY_TOOL_IMAGES_KEPT],
  );
  const keep = new Map<number, number>();
  let left = HISTORY_TOOL_IMAGES_KEPT;
  for (const row of newest) {
    const take = Math.min(left, row.n);
    keep.set(row.id, take);
    left -= take;
  }
  for (const row of counted) {
    const take = keep.get(row.id) ?? 0;
    let images: HistoryToolImage[] = [];
    if (take > 0) {
      const stored = db.get<{ images: string }>(`SELECT json_extract(data, '$.images') AS images FROM messages WHERE id = ?`, [row.id]);
      const parsed = JSON.parse(stored?.images ?? '[]') as { mimeType?: unknown; base64?: unknown }[];
      images = parsed.slice(parsed.length - take).flatMap((image) => (typeof image.mimeType === 'string' && typeof image.base64 === 'string' ? [{ mime_type: image.mimeType, base64: image.base64 }] : []));
    }
    out.set(row.id, { images, omitted: row.n - images.length });
  }
  return out;
}
