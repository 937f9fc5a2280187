// Types for demo-api.mjs (plain JS so scripts/serve.mjs runs in Node without a compiler).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as Server from '../src/server/index';
import type * as Node from '../src/server/node';
import type * as Sandbox from '../src/sandbox/index';

export interface DemoSettings {
  realService: string | undefined;
  apiKey: string | undefined;
  agentId: string | undefined;
  now: Date | undefined;
  strict: boolean;
  /** AGENT_SANDBOX_FAULTS as written. */
  faults: string;
  log: boolean;
  /** ALLOWED_ORIGINS, each an origin. */
  allowedOrigins: string[];
}

export interface DemoApi {
  readonly upstream: string;
  /** The pages allowed to use the chat, once listening. */
  readonly allowedOrigins: readonly string[];
  listening(port: number, origin: string): void;
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
}

export declare function demoSettings(env: NodeJS.ProcessEnv): DemoSettings;
export declare function createDemoApi(
  modules: { server: typeof Server; node: typeof Node; sandbox: typeof Sandbox },
  settings: DemoSettings,
): DemoApi;
