// Where the config file lives on each platform, how a key is masked, and which setting wins.
import { describe, expect, it } from 'vitest';
import { configDirectory, type Config } from '../../src/cli/config';
import { maskKey, missingSettings, resolveSettings } from '../../src/cli/settings';

describe('the config directory', () => {
  const home = '/home/owner';
  it('is the platform’s own place, under agent-widget', () => {
    expect(configDirectory({}, 'linux', home)).toBe('/home/owner/.config/agent-widget');
    expect(configDirectory({ XDG_CONFIG_HOME: '/srv/config' }, 'linux', home)).toBe('/srv/config/agent-widget');
    // The XDG spec: a relative XDG_CONFIG_HOME is ignored.
    expect(configDirectory({ XDG_CONFIG_HOME: 'relative' }, 'linux', home)).toBe('/home/owner/.config/agent-widget');
    expect(configDirectory({}, 'darwin', home)).toBe('/home/owner/Library/Application Support/agent-widget');
    expect(configDirectory({ APPDATA: '/c/Users/owner/AppData/Roaming' }, 'win32', home)).toBe(
      '/c/Users/owner/AppData/Roaming/agent-widget',
    );
  });

  it('is AGENT_WIDGET_CONFIG_DIR when set, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(configDirectory({ AGENT_WIDGET_CONFIG_DIR: '/tmp/aw', XDG_CONFIG_HOME: '/x' }, platform, home)).toBe('/tmp/aw');
  });
});

describe('maskKey', () => {
  it('shows the public prefix and the last 4 characters, never enough to rebuild the key', () => {
    expect(maskKey('sk_live_sandbox_demo_0000000000001234')).toBe('sk_live_…1234');
    expect(maskKey('owner-secret-key-1234567890-wxyz')).toBe('…wxyz');
    // A short key shows nothing of itself: its last 4 would be a good part of it.
    expect(maskKey('sk_live_short')).toBe('sk_live_…');
    expect(maskKey('abc')).toBe('…');
  });
});

describe('resolveSettings', () => {
  const config: Config = {
    file: '/tmp/aw/config.json',
    profiles: new Map([
      ['default', { apiKey: 'sk_live_stored_default_key_0000', baseUrl: 'https://api.example.com', agentId: 'a1' }],
      ['staging', { apiKey: 'sk_live_stored_staging_key_1111', baseUrl: 'https://staging.example.com' }],
    ]),
  };

  it('takes a flag, then the environment, then the profile, and says where each came from', () => {
    const settings = resolveSettings({ AGENT_API_KEY: 'sk_live_env', AGENT_ID: 'env-agent' }, config, {});
    expect(settings.apiKey).toEqual({ value: 'sk_live_env', from: 'AGENT_API_KEY' });
    expect(settings.baseUrl).toEqual({ value: 'https://api.example.com', from: 'profile default' });
    expect(settings.agentId).toEqual({ value: 'env-agent', from: 'AGENT_ID' });
    expect(resolveSettings({ AGENT_ID: 'env-agent' }, config, { agent: 'flag-agent' }).agentId).toEqual({
      value: 'flag-agent',
      from: '--agent',
    });
  });

  it('picks the profile from --profile, else AGENT_WIDGET_PROFILE, and refuses a name that is not one', () => {
    expect(resolveSettings({ AGENT_WIDGET_PROFILE: 'staging' }, config, {}).baseUrl?.from).toBe('profile staging');
    expect(resolveSettings({ AGENT_WIDGET_PROFILE: 'staging' }, config, { profile: 'default' }).profile).toBe('default');
    expect(() => resolveSettings({}, config, { profile: '__proto__' })).toThrow(/A profile name is/);
    expect(() => resolveSettings({}, config, { profile: '../etc' })).toThrow(/A profile name is/);
  });

  it('names a chosen profile that does not exist, and every missing setting at once', () => {
    expect(missingSettings(resolveSettings({}, config, { profile: 'prod' }), false)?.message).toBe(
      'There is no profile prod in /tmp/aw/config.json; run agent-widget login --profile prod to make it.',
    );
    const empty: Config = { file: '/tmp/aw/config.json', profiles: new Map() };
    expect(missingSettings(resolveSettings({}, empty, {}), true)?.message).toBe(
      'Not set: the API key (AGENT_API_KEY), the base URL (AGENT_BASE_URL) and the agent (--agent or AGENT_ID). Run agent-widget login to store them, or set the environment variables.',
    );
    expect(missingSettings(resolveSettings({}, config, { profile: 'staging' }), false)).toBeUndefined();
  });
});
