// Environment-neutral code may use these web-standard globals, which exist in Node 20, Electron and browsers.
// Declared here (not through lib "DOM" or @types/node) so that common code cannot reach any other platform API.
// Interfaces merge with the full declarations where those are loaded.
export {};
declare global {
  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: any;
    throwIfAborted(): void;
  }
  interface AbortController {
    readonly signal: AbortSignal;
    abort(reason?: any): void;
  }
  var AbortController: { prototype: AbortController; new (): AbortController };
  function setTimeout(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): any;
  function clearTimeout(id: any): void;
  var performance: { now(): number };
  // Web Crypto's random UUID (Node 19+, every browser): approval ids that never repeat across restarts.
  var crypto: { randomUUID(): string };
  var console: { log(...args: any[]): void; warn(...args: any[]): void; error(...args: any[]): void };
}
