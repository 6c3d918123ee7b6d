import { downloadBlob } from '../../ui/download.js';

/** Saves text as a file through the browser's download (Electron shows its save dialog). */
export function downloadText(filename: string, content: string, mimeType: string): void {
  downloadBlob(filename, new Blob([content], { type: `${mimeType};charset=utf-8` }));
}
