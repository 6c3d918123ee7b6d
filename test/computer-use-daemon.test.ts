// The composition root registers computer_use only when `[fermix_core.computer_use] enabled = true` and
// the desktop works (here: the suite's Xvfb); only then does the operator get gui_control. The pause
// switch the tray and /pause share is the one the tool obeys. Run under ci/with-desktop.sh.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../main/api/events.js';
import { startModelServer, toolResultsOf } from './fixtures/model-server/index.js';
import type { CallContext, DispatchResult } from '../main/api/dispatcher.js';
import { setUpComputerUse } from '../main/computer/index.js';
import { createComputerUseControl } from '../main/daemon/computer-handlers.js';
import { createComputerUseTrayState } from '../main/shell/computer-use-state.js';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { tempHome } from './support/daemon-process.js';

if (!process.env.DISPLAY) throw new Error('This test needs an X display: run it as `sh ci/with-desktop.sh npx vitest run test/computer-use-daemon.test.ts`.');

const running: { daemon: RunningDaemon; home: string }[] = [];
const CALL: CallContext = { transport: 'socket', trust: 'operator' };

async function daemonWith(config: string) {
  const home = tempHome('fermix-cu-');
  writeFileSync(join(home, 'config.toml'), config);
  const daemon = await startDaemon({ home, port: 0 });
  running.push({ daemon, home });
  const call = async (method: string, input: unknown) => {
    const answer: DispatchResult = await daemon.dispatcher.dispatch(method, input, CALL);
    return answer;
  };
  const names = async (trust: 'operator' | 'guest') => {
    const answer = await call('capabilities.list', { trust });
    if (!answer.ok) throw new Error(answer.error.message);
    return (answer.result as { capabilities: { name: string }[] }).capabilities.map((cap) => cap.name);
  };
  return { daemon, call, names };
}

afterAll(async () => {
  for (const { daemon, home } of running) {
    await daemon.stop('test done');
    rmSync(home, { recursive: true, force: true });
  }
});

