/** A conversation's provisional title: the first line of its first message, cut at a word under 50 characters. */
export function firstWords(message: string, max = 50): string {
  const line = (message.trim().split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line || 'New conversation';
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?-]+$/, '')}…`;
}
