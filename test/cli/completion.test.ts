// Shell completion: the bash script parses (bash -n) and, loaded into a real bash, completes the commands,
// a group's commands and a command's options from the same table the CLI parses.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main';
import { runCli, toolAvailable } from './harness';

const HAS_ZSH = toolAvailable('zsh', ['--version'], 'zsh', 'zsh', 'the zsh completion tests');
const HAS_FISH = toolAvailable('fish', ['--version'], 'fish', 'fish', 'the fish completion tests');

let directory = '';

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'agent-widget-completion-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** What bash offers for the command line `words`, the last one being completed. */
function bashOffers(script: string, words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const result = spawnSync(
    'bash',
    ['-c', `source '${script}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _agent_widget; echo "\${COMPREPLY[*]}"`],
    {
      encoding: 'utf8',
    },
  );
  expect(result.stderr).toBe('');
  return result.stdout.trim().split(' ').filter(Boolean);
}

describe('agent-widget completion', () => {
  it('prints a bash script that parses and completes commands, groups, options and fixed choices', async () => {
    const printed = await runCli(['completion', 'bash']);
    expect(printed.code).toBe(0);
    const script = join(directory, 'agent-widget.bash');
    await writeFile(script, printed.stdout);
    expect(spawnSync('bash', ['-n', script], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
    expect(printed.stdout).toContain('complete -F _agent_widget agent-widget');

    const firstWords = [...new Set(COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]).map((name) => name.split(' ')[0]))];
    expect(bashOffers(script, ['agent-widget', '']).sort()).toEqual([...firstWords, 'help'].sort());
    expect(bashOffers(script, ['agent-widget', 'so'])).toEqual(['sources']);
    expect(bashOffers(script, ['agent-widget', 'sources', 'r'])).toEqual(['remove', 'rm']);
    expect(bashOffers(script, ['agent-widget', 'sources', 'train', 'ws_1', '--w'])).toEqual(['--wait']);
    expect(bashOffers(script, ['agent-widget', 'sources', 'ls', '--a'])).toEqual(['--agent']);
    expect(bashOffers(script, ['agent-widget', 'limits', 'check', 's'])).toEqual(['storage']);
    expect(bashOffers(script, ['agent-widget', 'analytics', '--s'])).toEqual(['--since']);
    expect(bashOffers(script, ['agent-widget', 'completion', 'f'])).toEqual(['fish']);
  });

  it.skipIf(!HAS_ZSH)('prints a zsh script that parses and, loaded into zsh, offers the same words', async () => {
    const printed = await runCli(['completion', 'zsh']);
    const script = join(directory, '_agent_widget');
    await writeFile(script, printed.stdout);
    expect(spawnSync('zsh', ['-n', script], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
    // Outside a completion widget compadd cannot run: a stand-in prints what would be offered.
    const offers = (words: string[]): string =>
      spawnSync(
        'zsh',
        [
          '-c',
          `compdef() { :; }; source '${script}'; compadd() { shift; print -r -- "$*"; }; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _agent_widget`,
        ],
        { encoding: 'utf8' },
      ).stdout.trim();
    expect(offers(['agent-widget', 'sources', ''])).toBe('list ls add discover urls train status remove rm');
    expect(offers(['agent-widget', 'sources', 'train', '--w']).split(' ')).toContain('--wait');
  });

  it.skipIf(!HAS_FISH)('prints a fish script that parses and, loaded into fish, completes', async () => {
    const printed = await runCli(['completion', 'fish']);
    const script = join(directory, 'agent-widget.fish');
    await writeFile(script, printed.stdout);
    expect(spawnSync('fish', ['-n', script], { encoding: 'utf8' })).toMatchObject({ status: 0, stderr: '' });
    const offers = (line: string): string[] =>
      spawnSync('fish', ['-c', `source '${script}'; complete -C '${line}'`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .map((row) => row.split('\t')[0] ?? '');
    expect(offers('agent-widget so')).toEqual(['sources']);
    expect(offers('agent-widget sources train ws_1 --w')).toEqual(['--wait']);
    expect(offers('agent-widget limits check s')).toEqual(['storage']);
  });

  it('prints zsh and fish scripts from the same table, and refuses another shell', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef agent-widget\n/);
    expect(zsh.stdout).toContain('compdef _agent_widget agent-widget');
    expect(zsh.stdout).toContain('choices=(list ls add discover urls train status remove rm)');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain("complete -c agent-widget -n __fish_use_subcommand -a 'sources documents analytics");
    expect(fish.stdout).toContain(
      "complete -c agent-widget -n '__fish_seen_subcommand_from sources; and __fish_seen_subcommand_from list ls' -a '--agent",
    );
    for (const command of COMMANDS) {
      const last = command.name.split(' ').at(-1) ?? '';
      expect(zsh.stdout).toContain(last);
      expect(fish.stdout).toContain(last);
    }
    expect(await runCli(['completion', 'powershell'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agent-widget: completion takes bash, zsh, fish.\n',
    });
  });
});
