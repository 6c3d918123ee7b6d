const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/gm;

/**
 * While an answer streams, its last paragraph often has an emphasis or inline code opened but not yet
 * closed (`Use **npm`): shown as typed, the markers flash as literal asterisks until the closing ones
 * arrive. Closing them for the render shows the words styled at once. Only the text after the last blank
 * line is looked at, never inside an open fence (CommonMark runs that to the end by itself), and the
 * stored text is not changed.
 */
export function closeStreamingMarkdown(text: string): string {
  if ((text.match(FENCE_LINE)?.length ?? 0) % 2 === 1) return text;
  const tail = text.slice(text.lastIndexOf('\n\n') + 1);
  const ticks = tail.match(/`/g)?.length ?? 0;
  if (ticks % 2 === 1) return `${text}\``;
  const code = tail.replace(/`[^`]*`/g, '');
  let closing = '';
  if ((code.match(/\*\*/g)?.length ?? 0) % 2 === 1 && !/\*\*\s*$/.test(code)) closing += '**';
  if ((code.match(/~~/g)?.length ?? 0) % 2 === 1 && !/~~\s*$/.test(code)) closing = `~~${closing}`;
  return closing ? `${text.replace(/\s+$/, '')}${closing}` : text;
}
