import { FermixError } from '../core/errors.js';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Helpers for Net.Guard's tests: real servers on 127.0.0.1, a throwaway CA, refusal capture. Not for product code. */

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  servername?: string;
}

export interface LocalServer {
  port: number;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export function startHttpServer(handler: Handler): Promise<LocalServer> {
  return listen(http.createServer(), handler, 'http');
}

export function startHttpsServer(tls: { key: string; cert: string }, handler: Handler): Promise<LocalServer> {
  return listen(https.createServer(tls), handler, 'https');
}

function listen(server: http.Server | https.Server, handler: Handler, scheme: string): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const servername = (request.socket as { servername?: string | false }).servername;
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      servername: typeof servername === 'string' ? servername : undefined,
    });
    handler(request, response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        origin: `${scheme}://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

export interface TestCertificates {
  ca: string;
  key: string;
  cert: string;
  cleanup(): Promise<void>;
}

const run = promisify(execFile);

/**
 * A fresh CA and a leaf certificate for `hostname`, made with the openssl CLI in a temp dir.
 * Fails loudly (no skip) when openssl is missing, naming it.
 */
export async function makeTestCertificates(hostname: string): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'fermix-net-ca-'));
  const path = (name: string) => join(dir, name);
  const openssl = async (...args: string[]) => {
    try {
      await run('openssl', args, { cwd: dir });
    } catch (error) {
      throw new Error(`openssl ${args[0]} failed; the HTTPS tests need the openssl CLI on PATH: ${String(error)}`);
    }
  };
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('ca.key'), '-out', path('ca.pem'),
    '-days', '2', '-subj', '/CN=Fermix Net.Guard test CA');
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('leaf.key'), '-out', path('leaf.csr'),
    '-subj', `/CN=${hostname}`);
  await writeFile(path('leaf.ext'), `subjectAltName=DNS:${hostname}\nbasicConstraints=CA:FALSE\n`);
  await openssl('x509', '-req', '-in', path('leaf.csr'), '-CA', path('ca.pem'), '-CAkey', path('ca.key'),
    '-CAcreateserial', '-out', path('leaf.pem'), '-days', '2', '-extfile', path('leaf.ext'));
  return {
    ca: await readFile(path('ca.pem'), 'utf8'),
    key: await readFile(path('leaf.key'), 'utf8'),
    cert: await readFile(path('leaf.pem'), 'utf8'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The FermixError a promise rejects with; fails the test when it resolves or throws something else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected a FermixError, but the call succeeded');
}
