// Where every byte the CLI writes goes through: stdout for results, stderr for progress and errors,
// the API key redacted from both, colour only on a terminal that wants it.
import { WriteStream } from 'node:tty';
import { createColors } from 'picocolors';
import { redact, safeJson } from './text';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type Env = Record<string, string | undefined>;

export type Colors = ReturnType<typeof createColors>;

export interface Output {
  readonly json: boolean;
  /** stderr, when it and stdout are both terminals (and this is not CI): progress may redraw a line. */
  readonly live: WriteStream | undefined;
  readonly colors: Colors;
  readonly width: number;
  /** A line of results on stdout. */
  line(text?: string): void;
  /** The one JSON document of a --json run, on stdout. */
  data(value: unknown): void;
  /** Progress and notices on stderr (kept off stdout so `--json | jq` stays clean). */
  note(text: string): void;
  /** `text` with the key redacted, for writers that do not go through this one (the spinner). */
  clean(text: string): string;
  /** A question on stderr, the answer typed on the same line. */
  prompt(text: string): void;
  /** Redacts `secret` too from now on (a key read from the config file or typed at login). */
  hide(secret: string): void;
  /** Whether data() has written the run's JSON document yet. */
  readonly wroteData: boolean;
}

const isTerminal = (stream: OutStream, env: Env): boolean => stream.isTTY === true && env.TERM !== 'dumb' && !('CI' in env);

/** NO_COLOR (https://no-color.org) and FORCE_COLOR=0 (or false) turn it off; another FORCE_COLOR forces it; otherwise colour on a terminal only. */
function wantsColor(stream: OutStream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if (force !== undefined) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export function createOutput(io: { stdout: OutStream; stderr: OutStream; env: Env }, json: boolean, { color = true } = {}): Output {
  const secrets: (string | undefined)[] = [io.env.AGENT_API_KEY];
  const clean = (text: string): string => secrets.reduce<string>((done, secret) => redact(done, secret), text);
  const write = (stream: OutStream, text: string): void => {
    stream.write(clean(text));
  };
  let wroteData = false;
  return {
    json,
    live:
      !json && isTerminal(io.stdout, io.env) && io.stderr instanceof WriteStream && isTerminal(io.stderr, io.env) ? io.stderr : undefined,
    colors: createColors(color && !json && wantsColor(io.stdout, io.env)),
    width: Math.max(40, Math.min(io.stdout.columns ?? 80, 160)),
    line: (text = '') => write(io.stdout, `${text}\n`),
    data: (value) => {
      wroteData = true;
      write(io.stdout, `${safeJson(value)}\n`);
    },
    note: (text) => write(io.stderr, `${text}\n`),
    prompt: (text) => write(io.stderr, text),
    clean,
    hide: (secret) => void secrets.push(secret),
    get wroteData() {
      return wroteData;
    },
  };
}
