/**
 * The chat's slash commands, handled in the window (never sent to the model). Names and meanings follow
 * the seed: /pause and /resume act on computer use (the session stays; actions are refused until
 * resumed), /stop ends the running turn, /confirm and /deny answer a folder request by its token.
 * `/pause turn` and `/resume turn` hold and release the running turn itself (docs/decisions/0008).
 */
export type SlashCommand =
  | { name: 'stop' | 'pause' | 'resume' | 'help' | 'compact' }
  | { name: 'pause-turn' | 'resume-turn' }
  | { name: 'new'; title: string | undefined }
  | { name: 'confirm' | 'deny'; token: string }
  | { name: 'invalid'; message: string; hint: string };

export const SLASH_COMMANDS: { usage: string; summary: string }[] = [
  { usage: '/stop', summary: 'Stop the running turn and the ones queued behind it (also Escape).' },
  { usage: '/pause', summary: 'Pause computer use: the agent stops moving the pointer and typing until /resume.' },
  { usage: '/resume', summary: 'Resume computer use after /pause.' },
  { usage: '/pause turn', summary: 'Hold the running turn after the step under way (queued messages wait too).' },
  { usage: '/resume turn', summary: 'Let a held turn go on.' },
  { usage: '/compact', summary: 'Summarize the conversation for the model now (the messages stay here).' },
  { usage: '/new [title]', summary: 'Start a new conversation.' },
  { usage: '/confirm TOKEN', summary: 'Approve the folder request with that token.' },
  { usage: '/deny TOKEN', summary: 'Refuse the folder request with that token.' },
  { usage: '/help', summary: 'List these commands.' },
];

/** Null: an ordinary message. A leading "//" sends the text with one slash, as a message. */
export function parseSlashCommand(input: string): SlashCommand | null {
  const text = input.trim();
  if (!text.startsWith('/') || text.startsWith('//')) return null;
  const [word, ...rest] = text.slice(1).split(/\s+/);
  const argument = rest.join(' ').trim();
  switch (word.toLowerCase()) {
    case 'pause':
    case 'resume':
      if (argument.toLowerCase() === 'turn') return { name: `${word.toLowerCase() as 'pause' | 'resume'}-turn` };
      if (argument) return { name: 'invalid', message: `/${word.toLowerCase()} takes nothing, or "turn".`, hint: `/${word.toLowerCase()} acts on computer use; /${word.toLowerCase()} turn acts on the running turn.` };
      return { name: word.toLowerCase() as 'pause' };
    case 'stop':
    case 'help':
    case 'compact':
      if (argument && word.toLowerCase() === 'compact') return { name: 'invalid', message: '/compact takes nothing.', hint: 'Type /compact on its own to summarize this conversation for the model.' };
      return { name: word.toLowerCase() as 'stop' };
    case 'new':
      return { name: 'new', title: argument || undefined };
    case 'confirm':
    case 'deny': {
      const token = argument.split(/\s+/)[0] ?? '';
      if (!/^[A-Za-z0-9]{4,32}$/.test(token)) return { name: 'invalid', message: `/${word.toLowerCase()} needs the token shown on the folder request.`, hint: `Type it after the command, like /${word.toLowerCase()} K7Q2ZP, or use the Approve and Deny buttons on the request.` };
      return { name: word.toLowerCase() as 'confirm', token: token.toUpperCase() };
    }
    default:
      return { name: 'invalid', message: `There is no /${word} command.`, hint: 'Type /help for the list, or start with // to send a message that begins with a slash.' };
  }
}

/** The text actually sent for a message typed with a leading "//". */
export function messageText(input: string): string {
  const text = input.trim();
  return text.startsWith('//') ? text.slice(1) : text;
}
