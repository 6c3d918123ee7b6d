import type { DispatchResult } from '../../../main/api/dispatcher.js';

/**
 * What preload/index.ts exposes as `window.fermix` inside Electron. The preload is the only writer of this
 * shape; keep the two in step (the preload has no per-method code, so this changes only with the channels).
 */
export interface FermixBridge {
  invoke(method: string, input: unknown): Promise<DispatchResult>;
  subscribe(listener: (event: unknown) => void): () => void;
}

export function readBridge(scope: object): FermixBridge | undefined {
  const candidate = (scope as { fermix?: Partial<FermixBridge> }).fermix;
  return candidate && typeof candidate.invoke === 'function' && typeof candidate.subscribe === 'function' ? (candidate as FermixBridge) : undefined;
}
