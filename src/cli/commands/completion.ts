// `completion bash|zsh|fish`: a script for the shell, generated from the command table.
import type { Command } from '../command';
import { completionScript, SHELLS, type Shell } from '../completion';
import { usageError } from '../errors';

const isShell = (value: string): value is Shell => (SHELLS as readonly string[]).includes(value);

/** The command, reading the table when it runs (the table includes this command). */
export function completionCommand(commands: () => Command[]): Command {
  return {
    name: 'completion',
    summary: 'Print a shell completion script for bash, zsh or fish.',
    args: [SHELLS.join('|')],
    options: {},
    usesAgent: false,
    local: true,
    notes: [
      'bash: add source <(agent-widget completion bash) to ~/.bashrc; zsh: the same in ~/.zshrc after compinit;',
      'fish: agent-widget completion fish > ~/.config/fish/completions/agent-widget.fish',
    ],
    examples: ['agent-widget completion fish > ~/.config/fish/completions/agent-widget.fish', 'source <(agent-widget completion bash)'],
    async run(ctx, [shell = '']) {
      if (!isShell(shell)) throw usageError(`completion takes ${SHELLS.join(', ')}.`);
      const script = completionScript(shell, commands());
      if (ctx.out.json) ctx.out.data({ shell, script });
      else ctx.out.line(script.trimEnd());
    },
  };
}
