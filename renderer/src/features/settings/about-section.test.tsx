// Settings → About names the log command as it runs where the daemon runs: `npx fermix logs` in a
// checkout (no fermix on PATH there), plain `fermix logs` when installed. The daemon's side
// (system.status `cli` from main/cli/invocation.ts) is the one every CLI hint uses.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createAppModel } from '../../app/app-model.js';
import { ModelProvider } from '../../app/model-context.js';
import { inProcessDaemon } from '../../testing/in-process-daemon.js';
import { AboutSection } from './about-section.js';

afterEach(cleanup);

const status = (cli: string) => ({ pid: 7, version: '1.2.3', started_at: '2026-01-01T00:00:00.000Z', uptime_s: 1, home: '/home/me/.fermix', http_url: null, socket: '/home/me/.fermix/run/daemon.sock', in_flight: 0, cli });

describe('About', () => {
  for (const cli of ['npx fermix', 'fermix']) {
    it(`says "(or ${cli} logs)" when the daemon runs fermix as ${cli}`, async () => {
      const daemon = inProcessDaemon({ handlers: { 'system.status': () => status(cli) } });
      await act(async () => {
        render(<ModelProvider model={createAppModel(daemon.transport)}><AboutSection /></ModelProvider>);
      });
      const line = (await screen.findByText('/home/me/.fermix/logs/fermix.log')).parentElement!;
      expect(line.textContent).toBe(`/home/me/.fermix/logs/fermix.log (or ${cli} logs)`);
    });
  }
});
