import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCall, runFermixAsync, startDaemonProcess, tempHome, waitFor, type DaemonProcess } from './support/daemon-process.js';

// A real daemon process: `fermix plugins` verbs go through its plugins.* API, so enable applies to the
// running registry and prompt without a restart, and the doctor row WARNs about the trusted dev key.
describe('fermix plugins against a running daemon', () => {
  const home = tempHome('fermix-plugins-daemon-');
  let daemon: DaemonProcess;
  beforeAll(async () => {
    writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    rmSync(home, { recursive: true, force: true });
  });

  it('installs the bundled Google trio after start (no command), and refuses to uninstall it', async () => {
    const bundled = async () => ((await apiCall(daemon, 'plugins.installed', {})).body.result.plugins as { name: string; current: string | null }[]).filter((plugin) => ['gmail', 'google_calendar', 'google_drive'].includes(plugin.name) && plugin.current !== null);
    await waitFor(async () => (await bundled()).length === 3, 20_000, 'the bundled trio to be installed');
    const refused = await runFermixAsync(home, ['plugins', 'uninstall', 'gmail', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ schema_version: 1, ok: false, error: { code: 'bundled_plugin', sentence: 'gmail is bundled with Fermix and cannot be uninstalled.', hint: expect.stringMatching(/^Disable it instead: `(npx |node \S+ )?fermix plugins disable gmail`\.$/) } });
    expect((await bundled()).length).toBe(3);
  });

  it('enable installs and applies to the daemon at once; disable leaves refusing hidden tools', async () => {
    const enabled = await runFermixAsync(home, ['plugins', 'enable', 'slack', '--json']);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(JSON.parse(enabled.stdout)).toEqual({ schema_version: 1, ok: true, result: { name: 'slack', enabled: true, installed: true, status: 'needs_secret' } });
    expect(enabled.stderr).not.toContain('No Fermix daemon is running');
    const status = await apiCall(daemon, 'plugins.status', { name: 'slack' });
    expect(status.body.result.plugins[0].status).toBe('needs_secret');

    await runFermixAsync(home, ['plugins', 'disable', 'slack']);
    const caps = await apiCall(daemon, 'capabilities.list', {});
    const slack = (caps.body.result.capabilities as { name: string; hidden_from_agent: boolean }[]).filter((cap) => cap.name.startsWith('slack_'));
    expect(slack.length).toBe(5);
    expect(slack.every((cap) => cap.hidden_from_agent)).toBe(true);

    const doctor = await apiCall(daemon, 'system.doctor', {});
    const row = (doctor.body.result.checks as { id: string; status: string; detail: string }[]).find((check) => check.id === 'plugins');
    expect(row?.status).toBe('WARN');
    expect(row?.detail).toContain('trust_dev_key = true');
  });
});
