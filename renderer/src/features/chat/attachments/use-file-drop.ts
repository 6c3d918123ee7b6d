import { useState, type ClipboardEvent, type DragEvent } from 'react';
import { useAttachments } from '../../../app/model-context.js';

const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/**
 * Drag-and-drop onto the composer and pasting files (a screenshot from the clipboard) into the message
 * box. Plain text pastes and drags are left alone. `dragging` lets the composer show where to drop.
 */
export function useFileDrop(disabled: boolean | undefined) {
  const add = useAttachments((state) => state.add);
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    dropTarget: {
      onDragOver(event: DragEvent<HTMLElement>) {
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      },
      onDragLeave(event: DragEvent<HTMLElement>) {
        // Leaving for a child of the composer is not leaving the composer.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      },
      onDrop(event: DragEvent<HTMLElement>) {
        setDragging(false);
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        add([...event.dataTransfer.files]);
      },
    },
    onPaste(event: ClipboardEvent<HTMLElement>) {
      const files = [...(event.clipboardData?.files ?? [])];
      if (disabled || files.length === 0) return;
      event.preventDefault();
      add(files);
    },
  };
}
