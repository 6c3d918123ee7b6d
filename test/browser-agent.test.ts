// The browser tool inside real agent turns: the AI SDK clients talk to the scripted model server, the
// calls go through the real invoker (gate, audit) to real Chromium, and pages come from 127.0.0.1.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, providerConfig, type Harness } from '../main/agent/test-harness.js';
import { createBrowserService, type BrowserService } from '../main/browser/service.js';
import { chromiumProcessesFor, requireChromium, startTestSite, type TestSite } from '../main/browser/test-pages.js';
import { browser } from '../main/tools/browser.js';
import { makeToolFixture, type ToolFixture } from '../main/tools/tool-test-fixture.js';
import { messagesOf, startModelServer, toolResultsOf, type ModelServer } from './fixtures/model-server/index.js';

let server: ModelServer;
let site: TestSite;
let fx: ToolFixture;
let service: BrowserService;
let harness: Harness | undefined;

beforeAll(async () => {
  requireChromium();
  server = await startModelServer();
  site = await startTestSite();
  fx = makeToolFixture('fermix-browser-agent-');
  service = createBrowserService({ profilesDir: path.join(fx.fermixHome, 'browser', 'profiles'), daemonPorts: () => [], hasDisplay: () => false, sweepEveryMs: 0, defaultProfile: 'fermix_headless' });
});
afterAll(async () => {
  await service?.shutdown();
  await server?.close();
  await site?.close();
  if (fx) expect(chromiumProcessesFor(path.join(fx.fermixHome, 'browser', 'profiles', 'fermix_headless')), 'Chromium left running').toEqual([]);
  await fx?.dispose();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(type: 'openai' | 'anthropic'): Promise<Harness> {
  harness = await createHarness({
    config: providerConfig([{ name: 'main', type, baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
    capabilities: () => [browser],
    rules: [{ permission: 'browser', action: 'allow', source: 'config' }],
    secrets: { keyring: () => null, env: () => 'sk-test' },
    overrides: { services: () => ({ browser: service, sandbox: fx.sandbox }) },
  });
  return harness;
}

const completions = () => server.requests.filter((r) => r.vendor !== 'other');

describe.each(['openai', 'anthropic'] as const)('browser in a turn over %s', (type) => {
  it('runs two browser calls of one response in order, and the screenshot reaches the model as an image', async () => {
    const h = await start(type);
    server.setScript((req) =>
      toolResultsOf(req).length > 0
        ? { text: 'I can see the booking form.' }
        : { toolCalls: [{ name: 'browser', arguments: { action: 'navigate', url: `${site.origin}/form` } }, { name: 'browser', arguments: { action: 'screenshot' } }] },
    );
    const before = completions().length;
    const result = await h.agent.send({ message: 'open the booking page and look at it' }).done;
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    const second = completions().slice(before)[1];
    const results = toolResultsOf(second).map((entry) => entry.content);
    // is_stateful: the screenshot ran after the navigation finished, so it shows the form page.
    expect(results[0]).toContain(`Now at [`);
    expect(JSON.stringify(results[1])).toContain(`${site.origin}/form`);
    const wire = JSON.stringify(messagesOf(second));
    if (type === 'openai') {
      // Chat-completions tool messages are text: the image follows in a user message.
      expect(JSON.stringify(messagesOf(second).at(-1))).toContain('data:image/png;base64,iVBOR');
    } else {
      expect(wire).toContain('"type":"image"');
      expect(wire).toContain('iVBOR');
    }
  });
});

describe('browser secrets', () => {
  it('never writes fill or type text, nor storage or cookie values, into the audit', async () => {
    const h = await start('openai');
    await service.call({ action: 'navigate', url: `${site.origin}/form` }, { signal: new AbortController().signal });
    const snap = (await service.call({ action: 'snapshot' }, { signal: new AbortController().signal })).text;
    const ref = /textbox "Password" \[ref=([a-z0-9]+)\]/u.exec(snap)?.[1];
    expect(ref, snap).toBeDefined();
    server.setScript((req) => (toolResultsOf(req).length > 0 ? { text: 'Typed it.' } : {
      toolCalls: [
        { name: 'browser', arguments: { action: 'act', kind: 'fill', ref, text: 'hunter2-TOPSECRET' } },
        { name: 'browser', arguments: { action: 'act', kind: 'type', ref, text: '-typed-TOPSECRET' } },
        { name: 'browser', arguments: { action: 'storage', field: 'token', value: 'stored-TOPSECRET' } },
        { name: 'browser', arguments: { action: 'cookies', field: 'session', value: 'cookie-TOPSECRET' } },
      ],
    }));
    const result = await h.agent.send({ message: 'type my password' }).done;
    expect(result.status).toBe('completed');
    const records = h.audit.filter((record) => record.capability === 'browser');
    expect(records).toHaveLength(4);
    expect(records.every((record) => record.decision === 'allow')).toBe(true);
    expect(JSON.stringify(records)).not.toContain('TOPSECRET');
    expect(JSON.stringify(records)).toContain('[REDACTED]');
    // The page really got the text and values: the redaction is in the record, not in the call.
    const { page } = await (await service.supervisor.get('fermix_headless')).session.page();
    expect(await page.inputValue('input[name=pw]')).toBe('hunter2-TOPSECRET-typed-TOPSECRET');
    expect(await page.evaluate('localStorage.getItem("token")')).toBe('stored-TOPSECRET');
    expect(await page.evaluate('document.cookie')).toContain('session=cookie-TOPSECRET');
  });
});
