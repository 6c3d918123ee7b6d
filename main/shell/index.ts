// Electron main entry: one instance, the daemon in-process (the design card's shape), one hardened window,
// tray, push-to-talk and approval notifications. Thin on purpose: all behaviour lives in the daemon.
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { app, BrowserWindow, dialog, powerMonitor, session, systemPreferences } from 'electron';
import { resolveHome } from '../config/home.js';
import { startDaemon, type RunningDaemon } from '../daemon/compose.js';
import { formatErrorForPeople, isFermixError } from '../core/errors.js';
import { registerAppScheme, serveAppProtocol } from './app-protocol.js';
import { createComputerUseTrayState } from './computer-use-state.js';
import { attachIpcAdapter } from './ipc-adapter.js';
import { notifyApprovalWaiting, notifyJobFinished, type ApprovalWaiting, type JobRunFinished } from './notifications.js';
import { shellPaths } from './paths.js';
import { registerPushToTalk } from './shortcuts.js';
import { createTray } from './tray.js';
import { createMainWindow, hardenWebContents, restrictPermissions } from './window.js';

const paths = shellPaths();
registerAppScheme();
// Chromium's profile (and the single-instance lock inside it) lives in the Fermix home, so one home means
// one app, just as it means one daemon (the pid lock); FERMIX_HOME then isolates test and second profiles.
app.setPath('userData', join(resolveHome(), 'desktop'));
// The daemon runs in this (main) process, whose V8 is already running: `js-flags` reaches only the
// renderer processes Chromium starts, which keep collecting for size. (The main process no longer sets
// --liftoff-only: that was for node-sqlite3-wasm, and SQLite is a native N-API addon since decision 0032.)
// Untested here: the Electron binary cannot run.
app.commandLine.appendSwitch('js-flags', '--optimize-for-size');

if (!app.requestSingleInstanceLock()) {
  // A second launch only brings the first window forward (handled by 'second-instance' there).
  app.quit();
} else {
  app.setAppUserModelId('io.fermix.desktop');
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.whenReady().then(run).catch(fail);
}

function fail(error: unknown): void {
  const text = isFermixError(error) ? formatErrorForPeople(error.toWire()) : String((error as Error)?.message ?? error);
  dialog.showErrorBox('Fermix could not start', text);
  app.exit(1);
}

async function run(): Promise<void> {
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon({
      rendererDir: paths.renderer,
      // Windows has no millisecond idle reader; Electron's whole seconds serve there (main/computer/idle.ts).
      systemIdleSeconds: () => powerMonitor.getSystemIdleTime(),
      // system.restart (the Computer Use card's Restart now): the quit path stops the daemon, then the app starts anew.
      relaunch: () => {
        app.relaunch();
        app.quit();
      },
      // macOS permissions for computer use, reported by doctor (they are not part of the registration gate).
      macPermissions: () =>
        process.platform === 'darwin'
          ? { accessibility: systemPreferences.isTrustedAccessibilityClient(false), screenRecording: systemPreferences.getMediaAccessStatus('screen') === 'granted' }
          : undefined,
    });
  } catch (error) {
    // Typical: a headless `fermix daemon` already holds the home's pid lock; the hint says what to do.
    fail(error);
    return;
  }
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--semi-space-growth-factor=1');

  serveAppProtocol(session.defaultSession, paths.renderer);
  restrictPermissions(session.defaultSession);

  let window: BrowserWindow | undefined;
  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({ preloadPath: paths.preload, iconPath: join(paths.resources, 'icon.png') });
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);

  const ipc = attachIpcAdapter({
    dispatcher: daemon.dispatcher,
    subscribe: (listener) => daemon.events.subscribe(listener),
    targets: () => BrowserWindow.getAllWindows().map((each) => each.webContents),
  });

  const unsubscribeApprovals = daemon.events.subscribe((event) => {
    if (event.type !== 'approval.requested') return;
    if (window && !window.isDestroyed() && window.isFocused()) return;
    notifyApprovalWaiting(event.payload as ApprovalWaiting, showWindow);
  });
  const unsubscribeJobs = daemon.events.subscribe((event) => {
    if (event.type === 'job.run_finished') notifyJobFinished(event.payload as JobRunFinished, showWindow);
  });

  // Until config.toml has a desktop section, the shortcut comes from the environment (default in accelerator.ts).
  const pushToTalk = registerPushToTalk({ accelerator: process.env.FERMIX_PUSH_TO_TALK, send: ipc.broadcast });
  if (pushToTalk.problem) console.warn(pushToTalk.problem);

  // The tray follows computer use live through the window's API (computer.status, then computer.state events).
  const computerUse = createComputerUseTrayState({ dispatch: (method, input, context) => daemon.dispatcher.dispatch(method, input, context), subscribe: (listener) => daemon.events.subscribe(listener) });
  const trayIcon = join(paths.resources, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');
  const tray = createTray({ iconPath: trayIcon, state: computerUse, onOpen: showWindow, onQuit: () => app.quit() });

  app.on('window-all-closed', () => {
    // With a tray the daemon keeps serving (scheduled jobs, the CLI); without one there is no way back in.
    if (!tray) app.quit();
  });

  // One way out, whoever starts it (tray Quit, Cmd+Q, `fermix stop`): stop the daemon, then let the app quit.
  let daemonStopped = false;
  let stopping = false;
  void daemon.stopped.then(() => {
    daemonStopped = true;
    computerUse.dispose();
    tray?.destroy();
    app.quit();
  });
  app.on('before-quit', (event) => {
    if (daemonStopped) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    pushToTalk.dispose();
    unsubscribeApprovals();
    unsubscribeJobs();
    ipc.detach();
    void daemon.stop('desktop app quit');
  });

  showWindow();
}
