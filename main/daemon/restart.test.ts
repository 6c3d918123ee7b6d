import { describe, expect, it } from 'vitest';
import { daemonCommand, successorArgs } from './restart.js';

describe('restart: which processes can start their own successor', () => {
  it('recognises `fermix daemon|run` from every entry the CLI has', () => {
    for (const entry of ['/opt/fermix/bin/fermix.cjs', '/opt/fermix/bin/fermix.mjs', '/usr/local/bin/fermix', '/x/fermix.js']) {
      expect(daemonCommand(['/usr/bin/node', entry, 'daemon', '--port', '4030'])).toEqual([entry, 'daemon', '--port', '4030']);
      expect(daemonCommand(['/usr/bin/node', entry, 'run'])).toEqual([entry, 'run']);
    }
  });

  it('refuses anything else: another verb, another script, no script', () => {
    expect(daemonCommand(['/usr/bin/node', '/opt/fermix/bin/fermix.cjs', 'status'])).toBeUndefined();
    expect(daemonCommand(['/usr/bin/node', '/work/node_modules/vitest/vitest.mjs', 'daemon'])).toBeUndefined();
    expect(daemonCommand(['/usr/bin/node', '/opt/fermix/bin/fermix.cjs.bak', 'daemon'])).toBeUndefined();
    expect(daemonCommand(['/usr/bin/node'])).toBeUndefined();
  });

  it('restarts on the port served now, whatever --port said', () => {
    expect(successorArgs(['/b/fermix.cjs', 'daemon', '--port', '0', '--verbose'], 4031)).toEqual(['/b/fermix.cjs', 'daemon', '--verbose', '--port', '4031']);
    expect(successorArgs(['/b/fermix.cjs', 'daemon', '--port=0'], 4031)).toEqual(['/b/fermix.cjs', 'daemon', '--port', '4031']);
  });
});
