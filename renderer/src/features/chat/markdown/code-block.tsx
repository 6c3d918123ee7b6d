import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { CodePiece } from './highlighter.js';

/**
 * Longer blocks stay plain: highlighting is a nicety, and a block that grows with every streamed delta
 * is re-highlighted each time, so the cap keeps streaming cheap (20,000 characters ≈ 500 lines).
 */
export const HIGHLIGHT_MAX_CHARS = 20_000;

type Highlighter = typeof import('./highlighter.js');
let highlighter: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

/**
 * The grammars are a chunk of their own, fetched the first time a code block is shown. A failed fetch (the
 * daemon restarted mid-rebuild, or serves a newer build with another chunk name) leaves the code plain and
 * is forgotten, so the next code block shown tries again.
 */
function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlighter.js').then(
    (module) => (highlighter = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function renderPieces(pieces: CodePiece[]): ReactNode[] {
  return pieces.map((piece, index) => (typeof piece === 'string' ? piece : <span key={index} className={piece.className}>{renderPieces(piece.children)}</span>));
}

function useHighlighted(text: string, lang: string): CodePiece[] | null {
  const wanted = Boolean(lang) && text.length <= HIGHLIGHT_MAX_CHARS;
  const [ready, setReady] = useState(highlighter !== null);
  useEffect(() => {
    if (!wanted || ready) return;
    let live = true;
    loadHighlighter().then(
      () => live && setReady(true),
      () => undefined, // stays plain text: readable, only not coloured
    );
    return () => {
      live = false;
    };
  }, [wanted, ready]);
  return useMemo(() => (wanted && ready && highlighter ? highlighter.highlightCode(text, lang) : null), [wanted, ready, text, lang]);
}

export function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const pieces = useHighlighted(text, lang);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <figure className="code-block">
      <figcaption>
        <span className="code-lang">{lang || 'text'}</span>
        <button type="button" className="link-button" onClick={copy} aria-label={`Copy ${lang || 'text'} code`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </figcaption>
      <pre tabIndex={0}>
        <code>{pieces ? renderPieces(pieces) : text}</code>
      </pre>
    </figure>
  );
}