describe('computer_use registration', () => {
  it('is absent by default (computer use off)', async () => {
    const { names, call } = await daemonWith('');
    expect(await names('operator')).not.toContain('computer_use');
    const status = await call('computer.status', {});
    expect(status.ok && (status.result as { enabled: boolean }).enabled).toBe(false);
  });

  it('registers when enabled on a working X display, for the operator only, and obeys the shared pause', async () => {
    const { names, call, daemon } = await daemonWith('[fermix_core.computer_use]\nenabled = true\n\n[permissions]\nmode = "auto"\n');
    expect(await names('operator')).toContain('computer_use');
    expect(await names('guest')).not.toContain('computer_use');
    // `fermix capabilities list` stars capabilities without an executor ("not implemented yet"): neither is.
    const listed = await call('capabilities.list', { trust: 'operator' });
    const executors = (listed.ok ? (listed.result as { capabilities: { name: string; has_executor: boolean }[] }).capabilities : []).filter((cap) => ['browser', 'computer_use'].includes(cap.name));
    expect(executors).toEqual([expect.objectContaining({ has_executor: true }), expect.objectContaining({ has_executor: true })]);
    const shot = await call('capabilities.call', { name: 'computer_use', args: { action: 'screenshot' }, origin: 'chat', interactive: true, conversation_id: 'c1' });
    expect(shot.ok && (shot.result as { images: unknown[] }).images).toHaveLength(1);
    const scheduled = await call('capabilities.call', { name: 'computer_use', args: { action: 'screenshot' }, origin: 'job', conversation_id: 'c2' });
    expect(!scheduled.ok && scheduled.error.code).toBe('not active');
    // The tray's switch (RunningDaemon.computerUse) and computer.pause are one switch.
    daemon.computerUse.setPaused(true);
    const paused = await call('capabilities.call', { name: 'computer_use', args: { action: 'screenshot' }, origin: 'chat', interactive: true, conversation_id: 'c1' });
    expect(!paused.ok && paused.error.code).toBe('paused');
    await call('computer.resume', {});
    const again = await call('capabilities.call', { name: 'computer_use', args: { action: 'cursor_position' }, origin: 'chat', interactive: true, conversation_id: 'c1' });
    expect(again.ok).toBe(true);
    const doctor = await call('system.doctor', {});
    const row = (doctor.ok ? (doctor.result as { checks: { id: string; status: string; detail: string }[] }).checks : []).find((check) => check.id === 'computer_use_permissions');
    expect(row).toMatchObject({ status: 'OK' });
    expect(row?.detail).toContain('xprintidle');
  });

  it('keeps typed and pasted text out of the audit', async () => {
    // Strict mode refuses both before any input reaches the shared display; the call is audited all the same.
    const { call } = await daemonWith('[fermix_core.computer_use]\nenabled = true\n\n[permissions]\nmode = "auto"\n\n[sandbox]\nmode = "strict"\n');
    for (const action of ['type', 'paste']) {
      const refused = await call('capabilities.call', { name: 'computer_use', args: { action, text: `hunter2-${action}-TOPSECRET` }, origin: 'chat', interactive: true, conversation_id: 'c-secret' });
      expect(!refused.ok && refused.error.code).toBe('refused (strict access)');
    }
    const audit = await call('audit.query', { capability: 'computer_use' });
    const records = audit.ok ? (audit.result as { records: { args: unknown }[] }).records : [];
    expect(records).toHaveLength(2);
    expect(JSON.stringify(records)).not.toContain('TOPSECRET');
    expect(records.map((record) => record.args)).toEqual([expect.objectContaining({ text: '[REDACTED]' }), expect.objectContaining({ text: '[REDACTED]' })]);
  });

  it('stays unregistered on a Wayland session', async () => {
    const setup = await setUpComputerUse({
      enabled: true, control: createComputerUseControl(false), liveEnabled: () => true, accessMode: () => 'standard',
      env: { ...process.env, WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland' },
    });
    expect(setup.ready).toBe(false);
    expect(!setup.ready && setup.reason).toContain('Wayland');
  });
});

describe('the tray follows computer use live', () => {
  const trayOf = (daemon: RunningDaemon) => createComputerUseTrayState({ dispatch: (method, input, context) => daemon.dispatcher.dispatch(method, input, context), subscribe: (listener) => daemon.events.subscribe(listener) });

  it('shows an enable from the Plugins card at once, with the restart it needs', async () => {
    const { daemon, call } = await daemonWith('');
    const tray = trayOf(daemon);
    await tray.ready;
    expect(tray.label()).toBe('Computer use: not enabled');
    let redraws = 0;
    tray.onChange(() => (redraws += 1));
    expect((await call('computer.set_enabled', { enabled: true })).ok).toBe(true);
    expect(tray.label()).toBe('Computer use: enabled, starts after a restart');
    expect(redraws).toBe(1);
    tray.dispose();
  });

  it('shows pause and resume from the window, /pause and its own menu item', async () => {
    const { daemon, call } = await daemonWith('[fermix_core.computer_use]\nenabled = true\n');
    const tray = trayOf(daemon);
    await tray.ready;
    expect(tray.label()).toBe('Computer use: active');
    await call('computer.pause', {}); // the window's Controls bar
    expect([tray.label(), tray.toggleLabel()]).toEqual(['Computer use: paused', 'Resume computer use']);
    await tray.toggle(); // the tray's own item
    expect(daemon.computerUse.paused).toBe(false);
    expect(tray.label()).toBe('Computer use: active');
    daemon.computerUse.setPaused(true); // /pause in the chat
    expect(tray.label()).toBe('Computer use: paused');
    tray.dispose();
    daemon.computerUse.setPaused(false);
    expect(tray.label()).toBe('Computer use: paused'); // disposed: no longer listening
  });
});

describe('/stop in a real turn', () => {
  it('cuts the running computer_use action short, ends the turn, and frees the desktop; the tray shows it acting meanwhile', { timeout: 60_000 }, async () => {
    const server = await startModelServer();
    try {
      const { daemon, call } = await daemonWith(`[fermix_core.computer_use]\nenabled = true\n\n[permissions]\nmode = "auto"\n\n[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "m"\nprimary = true\n`);
      const events: EventEnvelope[] = [];
      daemon.events.subscribe((event) => void events.push(event));
      const tray = createComputerUseTrayState({ dispatch: (method, input, context) => daemon.dispatcher.dispatch(method, input, context), subscribe: (listener) => daemon.events.subscribe(listener) });
      await tray.ready;
      // A wait as long as the schema allows: only the stop can end it early.
      server.setScript((request) => (toolResultsOf(request).length > 0 ? { text: 'done' } : { toolCalls: [{ name: 'computer_use', arguments: { action: 'wait', ms: 25_000 } }] }));
      const sentAt = Date.now();
      const sent = await call('chat.send', { message: 'wait on the desktop' });
      const { conversation_id, turn_id } = (sent.ok ? sent.result : {}) as { conversation_id: string; turn_id: string };
      // The runtime says when the action runs (computer.state acting): then the stop lands inside it.
      await vi.waitFor(() => expect(tray.label()).toBe('Computer use: acting now'), { timeout: 30_000 });
      // computer.status says so too, for a window opened mid-action (it has seen no computer.state event).
      const during = await call('computer.status', {});
      expect(during.ok && (during.result as { acting: boolean }).acting).toBe(true);
      await call('chat.stop', { conversation_id });
      const finished = () => events.find((event) => event.type === 'chat.turn_finished' && (event.payload as { turn_id: string }).turn_id === turn_id);
      await vi.waitFor(() => expect(finished()).toBeDefined(), { timeout: 30_000 });
      expect((finished()!.payload as { status: string }).status).toBe('stopped');
      await vi.waitFor(() => expect(tray.label()).toBe('Computer use: active'), { timeout: 30_000 });
      const after = await call('computer.status', {});
      expect(after.ok && (after.result as { acting: boolean }).acting).toBe(false);
      // Actions run one at a time, so the next one runs only once the wait has ended: had the stop not cut it
      // short, that could not be before 25 s after the message was sent.
      const next = await call('capabilities.call', { name: 'computer_use', args: { action: 'cursor_position' }, origin: 'chat', interactive: true, conversation_id: 'c-next' });
      expect(next.ok).toBe(true);
      expect(Date.now()).toBeLessThan(sentAt + 25_000);
      tray.dispose();
    } finally {
      await server.close();
    }
  });
});
