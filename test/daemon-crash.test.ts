import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../main/store/database.js';
import { startModelServer } from './fixtures/model-server/index.js';
import { apiCall, BIN, isAlive, runFermix, runFermixAsync, startDaemonProcess, tempHome, waitFor } from './support/daemon-process.js';

describe('crash safety', () => {
  it('keeps every acknowledged row after SIGKILL mid-write, and restarts on an openable database', async () => {
    const home = tempHome();
    const daemon = await startDaemonProcess(home);
    const acknowledged: string[] = [];
    let killed = false;
    // Four writers hammer the daemon; the kill lands while requests are in flight.
    const writer = async () => {
      while (!killed) {
        try {
          const response = await apiCall(daemon, 'conversations.create', { title: `row ${acknowledged.length}` });
          if (response.status === 200 && !killed) acknowledged.push(response.body.result.id);
        } catch {
          return; // connection reset by the kill: not acknowledged
        }
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    await waitFor(() => acknowledged.length >= 60, 20_000, '60 acknowledged writes');
    const beforeKill = [...acknowledged];
    process.kill(daemon.pid, 'SIGKILL');
    killed = true;
    await daemon.exited;
    await Promise.all(writers);
    expect(beforeKill.length).toBeGreaterThanOrEqual(60);

    // A home last run by a build before decision 0032 may hold node-sqlite3-wasm's lock directory, which a
    // SIGKILL left behind: the next daemon must clear it.
    mkdirSync(join(home, 'fermix.db.lock'), { recursive: true });
    const restarted = await startDaemonProcess(home);
    try {
      for (const id of beforeKill) {
        const found = await apiCall(restarted, 'conversations.get', { id });
        expect(found.status, `acknowledged row ${id} lost`).toBe(200);
      }
      const listed = await apiCall(restarted, 'conversations.list', { limit: 500 });
      expect(listed.body.result.conversations.length).toBeGreaterThanOrEqual(beforeKill.length);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
    // The running daemon holds the database exclusively (its own lock directory); a clean stop releases it.
    expect(existsSync(join(home, 'fermix.db.lock'))).toBe(false);
    // And the file itself opens cleanly once the daemon is gone.
    const db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: false });
    expect(db.schemaVersion()).toBeGreaterThanOrEqual(1);
    expect(db.get<{ n: number }>('SELECT COUNT(*) AS n FROM conversations')!.n).toBeGreaterThanOrEqual(beforeKill.length);
    db.close();
  });
});

describe('audit records survive kill -9', () => {
  it('every acknowledged capability call, mutating or read-only, has its audit record after a restart', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[permissions]\nmode = "auto"\n');
    const daemon = await startDaemonProcess(home);
    const acknowledged: { capability: string; path: string }[] = [];
    let killed = false;
    let next = 0;
    const writer = async () => {
      while (!killed) {
        const index = next++;
        const call = index % 2 === 0
          ? { name: 'file_write', args: { path: `f${index}.txt`, content: `row ${index}` } }
          : { name: 'file_read', args: { path: `f${index - 1}.txt` } };
        try {
          const response = await apiCall(daemon, 'capabilities.call', call);
          if (response.status === 200 && !killed) acknowledged.push({ capability: call.name, path: call.args.path });
        } catch {
          return; // the kill reset the connection: not acknowledged
        }
      }
    };
    const writers = [writer(), writer(), writer()];
    await waitFor(() => acknowledged.filter((entry) => entry.capability === 'file_write').length >= 30, 20_000, '30 acknowledged writes');
    const beforeKill = [...acknowledged];
    process.kill(daemon.pid, 'SIGKILL');
    killed = true;
    await daemon.exited;
    await Promise.all(writers);

    const restarted = await startDaemonProcess(home);
    try {
      const records = (await apiCall(restarted, 'audit.query', { decision: 'allow', limit: 5000 })).body.result.records as { capability: string; args: { path: string } }[];
      const audited = new Set(records.map((record) => `${record.capability} ${record.args.path}`));
      for (const entry of beforeKill) expect(audited.has(`${entry.capability} ${entry.path}`), `audit of ${entry.capability} ${entry.path} lost`).toBe(true);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  });
});

describe('streamed text survives kill -9', () => {
  it('the turn comes back interrupted with the text the person already saw', async () => {
    const server = await startModelServer();
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`);
    // Twenty words, one every 150 ms: the kill lands mid-answer.
    const answer = Array.from({ length: 20 }, (_, index) => `word${index}`).join(' ');
    server.setScript([{ text: answer, chunks: 20, delayMs: 150 }]);
    try {
      const daemon = await startDaemonProcess(home);
      const sent = await apiCall(daemon, 'chat.send', { message: 'talk slowly' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const { turn_id, conversation_id } = sent.body.result;
      // chat.turn reads the stored text: once it shows some, the checkpoint has reached the database.
      await waitFor(async () => (await apiCall(daemon, 'chat.turn', { turn_id })).body.result?.text.includes('word2'), 15_000, 'streamed text in the store');
      const seen = (await apiCall(daemon, 'chat.turn', { turn_id })).body.result.text as string;
      process.kill(daemon.pid, 'SIGKILL');
      await daemon.exited;

      const restarted = await startDaemonProcess(home);
      try {
        const turn = (await apiCall(restarted, 'chat.turn', { turn_id })).body.result;
        expect(turn.status).toBe('interrupted');
        expect(turn.text.startsWith(seen)).toBe(true);
        expect(answer.startsWith(turn.text)).toBe(true);
        expect(turn.text).not.toBe(answer);
        const history = (await apiCall(restarted, 'chat.history', { conversation_id, limit: 10 })).body.result.messages;
        expect(history.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant']);
        expect(history[1].content).toBe(turn.text);
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    } finally {
      server.close();
    }
  });
});

describe('restart right after kill -9', () => {
  it('a new daemon starts at once even while the killed one is an unreaped zombie still named in the pid file', async () => {
    const home = tempHome();
    // `sh` starts the daemon in the background, then becomes `sleep`, which never reaps it: after
    // SIGKILL the daemon's pid stays in the process table (kill(pid, 0) succeeds) and in the pid file.
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" daemon --port 0 & exec sleep 120`], {
      env: { ...process.env, FERMIX_HOME: home },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let out = '';
      parent.stdout!.on('data', (chunk) => (out += chunk));
      await waitFor(() => out.includes('Open in a browser:'), 20_000, 'the first daemon');
      const pid = Number(readFileSync(join(home, 'run', 'daemon.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '), 5_000, 'the killed daemon to be a zombie');
      // kill(0) still succeeds on a zombie: what the old lock check saw, and refused on.
      expect(() => process.kill(pid, 0)).not.toThrow();
      const restarted = await startDaemonProcess(home);
      try {
        expect(restarted.pid).not.toBe(pid);
        expect((await apiCall(restarted, 'conversations.list', {})).status).toBe(200);
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('stop and restart', () => {
  it('`fermix stop` waits for the pid to be gone', async () => {
    const home = tempHome();
    const daemon = await startDaemonProcess(home);
    const stopped = await runFermixAsync(home, ['stop']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain(`stopped (pid ${daemon.pid})`);
    expect(isAlive(daemon.pid)).toBe(false);
    expect(runFermix(home, ['stop']).code).toBe(3);
  });

  it('`fermix stop` escalates to SIGKILL when the process ignores the request past the grace period', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'run'), { recursive: true });
    // A wedged daemon: holds the pid file, has no socket, ignores SIGTERM.
    const wedged = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('ready')"], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => wedged.stdout!.once('data', resolve));
    writeFileSync(join(home, 'run', 'daemon.pid'), `${wedged.pid}\n`);
    const exited = new Promise((resolve) => wedged.once('exit', (_code, signal) => resolve(signal)));
    const result = await runFermixAsync(home, ['stop', '--grace', '500']);
    expect(result.stderr).toContain('sending SIGKILL');
    expect(result.code).toBe(0);
    expect(await exited).toBe('SIGKILL');
  });

  it('`fermix restart` replaces the running daemon with a new pid that answers', async () => {
    const home = tempHome();
    const daemon = await startDaemonProcess(home);
    const restarted = await runFermixAsync(home, ['restart', '--port', '0']);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(isAlive(daemon.pid)).toBe(false);
    const status = runFermix(home, ['status', '--json']);
    expect(status.code).toBe(0);
    const pid = JSON.parse(status.stdout).result.pid as number;
    expect(pid).not.toBe(daemon.pid);
    expect(runFermix(home, ['stop']).code).toBe(0);
    expect(isAlive(pid)).toBe(false);
  });
});

describe('start-up refuses a bad config', () => {
  it('names the file, line and key of an unknown key in a strict section', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[providers.local]\ntype = "openai-compatible"\nmodel = "qwen3"\nbase_urll = "http://127.0.0.1:11434/v1"\n');
    const result = runFermix(home, ['daemon', '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(home, 'config.toml')}:4`);
    expect(result.stderr).toContain('providers.local.base_urll');
    expect(existsSync(join(home, 'run', 'daemon.pid'))).toBe(false);
    const validate = runFermix(home, ['config', 'validate']);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('unknown key');
  });

  it('names the line of a TOML syntax error', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[fermix_web]\nport = 4030\n[sandbox\nmode = "strict"\n');
    const result = runFermix(home, ['config', 'validate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/config\.toml:3/);
    expect(result.stderr).toContain('syntax');
  });
});
