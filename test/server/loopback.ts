// Real HTTP servers on 127.0.0.1 for tests that need what a fake fetch cannot show: redirects,
// sockets, slow clients. Each server is closed when its test finishes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { onTestFinished } from 'vitest';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface LoopbackServer {
  origin: string;
  server: Server;
  /** Every request the server received, with its body. */
  seen: SeenRequest[];
}

/** Starts `listener` on a free loopback port; records each request (reading its body first). */
export async function loopback(listener: (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      listener(req, res, request);
    });
  });
  return { origin: await listen(server), server, seen };
}

/** Listens on a free loopback port and closes the server (and its sockets) after the test. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no TCP address.');
  return `http://127.0.0.1:${address.port}`;
}
