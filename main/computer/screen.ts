/**
 * Screenshots at a model-friendly size and the mapping of the model's coordinates back to the screen.
 * The model sees at most 1280×800 (WXGA, which vision models read without their own resizing); its
 * x/y refer to that image, so every pointer action maps them through the latest shot's geometry.
 */
import { FermixError } from '../core/errors.js';
import type { TrackedBackend } from './backend.js';
import { cropAndScale, encodePng, fingerprint, type Rect } from './png.js';

export const MAX_SHOT_WIDTH = 1280;
export const MAX_SHOT_HEIGHT = 800;

export interface Shot {
  /** PNG, base64. */
  base64: string;
  width: number;
  height: number;
  /** The screen rectangle (in pointer coordinates) the image shows. */
  view: Rect;
  /** Of the raw frame, to tell whether anything on screen changed. */
  fingerprint: string;
  takenAt: number;
}

/** The size a screen (or region) of w×h is shown at. */
export function shotSize(w: number, h: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_SHOT_WIDTH / w, MAX_SHOT_HEIGHT / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

export function checkRegion(region: Rect | undefined, screen: { width: number; height: number }): Rect {
  if (!region) return { x: 0, y: 0, w: screen.width, h: screen.height };
  if (region.x < 0 || region.y < 0 || region.x + region.w > screen.width || region.y + region.h > screen.height) {
    throw new FermixError({
      code: 'invalid action',
      message: `The region ${region.w}×${region.h} at ${region.x},${region.y} is not inside the ${screen.width}×${screen.height} screen.`,
      hint: 'Give region in full-screen pixels inside the screen, or leave it out for the whole screen.',
      data: { region, screen },
    });
  }
  return region;
}

export async function takeShot(backend: TrackedBackend, view: Rect, now: number): Promise<Shot> {
  const screen = await backend.screenSize();
  const raw = await backend.grab();
  // On a HiDPI screen the frame has more pixels than the pointer space: crop in frame pixels.
  const density = raw.width / screen.width;
  const frameRect = { x: view.x * density, y: view.y * density, w: view.w * density, h: view.h * density };
  const size = shotSize(view.w, view.h);
  const png = encodePng(cropAndScale(raw, frameRect, size.width, size.height));
  return { base64: png.toString('base64'), width: size.width, height: size.height, view, fingerprint: fingerprint(raw), takenAt: now };
}

/** Only the fingerprint, cheaper than a PNG: for "did anything change". */
export async function frameFingerprint(backend: TrackedBackend): Promise<string> {
  return fingerprint(await backend.grab());
}

/** Maps a point of the shot's image to pointer coordinates; refuses points outside the image. */
export function toScreen(shot: Pick<Shot, 'width' | 'height' | 'view'>, x: number, y: number): { x: number; y: number } {
  if (x < 0 || y < 0 || x >= shot.width || y >= shot.height) {
    throw new FermixError({
      code: 'invalid action',
      message: `The point ${x},${y} is outside the latest screenshot (${shot.width}×${shot.height}).`,
      hint: 'Use x and y read from the latest screenshot; take one with action "screenshot" first.',
      data: { x, y, width: shot.width, height: shot.height },
    });
  }
  return {
    x: Math.round(shot.view.x + ((x + 0.5) * shot.view.w) / shot.width - 0.5),
    y: Math.round(shot.view.y + ((y + 0.5) * shot.view.h) / shot.height - 0.5),
  };
}

/** The inverse, to report the cursor in the model's coordinates. */
export function fromScreen(shot: Pick<Shot, 'width' | 'height' | 'view'>, x: number, y: number): { x: number; y: number } {
  return {
    x: Math.round(((x - shot.view.x) * shot.width) / shot.view.w),
    y: Math.round(((y - shot.view.y) * shot.height) / shot.view.h),
  };
}

/**
 * Waits until two frames in a row agree (the view settled), at most `maxMs`; returns the last
 * fingerprint. 100 ms between frames: long enough for a repaint, short enough to feel immediate.
 */
export async function waitForSettle(backend: TrackedBackend, maxMs = 1500, stepMs = 100): Promise<void> {
  const started = Date.now();
  let previous = await frameFingerprint(backend);
  while (Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    const current = await frameFingerprint(backend);
    if (current === previous) return;
    previous = current;
  }
}
