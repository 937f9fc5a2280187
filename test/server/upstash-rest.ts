// A stand-in for Upstash's REST endpoint (we cannot reach Upstash from here): it speaks the same
// protocol the official @upstash/redis client uses (POST a JSON command array, or an array of them
// to /pipeline, with a Bearer token; answer { result } or { error }, strings base64-encoded when
// asked) and runs each command on a
// real redis-server. It checks the shape of the Upstash recipe, not Upstash itself.
import { createServer, type Server } from 'node:http';
/** The one method used of a connected node-redis client. */
interface Client {
  sendCommand(args: string[]): Promise<unknown>;
}

function encode(value: unknown): unknown {
  if (typeof value === 'string') return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

export async function startUpstashRest(redis: Client, token: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: unknown): void => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.headers.authorization !== `Bearer ${token}`) return answer(401, { error: 'Unauthorized' });
      let command: unknown;
      try {
        command = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, { error: 'ERR invalid JSON' });
      }
      const base64 = req.headers['upstash-encoding'] === 'base64';
      const run = (args: unknown): Promise<{ result: unknown } | { error: string }> =>
        Array.isArray(args) && args.length > 0
          ? redis.sendCommand(args.map(String)).then(
              (result) => ({ result: base64 ? encode(result) : result }),
              (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
            )
          : Promise.resolve({ error: 'ERR expected a command array' });
      // The client batches concurrent commands (auto-pipelining) into POST /pipeline.
      if (req.url === '/pipeline') {
        if (!Array.isArray(command)) return answer(400, { error: 'ERR expected an array of commands' });
        void Promise.all(command.map(run)).then((results) => answer(200, results));
        return;
      }
      void run(command).then((reply) => answer('error' in reply ? 400 : 200, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
