import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import type { BrowserService } from '../browser/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { optionalService, pathContext } from './tool-services.js';

export const BROWSER_ACTIONS = [
  'doctor', 'status', 'start', 'stop', 'open', 'navigate', 'snapshot', 'tabs', 'focus', 'close',
  'screenshot', 'act', 'pdf', 'console', 'dialog', 'cookies', 'storage', 'upload', 'download',
] as const;

export const BROWSER_ACT_KINDS = ['click', 'fill', 'type', 'submit', 'press', 'hover', 'get', 'wait', 'click_coords'] as const;

export const browserInput = lazySchema(() =>
  z.object({
    // A string, not an enum: an act kind sent as the action must reach the executor, whose invalid_action
    // error names the call that works ({"action":"act","kind":"click"}) instead of a bare enum mismatch.
    action: z
      .string()
      .min(1)
      .describe(`Browser action: ${BROWSER_ACTIONS.join(', ')}. Element interactions go through action "act" with a kind.`),
    kind: z
      .enum(BROWSER_ACT_KINDS)
      .optional()
      .describe(
        'For action=act: click | fill (replace the value) | type (append) | submit (the form\'s primary button) | press (key=…) | hover | get (field=…) | wait (wait_until=…) | click_coords (x, y).',
      ),
    profile: z.string().optional().describe('Browser profile: fermix, fermix_visible, fermix_headless or selected_tab. Defaults to the configured profile.'),
    url: z.string().optional().describe('URL for open or navigate (http, https or about:blank).'),
    path: z.string().optional().describe('File to upload, confined to the workspace.'),
    target: z.string().optional().describe('Tab target id returned by earlier browser results.'),
    selector: z.string().optional().describe('CSS selector, for act kind=get field=rect and kind=wait wait_until=element.'),
    ref: z.string().optional().describe('Element ref from the latest snapshot.'),
    text: z.string().optional().describe('Text to fill, type or wait for, or a dialog prompt answer.'),
    field: z.string().optional().describe('For act kind=get: url, title, html, text, count, ready_state or rect; for storage: the key.'),
    value: z.string().optional().describe('Value for storage writes.'),
    decision: z.enum(['accept', 'dismiss']).optional().describe('Answer for action=dialog.'),
    x: z.number().optional().describe('X for click_coords, in CSS pixels of the page viewport (what get field=rect returns).'),
    y: z.number().optional().describe('Y for click_coords, in the same CSS-pixel space as x.'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button for pointer actions (default left).'),
    key: z.string().optional().describe('Key for act kind=press, e.g. Enter or Control+A.'),
    wait_until: z.enum(['text', 'url', 'element', 'load']).optional().describe('What act kind=wait waits for; there is no plain pause.'),
    full_page: z.boolean().optional().describe('For screenshot: capture the full scrollable page.'),
    format: z.enum(['png', 'jpeg']).optional().describe('Screenshot image format (default png).'),
    quality: z.number().int().min(1).max(100).optional().describe('JPEG screenshot quality, 1-100.'),
    interactive: z.boolean().default(true).describe('For snapshot: only interactive and important content (default true).'),
    compact: z.boolean().default(true).describe('For snapshot: drop empty structural nodes (default true).'),
    depth: z.number().int().min(1).max(20).default(5).describe('For snapshot: maximum accessibility-tree depth (default 5, max 20).'),
    include_urls: z.boolean().default(false).describe('For snapshot: include link URLs (default false).'),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(120_000)
      .optional()
      .describe('Timeout in milliseconds (wait defaults to 5000, download to 30000; max 120000).'),
  }),
);

/** The managed browser is a daemon service (main/browser/service.ts); the tool only adapts the call to it. */
function browserService(services: Record<string, unknown>): BrowserService {
  const candidate = services.browser as BrowserService | undefined;
  if (candidate && typeof candidate.call === 'function') return candidate;
  throw new FermixError({
    code: 'service_unavailable',
    message: 'This daemon has no browser service.',
    hint: 'This is a wiring bug in the daemon (main/daemon/tool-services.ts); run `fermix doctor` and report it.',
    data: { service: 'browser' },
  });
}

const executeBrowser: Executor = async (args, context) => {
  const service = browserService(context.services ?? {});
  // Downloads land in and uploads come from the workspace, under the sandbox's own path policy.
  const sandbox = optionalService(context, 'sandbox');
  const files = sandbox
    ? {
        workspace: sandbox.workspace,
        checkRead: (path: string) => sandbox.policy.checkRead(path, pathContext(context, sandbox)),
        checkWrite: (path: string) => sandbox.policy.checkWrite(path, pathContext(context, sandbox)),
      }
    : undefined;
  return service.call(args, { signal: context.signal, files });
};

export const browser = defineBuiltin({
  name: 'browser',
  description:
    'Drive a supervised local browser (its own managed instance, not the user\'s screen) for JavaScript-rendered pages, forms, and interactive content. The screenshot action returns the page as an image the model can see; past 10 tabs the oldest non-active tab is closed.',
  policy_class: 'network',
  category: 'web',
  input: browserInput,
  when_to_use:
    'JavaScript-heavy or interactive pages, forms, logins and live data; use web_fetch for one readable page, web_search for a fact, computer_use for what is on the user\'s own screen.',
  examples: [
    { args: { action: 'open', url: 'https://www.example.com/flights' }, note: 'open a page in a new tab' },
    { args: { action: 'act', kind: 'fill', ref: 'e12', text: 'Lisbon' }, note: 'fill a field found in the latest snapshot' },
  ],
  failure_modes: [
    { tag: 'invalid_action', description: 'action is not a browser verb (the message names the act kind when one was used as an action)' },
    { tag: 'missing_action_arg', description: 'the chosen action or act kind is missing a required argument' },
    { tag: 'chrome_missing', description: 'Chrome or Chromium is not installed or configured' },
    { tag: 'navigation_blocked', description: 'the URL policy refused the navigation or read' },
    { tag: 'browser_busy', description: 'all browser profile slots are in use' },
    { tag: 'download_blocked', description: 'the download was refused (policy, size over 500000000 bytes, or timeout)' },
    { tag: 'host_lost', description: 'the browser process or its host went away' },
    { tag: 'cancelled', description: 'the action was cancelled' },
    { tag: 'unsupported_in_attached_tab', description: 'the action is not allowed in the user\'s attached tab' },
    { tag: 'attached_tab_not_granted', description: 'the user has not handed a tab over' },
    { tag: 'attached_tab_detached', description: 'the attached tab was closed or detached' },
    { tag: 'attached_tab_not_allowed', description: 'the attached tab is only for attended owner turns' },
    { tag: 'browser_bridge_unavailable', description: 'the Fermix browser extension bridge is not installed or not running' },
    { tag: 'shim_missing', description: 'the macOS disclaim launch shim is missing' },
    { tag: 'disclaim_failed', description: 'launching Chrome through the disclaim shim failed' },
    { tag: 'unknown_profile', description: 'profile does not name a configured browser profile' },
  ],
  scope_requirements: ['net:outbound', 'process:spawn'],
  // fill/type text and storage values are often passwords or tokens.
  audit_behavior: 'redact_args',
  metadata: { secret_fields: ['text', 'value'] },
  // Refs come from the latest snapshot and tabs persist between calls: call order matters.
  is_stateful: true,
  executor: executeBrowser,
  // A launch (15 s) plus the longest wait or download (120 s) must fit in one call.
  timeout_ms: 150_000,
});
