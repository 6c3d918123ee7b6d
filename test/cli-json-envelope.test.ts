// Every `--json` answer uses the reference's envelope (§2.18): {"schema_version":1,"ok":true,"result":…}
// or {"schema_version":1,"ok":false,"error":{"code","sentence",…}}, with exit 0 ok, 1 refusal, 2 usage, and 3
// when the verb needs a daemon and none runs.
// Verbs that need no daemon, and the answers of verbs when none runs (the refusal envelope).
import { describe, expect, it } from 'vitest';
import { runFermix, tempHome } from './support/daemon-process.js';

const home = tempHome();
const envelope = (args: string[]) => {
  const result = runFermix(home, [...args, '--json']);
  return { code: result.code, body: JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown> };
};

describe('the --json envelope', () => {
  it.each([['version'], ['config', 'path'], ['config', 'validate'], ['doctor'], ['sandbox', 'status'], ['sandbox', 'env'], ['secrets', 'status', 'NOPE_KEY'], ['roles', 'list'], ['plugins', 'catalog']])('fermix %s answers schema_version 1, ok true', (...args) => {
    const { code, body } = envelope(args);
    expect(body).toMatchObject({ schema_version: 1, ok: true });
    expect(body.result).toBeDefined();
    // doctor exits 1 on a FAIL row, `secrets status` 1 for a secret that is not set; the rest 0.
    if (args[0] === 'doctor') expect([0, 1]).toContain(code);
    else expect(code).toBe(args[0] === 'secrets' ? 1 : 0);
  });

  it.each([['status'], ['jobs', 'list'], ['audit'], ['capabilities', 'list']])('fermix %s without a daemon refuses in the envelope, exit 3, with a sentence', (...args) => {
    const { code, body } = envelope(args);
    expect(code).toBe(3);
    expect(body).toMatchObject({ schema_version: 1, ok: false, error: { code: 'daemon_not_running', sentence: 'The Fermix daemon is not running.' } });
  });
});
