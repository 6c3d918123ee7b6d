import { useMemo, useState } from 'react';
import { highlight } from './highlight.js';

export function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const tokens = useMemo(() => highlight(text, lang), [text, lang]);
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
        <code>
          {tokens.map((token, index) => (token.kind === 'plain' ? token.text : <span key={index} className={`tok-${token.kind}`}>{token.text}</span>))}
        </code>
      </pre>
    </figure>
  );
}
