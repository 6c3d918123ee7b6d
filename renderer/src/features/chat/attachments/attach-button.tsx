import { useRef } from 'react';
import { Icon } from '../../../ui/icons.js';

/**
 * The composer's paperclip: a real button (keyboard: Tab, Enter/Space) that opens the system file picker
 * through a hidden <input type="file" multiple>. The input is reset after each pick so the same file can
 * be picked again after it was removed.
 */
export function AttachButton({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <>
      <button type="button" className="icon-button attach-button" onClick={() => input.current?.click()} disabled={disabled} aria-label="Attach files" title="Attach files (or drop or paste them here)">
        <Icon name="paperclip" size={18} />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        aria-label="Files to attach"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
