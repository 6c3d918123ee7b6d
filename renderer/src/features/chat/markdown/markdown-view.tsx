import { memo, useMemo, type ReactNode } from 'react';
import { CodeBlock } from './code-block.js';
import { parseMarkdown, type Block, type Inline } from './parse-markdown.js';

/** Model text as elements (never as HTML). Memoized on the text: streaming re-parses only the message that grew. */
export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{renderBlocks(blocks)}</div>;
});

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, index) => renderBlock(block, index));
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${Math.min(6, block.level + 1)}` as 'h2';
      return <Tag key={key} className={`md-h${block.level}`}>{renderInline(block.children)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{renderInline(block.children)}</p>;
    case 'code':
      return <CodeBlock key={key} lang={block.lang} text={block.text} />;
    case 'quote':
      return <blockquote key={key}>{renderBlocks(block.children)}</blockquote>;
    case 'rule':
      return <hr key={key} />;
    case 'list': {
      const items = block.items.map((item, index) => (
        <li key={index} className={item.checked === null ? undefined : 'task'}>
          {item.checked !== null && <input type="checkbox" checked={item.checked} readOnly disabled aria-label={item.checked ? 'done' : 'not done'} />}
          {renderListItem(item.children)}
        </li>
      ));
      return block.ordered ? <ol key={key} start={block.start === 1 ? undefined : block.start}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'table':
      return (
        <div key={key} className="md-table">
          <table>
            <thead>
              <tr>{block.head.map((cell, index) => <th key={index} style={alignStyle(block.align[index])}>{renderInline(cell)}</th>)}</tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>{row.map((cell, index) => <td key={index} style={alignStyle(block.align[index])}>{renderInline(cell)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** A tight list item (one paragraph) renders without the paragraph margin. */
function renderListItem(children: Block[]): ReactNode {
  if (children.length === 1 && children[0].type === 'paragraph') return renderInline(children[0].children);
  return renderBlocks(children);
}

function alignStyle(align: 'left' | 'center' | 'right' | null) {
  return align ? { textAlign: align } : undefined;
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'break':
        return <br key={index} />;
      case 'code':
        return <code key={index}>{node.text}</code>;
      case 'strong':
        return <strong key={index}>{renderInline(node.children)}</strong>;
      case 'em':
        return <em key={index}>{renderInline(node.children)}</em>;
      case 'del':
        return <del key={index}>{renderInline(node.children)}</del>;
      case 'link':
        // Opens outside the app: the Electron shell hands it to the system browser, a browser opens a tab.
        return (
          <a key={index} href={node.href} target="_blank" rel="noopener noreferrer" title={node.href}>
            {renderInline(node.children)}
          </a>
        );
    }
  });
}
