import type { ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { BROWSER_ACT_KINDS, BROWSER_ACTIONS } from '../tools/browser.js';
import { act } from './actions-act.js';
import { download, pdf, upload } from './actions-files.js';
import { consoleLog, cookies, dialog, screenshot, snapshot, storage } from './actions-page.js';
import { closeTab, focusTab, listTabs, navigate, openTab } from './actions-tabs.js';
import { assertRefExists, toBrowserError, type ActionHandler, type BrowserArgs, type FileAccess } from './action-support.js';
import { candidatePaths, findBrowserExecutable, installCommand, systemProbe } from './executable.js';
import { browserPid } from './launcher.js';
import { createSupervisor, MANAGED_PROFILES, type SupervisorOptions } from './supervisor.js';

// One list of verbs: the tool's schema text and this dispatcher read the same constants.
const ACTIONS = BROWSER_ACTIONS;
const ACT_KINDS = BROWSER_ACT_KINDS;

const SESSION_ACTIONS: Record<string, ActionHandler> = {
  open: openTab, navigate, snapshot, tabs: listTabs, focus: focusTab, close: closeTab, screenshot, act,
  pdf, console: consoleLog, dialog, cookies, storage, upload, download,
};

export interface BrowserServiceOptions extends SupervisorOptions {
  defaultProfile?: string;
}

export interface CallOptions {
  signal: AbortSignal;
  files?: FileAccess;
}

function invalidAction(action: string): FermixError {
  if ((ACT_KINDS as readonly string[]).includes(action)) {
    return new FermixError({
      code: 'invalid_action',
      message: `"${action}" is an act kind, not a browser action.`,
      hint: `Call browser with {"action":"act","kind":"${action}", …} (for example {"action":"act","kind":"${action}","ref":"e12"}).`,
      data: { action, act_kind: action },
    });
  }
  return new FermixError({ code: 'invalid_action', message: `"${action}" is not a browser action.`, hint: `Use one of: ${ACTIONS.join(', ')}.`, data: { action } });
}

function profileOf(requested: string | undefined, fallback: string): string {
  const name = requested ?? fallback;
  if ((MANAGED_PROFILES as readonly string[]).includes(name)) return name;
  if (name === 'selected_tab') {
    throw new FermixError({ code: 'browser_bridge_unavailable', message: 'The selected_tab profile needs the Fermix browser extension bridge, which this build does not have yet.', hint: 'Use profile "fermix" (the managed browser) instead.' });
  }
  throw new FermixError({ code: 'unknown_profile', message: `There is no browser profile named ${name}.`, hint: `Use one of: ${MANAGED_PROFILES.join(', ')}.`, data: { profile: name } });
}

/** The managed browser behind the `browser` tool: one supervisor, the action table, and shutdown. */
export function createBrowserService(options: BrowserServiceOptions) {
  const supervisor = createSupervisor(options);
  const probe = options.probe ?? systemProbe();
  const defaultProfile = options.defaultProfile ?? 'fermix';

  function doctor(): ToolResult {
    const executable = findBrowserExecutable(probe);
    const live = supervisor.status().filter((row) => row.running).map((row) => row.profile);
    const text = executable
      ? `Browser: ${executable}. Profiles in ${options.profilesDir}; live: ${live.join(', ') || 'none'}; the fermix profile runs ${supervisor.headlessFor('fermix') ? 'headless (no display)' : 'with a window'}.`
      : `No Chrome, Chromium or Edge found (looked in ${candidatePaths(probe).join(', ')}). Install one: \`${installCommand(probe.platform)}\`.`;
    return { text, data: { executable: executable ?? null, install_command: executable ? null : installCommand(probe.platform), profiles_dir: options.profilesDir, live } };
  }

  async function status(): Promise<ToolResult> {
    const rows = supervisor.status().map((row) => ({ ...row, pid: row.running ? (browserPid(row.dir) ?? null) : null }));
    const lines = rows.map((row) => `${row.profile}: ${row.running ? `running${row.pid ? ` (pid ${row.pid})` : ''}` : 'stopped'}${row.cooldown_until ? `, cooling down until ${row.cooldown_until}` : ''}`);
    return { text: lines.join('\n'), data: { profiles: rows } };
  }

  return {
    supervisor,
    async call(raw: Record<string, unknown>, call: CallOptions): Promise<ToolResult> {
      const args = raw as unknown as BrowserArgs;
      const action = String(args.action ?? '');
      if (action === 'doctor') return doctor();
      if (action === 'status') return status();
      if (!(ACTIONS as readonly string[]).includes(action)) throw invalidAction(action);
      const profile = profileOf(args.profile, defaultProfile);
      if (action === 'stop') {
        const stopped = await supervisor.stop(profile);
        return { text: stopped ? `Stopped the ${profile} browser.` : `The ${profile} browser was not running.`, data: { profile, stopped } };
      }
      const { session, relaunched } = await supervisor.get(profile);
      const relaunchNote = relaunched ? `The ${profile} browser had stopped unexpectedly and was relaunched (its open tabs were lost${supervisor.lastUrl(profile) ? `; it was at ${supervisor.lastUrl(profile)}` : ''}).\n` : '';
      if (action === 'start') {
        const tabs = await session.list();
        return { text: `${relaunchNote}The ${profile} browser is running (${session.headless ? 'headless' : 'with a window'}, ${tabs.length} tab(s)).`, data: { profile, headless: session.headless, relaunched } };
      }
      if (call.signal.aborted) throw new FermixError({ code: 'cancelled', message: `browser ${action} was cancelled.`, hint: 'The page is as the cancelled step left it; run the step again if it is still needed.' });
      try {
        if (args.ref) await assertRefExists((await session.page(args.target)).page, args);
        const result = await SESSION_ACTIONS[action]({ args, profile, session, supervisor, signal: call.signal, files: call.files });
        return relaunchNote ? { ...result, text: `${relaunchNote}${result.text}` } : result;
      } catch (error) {
        throw toBrowserError(error, { call: action, ref: args.ref });
      }
    },
    shutdown: () => supervisor.shutdown(),
  };
}

export type BrowserService = ReturnType<typeof createBrowserService>;
