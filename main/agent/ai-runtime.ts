import type * as AiSdk from './ai-sdk.js';

let loaded: typeof AiSdk | undefined;
let loading: Promise<typeof AiSdk> | undefined;

/** Loads the AI SDK once; the agent awaits it before a turn's first request is built. */
export function loadAiSdk(): Promise<typeof AiSdk> {
  loading ??= import('./ai-sdk.js').then((module) => (loaded = module));
  return loading;
}

/** The loaded SDK, for code that runs inside a turn (after loadAiSdk resolved). */
export function aiSdk(): typeof AiSdk {
  if (!loaded) throw new Error('The AI SDK was used before loadAiSdk() finished (a turn must await it first).');
  return loaded;
}

/** The SDK if a turn has loaded it; error classification uses it (no SDK loaded → no SDK error). */
export function aiSdkIfLoaded(): typeof AiSdk | undefined {
  return loaded;
}
