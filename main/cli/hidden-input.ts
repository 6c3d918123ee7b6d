import { UsageError, type CliIo } from './output.js';

/**
 * Reads a secret without echoing it (a terminal) or from piped stdin (`--stdin`, or stdin not a TTY).
 * Never from argv: argv is visible in `ps` and stays in shell history. Ctrl+C cancels with a usage error.
 */
export async function readHiddenInput(io: CliIo, prompt: string, fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  io.err(`${prompt} (input hidden): `);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (done: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.err('');
      done();
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(() => resolve(value));
        if (char === '\u0003') return finish(() => reject(new UsageError('cancelled')));
        value = char === '\u007f' ? value.slice(0, -1) : value + char;
      }
    };
    stdin.on('data', onData);
  });
}
