import { mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Download } from 'playwright-core';
import { FermixError } from '../core/errors.js';
import { delay, elementOf, missingArg, requireArg, toBrowserError, type ActionHandler, type FileAccess } from './action-support.js';

/** Reference §2.12: downloads ≤ 500,000,000 bytes, 30 s by default, 120 s at most. */
export const DOWNLOAD_MAX_BYTES = 500_000_000;
const DOWNLOAD_DEFAULT_MS = 30_000;
const DOWNLOAD_MAX_MS = 120_000;

function filesOf(files: FileAccess | undefined, call: string): FileAccess {
  if (files) return files;
  throw new FermixError({ code: 'service_unavailable', message: `browser ${call} needs the workspace, which this daemon did not provide.`, hint: 'This is a wiring bug in the daemon (main/daemon/tool-services.ts); run `fermix doctor` and report it.' });
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Real path of the workspace (it may itself sit behind a symlink, e.g. /tmp on macOS). */
function workspaceRoot(files: FileAccess): string {
  try {
    return realpathSync(files.workspace);
  } catch {
    return path.resolve(files.workspace);
  }
}

function outsideWorkspace(shown: string, workspace: string, call: string): FermixError {
  return new FermixError({
    code: 'sandbox_denied',
    message: `browser ${call} works only inside the workspace, and ${shown} is outside it.`,
    hint: `Use a path inside ${workspace} (copy the file there first for an upload).`,
    data: { path: shown, workspace },
  });
}

/** A workspace path to write to: relative paths are under the workspace; the sandbox policy has the last word. */
export function workspaceTarget(files: FileAccess, wanted: string, call: string): string {
  const root = workspaceRoot(files);
  const absolute = path.resolve(root, wanted);
  if (!isWithin(absolute, root)) throw outsideWorkspace(wanted, root, call);
  mkdirSync(path.dirname(absolute), { recursive: true });
  const checked = files.checkWrite(absolute);
  if (!isWithin(checked, root)) throw outsideWorkspace(wanted, root, call);
  return checked;
}

function safeName(name: string): string {
  const base = path.basename(name).replace(/[\u0000-\u001f/\\:]/gu, '_').trim();
  return base === '' || base === '.' || base === '..' ? 'download' : base.slice(0, 200);
}

function blocked(message: string, hint: string, data: Record<string, unknown>): FermixError {
  return new FermixError({ code: 'download_blocked', message, hint, data });
}

async function finish(download: Download, timeoutMs: number, signal: AbortSignal): Promise<string> {
  const finished = download.path().then((file) => ({ file }), (error: unknown) => ({ error }));
  const outcome = await Promise.race([finished, delay(timeoutMs, signal).then(() => ({ timedOut: true as const }))]);
  if ('timedOut' in outcome) {
    await download.cancel().catch(() => undefined);
    throw blocked(`The download of ${download.url().slice(0, 200)} did not finish in ${timeoutMs} ms.`, 'Pass a larger timeout_ms (at most 120000), or fetch a smaller file.', { url: download.url(), timeout_ms: timeoutMs });
  }
  if ('error' in outcome) throw blocked(`The download of ${download.url().slice(0, 200)} failed: ${String((outcome.error as Error)?.message ?? outcome.error).split('\n')[0]}.`, 'Check the link with browser action=snapshot include_urls=true; a refused address cannot be downloaded.', { url: download.url() });
  return outcome.file;
}

export const download: ActionHandler = async (ctx) => {
  const files = filesOf(ctx.files, 'download');
  const { page } = await ctx.session.page(ctx.args.target);
  const timeoutMs = Math.min(ctx.args.timeout_ms ?? DOWNLOAD_DEFAULT_MS, DOWNLOAD_MAX_MS);
  if (!ctx.args.ref && !ctx.args.selector && !ctx.args.url) throw missingArg('download', 'ref', '{"action":"download","ref":"e12"} (the link or button that downloads), or with "url"');
  const started = page.waitForEvent('download', { timeout: timeoutMs });
  started.catch(() => undefined);
  try {
    if (ctx.args.url) {
      const url = await ctx.session.guard.assertNavigable(ctx.args.url);
      // An <a download> click: the page's own request, so the route guard sees it like any other.
      await page.evaluate((href) => {
        const document = (globalThis as any).document;
        const link = document.createElement('a');
        link.href = href;
        link.download = '';
        document.body.appendChild(link);
        link.click();
        link.remove();
      }, url);
    } else {
      await elementOf(page, ctx.args, 'download').click();
    }
  } catch (error) {
    throw toBrowserError(error, { call: 'download', ref: ctx.args.ref });
  }
  let item: Download;
  try {
    item = await started;
  } catch {
    throw blocked(`Nothing was downloaded within ${timeoutMs} ms.`, 'Make sure the ref or URL points at a file download (browser action=snapshot include_urls=true shows the links).', { timeout_ms: timeoutMs });
  }
  const temporary = await finish(item, timeoutMs, ctx.signal);
  const size = statSync(temporary).size;
  if (size > DOWNLOAD_MAX_BYTES) {
    await item.delete().catch(() => undefined);
    throw blocked(`The download is ${size} bytes, over the ${DOWNLOAD_MAX_BYTES}-byte cap.`, 'Fetch a smaller file or ask the person to download it themselves.', { bytes: size });
  }
  const wanted = ctx.args.path ?? path.join('downloads', safeName(item.suggestedFilename()));
  const target = workspaceTarget(files, wanted, 'download');
  await item.saveAs(target);
  await item.delete().catch(() => undefined);
  return { text: `Downloaded ${item.suggestedFilename()} (${size} bytes) to ${target}.`, data: { path: target, bytes: size, url: item.url(), suggested_filename: item.suggestedFilename() } };
};

export const upload: ActionHandler = async (ctx) => {
  const files = filesOf(ctx.files, 'upload');
  const wanted = requireArg(ctx.args, 'path', 'upload', '{"action":"upload","ref":"e7","path":"report.pdf"} with a file in the workspace');
  const { page } = await ctx.session.page(ctx.args.target);
  const root = workspaceRoot(files);
  const absolute = path.resolve(root, wanted);
  if (!isWithin(absolute, root)) throw outsideWorkspace(wanted, root, 'upload');
  const real = files.checkRead(absolute);
  // checkRead resolves symlinks: a link inside the workspace pointing out of it is refused here.
  if (!isWithin(real, root)) throw outsideWorkspace(wanted, root, 'upload');
  if (!statSync(real, { throwIfNoEntry: false })?.isFile()) {
    throw new FermixError({ code: 'not_regular_file', message: `${real} is missing or not a regular file.`, hint: 'Upload an existing file from the workspace; glob_search finds it by name.', data: { path: real } });
  }
  const element = elementOf(page, ctx.args, 'upload');
  try {
    const isFileInput = await element.evaluate((node: any) => node.tagName === 'INPUT' && node.type === 'file');
    if (isFileInput) {
      await element.setInputFiles(real);
    } else {
      // A styled button that opens the file chooser.
      const chooser = page.waitForEvent('filechooser');
      await element.click();
      await (await chooser).setFiles(real);
    }
  } catch (error) {
    throw toBrowserError(error, { call: 'upload', ref: ctx.args.ref });
  }
  return { text: `Attached ${path.basename(real)} (${statSync(real).size} bytes) to ${ctx.args.ref ?? ctx.args.selector}. Submit the form to send it.`, data: { path: real } };
};

export const pdf: ActionHandler = async (ctx) => {
  const files = filesOf(ctx.files, 'pdf');
  const { page } = await ctx.session.page(ctx.args.target);
  if (!ctx.session.headless) {
    throw new FermixError({ code: 'browser_action_failed', message: 'Chromium prints PDFs only in a headless profile.', hint: 'Call browser action=pdf with profile="fermix_headless".' });
  }
  const title = (await page.title().catch(() => '')) || 'page';
  const target = workspaceTarget(files, ctx.args.path ?? path.join('downloads', `${safeName(title)}.pdf`), 'pdf');
  try {
    await page.pdf({ path: target, printBackground: true });
  } catch (error) {
    throw toBrowserError(error, { call: 'pdf' });
  }
  return { text: `Saved ${page.url()} as a PDF: ${target} (${statSync(target).size} bytes).`, data: { path: target, bytes: statSync(target).size } };
};
