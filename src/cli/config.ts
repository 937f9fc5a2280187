// Where `agent-widget login` keeps its profiles: one JSON file, readable by its owner only (0600, in a
// directory made 0700), in the platform's config directory. Environment variables still win over it (./settings).
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { attempt } from '../core/attempt';
import { isRecord } from '../core/guards';
import { CliError, usageError } from './errors';
import type { Env } from './output';
import { FileTooLarge, readPrivateFile, systemReason, writePrivateFile } from './private-file';

/** What one profile stores; every field is optional (logout removes the key, keeps the rest). */
export interface Profile {
  apiKey?: string;
  baseUrl?: string;
  agentId?: string;
}

export interface Config {
  /** The file it was read from and is written to. */
  file: string;
  profiles: Map<string, Profile>;
  /** The file as read could be read by others too (its mode was changed after login wrote it 0600). */
  readableByOthers?: boolean;
}

export const DEFAULT_PROFILE = 'default';

/** Letters, digits, `-` and `_`, starting with a letter or digit (so never `__proto__`). */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** A config file is a few hundred bytes; anything far larger is not ours. */
const MAX_CONFIG_BYTES = 64 * 1024;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) throw usageError('A profile name is 1 to 40 letters, digits, - or _, starting with a letter or digit.');
  return name;
}

/**
 * The directory: AGENT_WIDGET_CONFIG_DIR when set, else the platform's own place (XDG_CONFIG_HOME or
 * ~/.config on Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows) plus `agent-widget`.
 */
export function configDirectory(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  const override = env.AGENT_WIDGET_CONFIG_DIR;
  if (override !== undefined && override !== '') return override;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'agent-widget');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'agent-widget');
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config'), 'agent-widget');
}

export const configFile = (env: Env): string => join(configDirectory(env), 'config.json');

/** The file's text and mode; undefined when it does not exist. */
async function readFileOnce(file: string, broken: (why: string) => CliError): Promise<{ text: string; mode: number } | undefined> {
  try {
    return await readPrivateFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof FileTooLarge) throw broken(`is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
    throw broken(`could not be read (${systemReason(error)})`);
  }
}

/** The profiles in `file`; none when it does not exist. A file that is not ours is a usage error naming it. */
export async function readConfig(file: string): Promise<Config> {
  const broken = (why: string): CliError =>
    new CliError(`The config file ${file} ${why}; fix it, or remove it and run agent-widget login again.`, 'bad_config');
  const read = await readFileOnce(file, broken);
  if (read === undefined) return { file, profiles: new Map() };
  const { text, mode } = read;
  const body: unknown = attempt(() => JSON.parse(text));
  if (!isRecord(body) || !isRecord(body.profiles)) throw broken('is not JSON of the form { "profiles": { … } }');
  const profiles = new Map<string, Profile>();
  for (const [name, value] of Object.entries(body.profiles)) {
    if (!PROFILE_NAME.test(name) || !isRecord(value)) throw broken(`has a profile that is not one ("${name.slice(0, 40)}")`);
    const profile: Profile = {};
    for (const field of ['apiKey', 'baseUrl', 'agentId'] as const) {
      const setting = value[field];
      if (setting === undefined) continue;
      if (typeof setting !== 'string') throw broken(`has a ${field} in profile ${name} that is not a string`);
      profile[field] = setting;
    }
    profiles.set(name, profile);
  }
  // Windows has no such mode bits.
  return { file, profiles, readableByOthers: process.platform !== 'win32' && (mode & 0o077) !== 0 };
}

/** Writes the config whole, readable by its owner only (see writePrivateFile): the key is never readable by others. */
export async function writeConfig(config: Config): Promise<void> {
  try {
    await writePrivateFile(config.file, `${JSON.stringify({ profiles: Object.fromEntries(config.profiles) }, null, 2)}\n`);
  } catch (error) {
    throw new CliError(`Could not write the config file ${config.file} (${systemReason(error)}).`, 'failed');
  }
}
