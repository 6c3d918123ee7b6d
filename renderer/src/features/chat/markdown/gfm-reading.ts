import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
// Types only (react-markdown's own processor type); nothing of unified is bundled from here.
import type { Processor } from 'unified';

/**
 * remark-gfm without its markdown writer: remark-gfm also registers GFM serialisation
 * (mdast-util-to-markdown, markdown-table: ~12 KB gzip in the window's first chunk) that a renderer
 * never calls. The same two parsing extensions remark-gfm uses, nothing else.
 */
export function gfmReading(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
